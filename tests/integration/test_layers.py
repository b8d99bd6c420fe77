"""The layers above single facts, against the real Neo4j (and Kafka): a summary per session that
ends, a profile that is written after the first and follows what changes, versions kept, the
model's answers replayed without it, and a summary the model failed tried again and replaced."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from domain.events import SessionSummarized
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from tests.integration.test_memory_formation import (
    end,
    kafka_mode,
    rebuild_with_the_model_gone,
    talk,
    turns,
)
from tests.support.chat_stub import chat_stub
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints

BERLIN = turns(
    "2026-01-10T10:00:00Z",
    ("user", "I live in Berlin and I work as a nurse at the Charité hospital."),
    ("assistant", "That sounds demanding."),
    ("user", "It is. Night shifts are hard, but I love my patients."),
    ("assistant", "I see."),
)
CLIMBING = turns(
    "2026-01-20T18:00:00Z",
    ("user", "I started bouldering with my sister Ana every Tuesday."),
    ("assistant", "Nice! Which gym?"),
    ("user", "The Boulderklub in Kreuzberg. My fingers still hurt after each session."),
    ("assistant", "Tape helps."),
)
TRIP = turns(
    "2026-02-02T08:00:00Z",
    ("user", "I'm planning a trip to Japan in April with Ana."),
    ("assistant", "Exciting!"),
    ("user", "We still need to book the ryokan in Kyoto."),
    ("assistant", "Shall I remind you?"),
)
MOVE = turns(
    "2026-03-15T10:00:00Z",
    ("user", "Big news: I moved to Lisbon last month."),
    ("assistant", "Congratulations!"),
    ("user", "The light here is wonderful and the hospital job in Lisbon starts soon."),
    ("assistant", "Good luck."),
)


@pytest.fixture(params=["sqlite", "kafka"])
def settings(
    request: pytest.FixtureRequest, servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str]
) -> Settings:
    if request.param == "kafka":
        return kafka_mode(servers, tmp_path, kafka_topic)
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extraction_poll_s=0.1)


def summaries(client: TestClient, user: str = "ada") -> list[dict[str, Any]]:
    response = client.get(f"/v1/users/{user}/summaries")
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def profile(client: TestClient, user: str = "ada", **params: Any) -> dict[str, Any]:
    response = client.get(f"/v1/users/{user}/profile", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def done(client: TestClient, sessions: int) -> Callable[[], bool]:
    """All `sessions` summarized, and no profile version due."""

    def check() -> bool:
        found = summaries(client)
        return len(found) == sessions and not any(s["pending"] for s in found) and not profile_due(client)

    return check


def profile_due(client: TestClient) -> bool:
    lore = client.app.state.lore  # type: ignore[attr-defined]
    return bool(lore.layer_queries.due_profiles(None))


def progress(client: TestClient) -> Callable[[], object]:
    return lambda: (len(summaries(client)), profile(client)["version"])


def test_sessions_give_summaries_and_a_profile_that_follows_a_move(client: TestClient, neo4j: Driver) -> None:
    assert profile(client)["version"] == 0 and "No profile yet" in profile(client)["note"]
    for n, said in enumerate((BERLIN, CLIMBING, TRIP)):
        talk(client, f"chat-{n}", said)
        end(client, f"chat-{n}")
    wait_until(done(client, 3), "three summaries", progress=progress(client))

    found = summaries(client)
    assert [s["session_id"] for s in found] == ["chat-2", "chat-1", "chat-0"]  # newest first
    trip = found[0]
    assert "Japan" in trip["summary"] and trip["summarized_by"] == "narrative/1" and not trip["fallback"]
    assert "ryokan" in (trip["unresolved"] or "")  # still to book
    assert 3 <= len(trip["topics"]) <= 5
    page = client.get("/v1/users/ada/summaries", params={"limit": 2}).json()
    assert len(page["items"]) == 2 and page["next_offset"] == 2
    first = profile(client)
    assert first["version"] >= 1 and "Berlin" in first["narrative"]
    assert {"key": "home_city", "value": "Berlin"} in first["basic_info"]

    talk(client, "chat-3", MOVE)
    end(client, "chat-3")
    wait_until(
        done(client, 4), "the fourth summary and the profile after the move", progress=progress(client)
    )
    latest = profile(client)
    assert latest["version"] > first["version"]
    narrative = latest["narrative"]
    assert "Lisbon" in narrative and "before that Berlin" in narrative, narrative
    assert {"key": "home_city", "value": "Lisbon"} in latest["basic_info"]
    # The version before is kept, as it was: what Lore thought then.
    before = profile(client, version=first["version"])
    assert before["narrative"] == first["narrative"]
    history = client.get("/v1/users/ada/profile/history").json()["items"]
    assert [v["version"] for v in history] == list(range(latest["version"], 0, -1))
    assert client.get("/v1/users/ada/profile", params={"version": 99}).status_code == 404
    # The graph: one summary per session, linked to what it summarizes; the versions in a chain.
    records, _, _ = neo4j.execute_query(
        "MATCH (:Session {user_id: 'ada'})-[:SUMMARY]->(s:Summary)-[:SUMMARIZES]->(:Episode) "
        "RETURN count(DISTINCT s) AS n"
    )
    assert records[0]["n"] == 4
    records, _, _ = neo4j.execute_query(
        "MATCH (p:Profile {user_id: 'ada'})-[:REVISES]->(q:Profile) RETURN count(*) AS n"
    )
    assert records[0]["n"] == latest["version"] - 1
    # Another person sees none of it.
    assert summaries(client, "bob") == [] and profile(client, "bob")["version"] == 0

    # Summaries are searchable, held to the person.
    hits = client.post("/v1/users/ada/search", json={"query": "Japan trip", "types": ["summary"]}).json()[
        "hits"
    ]
    assert hits and hits[0]["type"] == "summary" and "Japan" in hits[0]["content"]
    assert (
        client.post("/v1/users/bob/search", json={"query": "Japan trip", "types": ["summary"]}).json()["hits"]
        == []
    )

    # Asked for, a search also searches the questions synthesized from the query, and says which.
    asked_too = client.post(
        "/v1/users/ada/search",
        json={
            "query": "Where should we stay?",
            "recent_messages": ["We go to Kyoto in April"],
            "synthesize_questions": True,
        },
    ).json()
    assert asked_too["questions"] and any("kyoto" in q.lower() for q in asked_too["questions"])
    assert asked_too["questions_ms"] is not None and any("Kyoto" in h["content"] for h in asked_too["hits"])
    plain = client.post("/v1/users/ada/search", json={"query": "Where should we stay?"}).json()
    assert plain["questions"] == [] and plain["questions_ms"] is None

    # The context block in layers: who she is, her last sessions, then what is relevant; cited.
    asked = {"message": "Any tips for the ryokan?", "recent_messages": [{"role": "user", "content": "Kyoto"}]}
    block = client.post("/v1/users/ada/context", json={**asked, "token_budget": 400}).json()
    names = [s["name"] for s in block["sections"]]
    assert names[:2] == ["profile", "recent_sessions"] and block["tokens"] <= 400
    assert block["tokenizer"] == "cl100k_base" and block["cited"]["profile_version"] == latest["version"]
    assert block["cited"]["summaries"][0] == found[0]["summary_id"] or len(block["cited"]["summaries"]) >= 1
    assert block["questions"]  # the offline expansion, searched too
    text = block["text"]
    assert text.index("About them:") < text.index("Recent conversations:") and "Lisbon" in text
    small = client.post("/v1/users/ada/context", json={**asked, "token_budget": 60}).json()
    assert small["tokens"] <= 60 and len(small["sections"]) < len(block["sections"])
    markdown = client.post("/v1/users/ada/context", json={**asked, "format": "markdown"}).json()["text"]
    assert "## About them" in markdown
    sections = json.loads(
        client.post("/v1/users/ada/context", json={**asked, "format": "json"}).json()["text"]
    )
    assert sections["sections"][0]["name"] == "profile"
    nobody = client.post("/v1/users/bob/context", json=asked).json()
    assert nobody["sections"] == [] and nobody["cited"]["profile_version"] is None

    # Erasing her erases her summaries and profile versions too.
    erased = client.delete("/v1/users/ada", params={"wait": "true"})
    assert erased.status_code == 202, erased.text
    assert summaries(client) == [] and profile(client)["version"] == 0
    records, _, _ = neo4j.execute_query(
        "MATCH (n) WHERE (n:Summary OR n:Profile) AND n.user_id = 'ada' RETURN count(n) AS n"
    )
    assert records[0]["n"] == 0


SUMMARY = {
    "summary": "The person talked about {topic}.",
    "topics": ["{topic}", "plans", "family"],
    "user_intent": "to share news",
    "emotional_tone": "upbeat",
    "key_facts": [],
    "unresolved": None,
}


def stand_in(fail_first_summary: bool = False) -> Callable[[str], tuple[int, str] | None]:
    """Answers the summary prompt (a transcript) and the profile prompt as a model would; or is
    overloaded for the first summary (its first three requests: the client retries twice)."""
    failed: list[bool] = []

    def respond(asked: str) -> tuple[int, str]:
        if asked.startswith(("Profile version", "There is no profile yet")):
            return 200, json.dumps(
                {
                    "narrative": "Ada is a nurse. " + asked.split("Known now:")[1][:300],
                    "basic_info": [{"key": "profession", "value": "nurse"}],
                }
            )
        if fail_first_summary and len(failed) < 3:
            failed.append(True)
            return 503, "overloaded"
        topic = "Japan" if "Japan" in asked else "work"
        return 200, json.dumps(SUMMARY).replace("{topic}", topic)

    return respond


def with_model(servers: ServerEndpoints, tmp_path: Path, url: str, **extra: Any) -> Settings:
    """Summaries and profiles by a stand-in model at `url`; extraction by the offline rules."""
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", llm="openai",
                    llm_base_url=url, llm_model="stand-in", extractor="rules", extraction_poll_s=0.1, **extra)


def test_a_models_summaries_and_profile_are_replayed_without_it(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    with chat_stub("", respond=stand_in()) as stub:
        settings = with_model(servers, tmp_path, stub.url)
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            for n, said in enumerate((BERLIN, TRIP)):
                talk(client, f"chat-{n}", said)
                end(client, f"chat-{n}")
            wait_until(done(client, 2), "two summaries by the model", progress=progress(client))
            found = summaries(client)
            assert [(s["summary"], s["summarized_by"]) for s in found] == [
                ("The person talked about Japan.", "stand-in"),
                ("The person talked about work.", "stand-in"),
            ]
            written = profile(client)
            assert written["written_by"] == "stand-in" and written["narrative"].startswith("Ada is a nurse.")
            # The model's keys and what is known now, together.
            assert {"key": "profession", "value": "nurse"} in written["basic_info"]
            assert {"key": "home_city", "value": "Berlin"} in written["basic_info"]
        asked = len(stub.requests)
        live = fingerprint(neo4j)
    rebuild_with_the_model_gone(settings)
    assert fingerprint(neo4j) == live
    assert asked >= 3  # two summaries and at least one profile were asked of the model


def test_a_summary_the_model_failed_is_stored_offline_then_retried_and_replaced(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    with chat_stub("", respond=stand_in(fail_first_summary=True)) as stub:
        settings = with_model(servers, tmp_path, stub.url, summary_retry_s=0.5, llm_timeout_s=5)
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            talk(client, "chat", TRIP)
            end(client, "chat")

            def replaced() -> bool:
                found = summaries(client)
                return bool(found) and not found[0]["fallback"]

            wait_until(
                replaced, "the summary by the model, after its failure", progress=lambda: len(stub.requests)
            )
            (final,) = summaries(client)
            lore = client.app.state.lore  # type: ignore[attr-defined]
            made = [
                e
                for batch in lore.event_log.read({})
                for s in batch
                if isinstance(e := s.event, SessionSummarized)
            ]
        # First the offline summary, marked, and why; then the model's in its place.
        assert [(e.summarizer, e.fallback) for e in made] == [("narrative/1", True), ("stand-in", False)]
        assert "503" in (made[0].failure or "") and made[0].summary is not None
        assert final["summarized_by"] == "stand-in" and final["summary"] == "The person talked about Japan."
        records, _, _ = neo4j.execute_query(
            "MATCH (s:Summary) RETURN s.attempts AS attempts, s.status AS status"
        )
        assert [(r["attempts"], r["status"]) for r in records] == [(2, "done")]
