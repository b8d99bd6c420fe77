"""Forgetting reaches every copy a caller can see, and restoring brings it all back: the memory, the
turn its words came from (search, context, the page), the session's summary and the profile, each
written anew as events; a rebuild gives the same graph."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.kafka_flow import wait_until
from tests.support.rebuild import rebuilt_fingerprint
from tests.support.servers import ServerEndpoints
from tests.support.settled import nothing_due

DAY = "2026-03-02T09:00:00Z"
CHAT = [("user", "Morning! I moved to Lisbon last month."), ("assistant", "Thank you for telling me."),
        ("user", "I love hiking in the Alps on weekends."), ("assistant", "Sounds wonderful."),
        ("user", "And my favourite colour is green."), ("assistant", "Lovely.")]
WORD = "lisbon"


@pytest.fixture()
def settings(servers: ServerEndpoints, tmp_path: Path) -> Settings:
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extraction_poll_s=0.1)


@pytest.fixture()
def client(neo4j: Driver, settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


def says(value: Any) -> bool:
    return WORD in str(value).lower()


def seen(client: TestClient, memory_id: str) -> dict[str, bool]:
    """Where a caller can meet the memory or its words: search hits, the context block, summaries, the
    profile, the page (its list, and its search, whose box shows the query itself: the card is looked for)."""
    hits = client.post("/v1/users/ada/search", json={"query": "moved Lisbon", "types": ["memory", "message"]})
    block = client.post("/v1/users/ada/context", json={"message": "Which city did I move to? Lisbon?"})
    summaries = client.get("/v1/users/ada/summaries").json()
    profile = client.get("/v1/users/ada/profile").json()
    page = client.get("/ui/users/ada")
    found = client.get("/ui/users/ada", params={"q": "Lisbon"})
    return {"search": says([h["content"] for h in hits.json()["hits"]]),
            "context": says(block.json()["text"]), "summaries": says(summaries),
            "profile": says(profile.get("narrative")),
            "page": says(page.text) or f"memory-{memory_id}" in found.text}


def summary_settled(neo4j: Driver) -> bool:
    """The session's summary is written (not due: a revised one is withheld while it is), and no
    other work of Ada's is due (extraction, the profile) to change the graph under a comparison."""
    records, _, _ = neo4j.execute_query("MATCH (s:Summary {user_id: 'ada'}) RETURN s.status AS status")
    return bool(records) and all(r["status"] != "due" for r in records) and nothing_due(neo4j, "ada")


def test_forgetting_hides_the_memory_and_its_words_everywhere_and_restoring_brings_them_back(
        client: TestClient, settings: Settings, neo4j: Driver) -> None:
    messages = [{"role": role, "content": text, "timestamp": DAY} for role, text in CHAT]
    recorded = client.post("/v1/users/ada/episodes", params={"wait": "true"},
                           json={"session_id": "s1", "episode_id": "e1", "messages": messages})
    assert recorded.status_code == 202, recorded.text
    assert client.post("/v1/users/ada/sessions/s1/end", params={"wait": "true"}).status_code == 202
    wait_until(lambda: client.get("/v1/users/ada/profile").json()["version"] >= 1, "the first profile")
    wait_until(lambda: summary_settled(neo4j) and client.get("/v1/users/ada/summaries").json()["items"],
               "the session's summary")
    (moved,) = [m for m in client.get("/v1/users/ada/memories").json()["items"] if says(m["content"])]
    before = seen(client, moved['memory_id'])
    assert all(before.values()), before
    version = client.get("/v1/users/ada/profile").json()["version"]

    forgot = client.delete(f"/v1/users/ada/memories/{moved['memory_id']}", params={"wait": "true"})
    assert forgot.status_code == 202 and forgot.json()["status"] == "applied", forgot.text
    wait_until(lambda: client.get("/v1/users/ada/profile").json()["version"] > version, "a new profile")
    wait_until(lambda: summary_settled(neo4j), "the summary written anew")
    assert seen(client, moved['memory_id']) == dict.fromkeys(before, False)
    episode = client.get("/ui/users/ada/episodes/e1").text
    assert "(hidden: you forgot" in episode and "hiking in the Alps" in episode  # only its own turn
    # The other memories of the conversation are untouched; the forgotten one is listed as such.
    active = client.get("/v1/users/ada/memories").json()["items"]
    assert active and not any(says(m["content"]) for m in active)
    listed = client.get("/v1/users/ada/memories", params={"status": "forgotten"}).json()["items"]
    assert [m["memory_id"] for m in listed] == [moved["memory_id"]]
    then = client.get("/v1/users/ada/memories",
                      params={"status": "forgotten", "known_at": moved["recorded_at"]}).json()["items"]
    assert then == []  # as Lore knew it when it was said, it was not forgotten

    version = client.get("/v1/users/ada/profile").json()["version"]
    restored = client.post(f"/v1/users/ada/memories/{moved['memory_id']}/restore", params={"wait": "true"})
    assert restored.status_code == 202, restored.text
    wait_until(lambda: client.get("/v1/users/ada/profile").json()["version"] > version, "a new profile")
    wait_until(lambda: summary_settled(neo4j) and seen(client, moved['memory_id'])["summaries"],
               "the summary with it again")
    after = seen(client, moved['memory_id'])
    assert all(after.values()), after
    assert "(hidden: you forgot" not in client.get("/ui/users/ada/episodes/e1").text

    client.app.state.lore.use.flush()
    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live


def test_a_purge_deletes_for_good_and_touches_no_one_else(client: TestClient, settings: Settings,
                                                          neo4j: Driver) -> None:
    def remember(user: str, content: str) -> str:
        answer = client.post(f"/v1/users/{user}/memories", params={"wait": "true"}, json={"content": content})
        assert answer.status_code == 202, answer.text
        return str(answer.json()["memory_id"])

    tea, bike, bobs = remember("ada", "Ada drinks rooibos tea"), remember("ada", "Ada rides a red bike"), \
        remember("bob", "Bob keeps bees")
    purged = client.delete(f"/v1/users/ada/memories/{tea}", params={"wait": "true", "purge": "true"})
    assert purged.status_code == 202 and purged.json()["status"] == "applied", purged.text
    assert client.get(f"/v1/users/ada/memories/{tea}").status_code == 404
    assert client.get("/v1/users/ada/memories", params={"status": "forgotten"}).json()["items"] == []
    assert client.post(f"/v1/users/ada/memories/{tea}/restore").status_code == 404  # nothing to restore
    # Another person's memory is not the caller's to purge: as if it did not exist.
    other = client.delete(f"/v1/users/ada/memories/{bobs}", params={"wait": "true", "purge": "true"})
    assert other.status_code == 404 and other.json()["code"] == "memory_not_found"
    assert client.get(f"/v1/users/bob/memories/{bobs}").json()["status"] == "active"
    # From the page: the card goes.
    page = client.post(f"/ui/users/ada/memories/{bike}/purge")
    assert page.status_code == 200 and "Deleted for good" in page.text
    assert client.get("/v1/users/ada/memories").json()["items"] == []

    client.app.state.lore.use.flush()
    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live


def test_forgetting_a_topic_shows_it_first_then_forgets_it_as_one_decision(
        client: TestClient, settings: Settings, neo4j: Driver) -> None:
    said = [("user", "I worked at Acme as a welder for six years."), ("assistant", "That is a long time."),
            ("user", "My manager at Acme never listened."), ("assistant", "That sounds hard."),
            ("user", "Anyway, I love hiking in the Alps."), ("assistant", "Lovely."),
            ("user", "And my new job at Globex starts in May."), ("assistant", "Congratulations!")]
    messages = [{"role": role, "content": text, "timestamp": DAY} for role, text in said]
    assert client.post("/v1/users/ada/episodes", params={"wait": "true"},
                       json={"session_id": "s1", "episode_id": "e1", "messages": messages}).status_code == 202
    assert client.post("/v1/users/ada/sessions/s1/end", params={"wait": "true"}).status_code == 202
    wait_until(lambda: summary_settled(neo4j) and client.get("/v1/users/ada/profile").json()["version"] >= 1,
               "the session's summary and profile")
    before = client.get("/v1/users/ada/memories").json()["items"]

    dry = client.post("/v1/users/ada/forget", json={"topic": "my old job at Acme"})
    assert dry.status_code == 200, dry.text
    shown = dry.json()
    assert shown["dry_run"] and shown["messages"] >= 2
    assert all("acme" in i["content"].lower() for i in shown["items"])
    # (A session summary that names it is written anew without it, whatever else it says.)
    assert not any("Globex" in i["content"] or "Alps" in i["content"] for i in shown["items"]
                   if i["type"] != "summary")
    assert client.get("/v1/users/ada/memories").json()["items"] == before  # a dry run changes nothing

    done = client.post("/v1/users/ada/forget", json={"topic": "my old job at Acme", "dry_run": False})
    assert done.status_code == 202 and done.json()["status"] == "applied", done.text
    assert {i["id"] for i in done.json()["items"]} == {i["id"] for i in shown["items"]}
    wait_until(lambda: summary_settled(neo4j), "the summary written anew")
    both = ["memory", "message"]
    hits = client.post("/v1/users/ada/search", json={"query": "Acme welder manager", "types": both})
    assert not any("acme" in h["content"].lower() for h in hits.json()["hits"])
    kept = client.post("/v1/users/ada/search", json={"query": "Globex hiking", "types": both}).json()["hits"]
    assert {"Globex", "Alps"} <= {w for h in kept for w in ("Globex", "Alps") if w in h["content"]}
    assert "acme" not in str(client.get("/v1/users/ada/summaries").json()).lower()

    for bad in ("", "   ", "what was my"):
        refused = client.post("/v1/users/ada/forget", json={"topic": bad})
        assert refused.status_code == 422 and "topic" in refused.text, bad

    client.app.state.lore.use.flush()
    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live
