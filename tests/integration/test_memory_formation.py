"""Conversations become memories: extraction every few turns, at a session's end and on demand,
through both doors, by the offline rules and by a model behind an OpenAI-compatible endpoint
(here a stand-in server answering programmed responses, tests/support/chat_stub.py). Every
decision is in the log: a rebuild with the model out of reach gives the same graph."""

from __future__ import annotations

import json
import re
import signal
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from typer.testing import CliRunner

from domain.commands import EndSession, Message, RecordEpisode
from domain.events import MemoriesExtracted
from domain.extraction.taxonomy import Category, Taxonomy
from domain.model import MemoryKind
from infra.eventlog.kafka import KafkaEventLog
from infra.keys import open_key_store
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from services.cli import app
from tests.support.chat_stub import chat_stub
from tests.support.kafka_flow import (
    as_messages,
    env_for,
    kafka_settings,
    produce,
    start_worker,
    stop,
    wait_until,
)
from tests.support.servers import ServerEndpoints

BERLIN_DAY = "2026-01-10T10:00:00Z"
LISBON_DAY = "2026-03-15T10:00:00Z"  # a Sunday: "next Friday" is the 20th


def turns(at: str, *said: tuple[str, str]) -> list[dict[str, str]]:
    return [{"role": role, "content": text, "timestamp": at} for role, text in said]


BERLIN = turns(BERLIN_DAY, ("user", "Hi! I live in Berlin."), ("assistant", "Nice to meet you."),
               ("user", "I use VS Code for coding."), ("assistant", "A good editor."))
LISBON = turns(LISBON_DAY, ("user", "Big news: I moved to Lisbon last month."),
               ("assistant", "Congratulations!"), ("user", "I switched to Neovim."), ("assistant", "Brave."),
               ("user", "Remind me to renew my passport next Friday."), ("assistant", "I will."))
# The same, where the assistant names another city: what a model may (wrongly) infer a move to.
LISBON_OR_PORTO = [dict(m, content="Congratulations! Lisbon, not Porto?")
                   if m["content"] == "Congratulations!" else m for m in LISBON]


def kafka_mode(servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str],
               **extra: Any) -> Settings:
    return kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic,
                          extraction_poll_s=0.1, **extra)


@pytest.fixture(params=["sqlite", "kafka"])
def settings(request: pytest.FixtureRequest, servers: ServerEndpoints, tmp_path: Path,
             kafka_topic: Callable[..., str]) -> Settings:
    if request.param == "kafka":
        return kafka_mode(servers, tmp_path, kafka_topic)
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extraction_poll_s=0.1)


def talk(client: TestClient, session: str, messages: list[dict[str, str]], user: str = "ada",
         episode: str | None = None) -> None:
    response = client.post(f"/v1/users/{user}/episodes", params={"wait": "true"},
                           json={"session_id": session, "messages": messages, "episode_id": episode})
    assert response.status_code == 202 and response.json()["status"] == "applied", response.text


def end(client: TestClient, session: str, user: str = "ada") -> dict[str, Any]:
    response = client.post(f"/v1/users/{user}/sessions/{session}/end", params={"wait": "true"})
    assert response.status_code == 202, response.text
    return response.json()


def timeline(client: TestClient, attribute: str, user: str = "ada") -> list[tuple[str, str, str | None]]:
    items = client.get(f"/v1/users/{user}/timeline", params={"attribute": attribute}).json()["items"]
    return [(m["value"], m["valid_from"][:10], m["valid_until"] and m["valid_until"][:10]) for m in items]


def test_a_person_who_moves_switches_editor_and_asks_for_a_reminder(client: TestClient,
                                                                    neo4j: Driver) -> None:
    talk(client, "first-chat", BERLIN)
    first = end(client, "first-chat")
    assert first["extraction"]["status"] == "done" and first["extraction"]["extractor"] == "rules/23"
    talk(client, "second-chat", LISBON)
    second = end(client, "second-chat")["extraction"]
    assert second["status"] == "done" and second["candidates"] == 3, second

    assert timeline(client, "home_city") == [("Berlin", "2026-01-10", "2026-02-01"),
                                             ("Lisbon", "2026-02-01", None)]
    assert timeline(client, "editor") == [("VS Code", "2026-01-10", "2026-03-15"),
                                          ("Neovim", "2026-03-15", None)]
    editor = client.get("/v1/users/ada/memories", params={"attribute": "editor"}).json()["items"]
    assert [(m["kind"], m["value"], m["decided_by"]) for m in editor] == [
        ("preference", "Neovim", "rules/23")]
    (todo,) = client.get("/v1/users/ada/memories", params={"kind": "todo"}).json()["items"]
    assert "renew their passport" in todo["content"].lower() and todo["due_at"].startswith("2026-03-20")

    records, _, _ = neo4j.execute_query(
        "MATCH (new:Memory {value: 'Lisbon'})-[s:SUPERSEDES]->(old:Memory {value: 'Berlin'}) "
        "MATCH (new)-[:FROM_MESSAGE]->(x:Message) "
        "RETURN s.decided_by AS by, s.reason AS reason, x.content AS said")
    assert [(r["by"], r["said"]) for r in records] == [
        ("rules/23", "Big news: I moved to Lisbon last month.")]
    assert "berlin" in records[0]["reason"] and "lisbon" in records[0]["reason"]
    records, _, _ = neo4j.execute_query(
        "MATCH (:User {user_id: 'ada'})-[r:RELATES]->(e:Entity) RETURN r.predicate AS p, e.name AS name, "
        "e.type AS type ORDER BY p, name")
    assert [(r["p"], r["name"], r["type"]) for r in records] == [
        ("lives_in", "Berlin", "place"), ("lives_in", "Lisbon", "place"),
        ("uses", "Neovim", "software"), ("uses", "VS Code", "software")]
    # Nothing is due any more, and each extraction was answered once.
    records, _, _ = neo4j.execute_query("MATCH (x:Extraction) RETURN x.status AS status, count(*) AS n")
    assert {r["status"]: r["n"] for r in records} == {"done": 2}


def test_a_job_lost_ends_the_employer_now_and_keeps_it_as_of_before(client: TestClient,
                                                                     neo4j: Driver) -> None:
    talk(client, "at-work", turns(BERLIN_DAY, ("user", "I work at Tesco."), ("assistant", "Good to know."),
                                  ("user", "I live in Berlin."), ("assistant", "Noted.")), user="bo")
    end(client, "at-work", user="bo")
    wait_until(lambda: client.get("/v1/users/bo/profile").json()["version"] >= 1, "the first profile")
    talk(client, "let-go", turns(LISBON_DAY, ("user", "Bad news, I was laid off last week."),
                                 ("assistant", "I'm sorry to hear that."),
                                 ("user", "Not sure what comes next, to be honest."),
                                 ("assistant", "Noted.")), user="bo")
    end(client, "let-go", user="bo")

    (tesco,) = timeline(client, "employer", user="bo")
    assert tesco[:2] == ("Tesco", "2026-01-10") and tesco[2] is not None and tesco[2] < LISBON_DAY[:10]
    records, _, _ = neo4j.execute_query(
        "MATCH (:User {user_id: 'bo'})-[:REMEMBERS]->(new:Memory)-[s:SUPERSEDES]->(:Memory {value: 'Tesco'}) "
        "RETURN new.kind AS kind, new.content AS content, s.decided_by AS by, s.reason AS reason")
    assert [(r["kind"], r["by"]) for r in records] == [("event", "rules/23")]
    assert records[0]["content"].startswith("Was laid off") and "employer ended" in records[0]["reason"]
    def listed(**params: str) -> list[str]:
        answer = client.get("/v1/users/bo/memories", params={"attribute": "employer", **params})
        items = answer.json()["items"]
        return [m["value"] for m in items]

    assert listed() == [] and listed(status="superseded") == ["Tesco"]
    def employers(valid_at: str) -> list[str | None]:
        answer = client.post("/v1/users/bo/search", json={"query": "Tesco", "types": ["memory"],
                                                          "valid_at": valid_at})
        assert answer.status_code == 200, answer.text
        return [h["value"] for h in answer.json()["hits"] if h["attribute"] == "employer"]

    assert employers("2026-02-01T00:00:00Z") == ["Tesco"] and employers(LISBON_DAY) == []
    # the profile is written anew for the ended slot, and says it ended
    wait_until(lambda: client.get("/v1/users/bo/profile").json()["version"] >= 2, "the profile written anew")
    profile = client.get("/v1/users/bo/profile").json()
    assert "Employer: Tesco until" in profile["narrative"] and "works at Tesco" not in profile["narrative"]
    assert "employer" not in {b["key"] for b in profile["basic_info"]}


def test_every_fifth_turn_is_extracted_without_waiting_for_the_end(client: TestClient) -> None:
    said = [("user", "I moved to Porto in May."), ("assistant", "ok")] + \
           [turn for i in range(4) for turn in (("user", f"tell me about topic {i}"), ("assistant", "sure"))]
    talk(client, "long-chat", turns("2026-06-02T09:00:00Z", *said))

    def porto() -> bool:
        return timeline(client, "home_city") == [("Porto", "2026-05-01", None)]
    wait_until(porto, "the extraction due after five turns")


def test_an_episode_extracted_again_on_demand_adds_no_second_source(client: TestClient) -> None:
    talk(client, "chat", BERLIN, episode="berlin-chat")
    episode = "berlin-chat"
    answers = [client.post("/v1/users/ada/extract", params={"wait": "true"},
                           json={"episode_id": episode}).json()["extraction"] for _ in range(2)]
    assert [a["status"] for a in answers] == ["done", "done"]
    assert all(v.split(": ")[1].startswith("same") for v in answers[1]["verdicts"]), answers[1]
    (berlin,) = client.get("/v1/users/ada/memories", params={"attribute": "home_city"}).json()["items"]
    assert berlin["confidence"] == pytest.approx(0.9)  # read twice, said once
    wait = {"wait": "true"}
    missing = client.post("/v1/users/ada/extract", params=wait, json={"episode_id": "never-recorded"})
    assert missing.status_code == 404 and missing.json()["code"] == "episode_not_found"
    assert client.post("/v1/users/bob/sessions/chat/end", params=wait).status_code == 404  # not Bob's


def test_small_talk_and_short_sessions_are_not_extracted(client: TestClient) -> None:
    talk(client, "hello", turns(BERLIN_DAY, ("user", "hi"), ("assistant", "hello!")))
    assert end(client, "hello")["extraction"] is None  # two messages: nothing is due
    talk(client, "thanks", turns(BERLIN_DAY, ("user", "thanks so much"), ("assistant", "welcome"),
                                 ("user", "ok bye"), ("assistant", "bye")))
    assert end(client, "thanks")["extraction"]["skipped"] == "only small talk"


def test_a_backlog_left_by_extraction_off_is_estimated_then_answered_from_the_cli(
        neo4j: Driver, servers: ServerEndpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extractor="off",
                        event_log="sqlite")
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        talk(client, "chat", LISBON)
        assert end(client, "chat")["extraction"]["status"] == "due"  # nothing answers it: extraction is off
    for key, value in env_for(settings).items():
        monkeypatch.setenv(key, value)
    estimate = CliRunner().invoke(app, ["extract", "--dry-run"])
    assert estimate.exit_code == 0, estimate.output
    (row,) = [line for line in estimate.output.splitlines() if line.strip().startswith("│")]
    due, people, prompt_tokens = (cell.strip().replace(",", "") for cell in row.strip("│ ").split("│")[:3])
    assert (due, people) == ("1", "1") and int(prompt_tokens) > 600  # the instructions and the talk
    monkeypatch.setenv("LORE_EXTRACTOR", "rules")
    answered = CliRunner().invoke(app, ["extract"])
    assert answered.exit_code == 0, answered.output
    assert "answered 1 extractions with rules/23" in answered.output
    records, _, _ = neo4j.execute_query("MATCH (x:Extraction) RETURN x.status AS status")
    assert [r["status"] for r in records] == ["done"]
    assert timeline_of(neo4j, "home_city") == ["Lisbon"]


def timeline_of(neo4j: Driver, slot: str) -> list[str]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {slot: $slot}) RETURN m.value AS value ORDER BY "
                                        "m.valid_from", slot=slot)
    return [r["value"] for r in records]


# -- a model behind an OpenAI-compatible endpoint ------------------------------------------------

def answer(*memories: dict[str, Any]) -> str:
    return json.dumps({"memories": [{"entities": [], "confidence": 0.9, "asserted": True, "when": None,
                                     "due": None, "attribute": None, "value": None, **m} for m in memories]})


FIRST = answer({"kind": "fact", "content": "Lives in Berlin", "attribute": "city", "value": "Berlin",
                "messages": [0]})
SECOND = answer(
    {"kind": "fact", "content": "Moved to Lisbon last month", "attribute": "residence", "value": "Lisbon",
     "when": "last month", "messages": [0]},
    {"kind": "preference", "content": "Uses Neovim as editor", "attribute": "ide", "value": "Neovim",
     "messages": [2]},
    {"kind": "todo", "content": "Renew the passport", "due": "next Friday", "messages": [4]},
    {"kind": "fact", "content": "Might move to Porto", "attribute": "home_city", "value": "Porto",
     "asserted": False, "messages": [0]})


def test_a_models_extraction_is_replayed_without_the_model(neo4j: Driver, servers: ServerEndpoints,
                                                            tmp_path: Path) -> None:
    with chat_stub("", script=[(200, FIRST), (200, SECOND)]) as stub:
        settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", llm="openai",
                            layers="offline", llm_base_url=stub.url, llm_model="stand-in",
                            extraction_poll_s=0.1)
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            talk(client, "first-chat", BERLIN)
            assert end(client, "first-chat")["extraction"]["extractor"] == "stand-in"
            talk(client, "second-chat", LISBON_OR_PORTO)
            second = end(client, "second-chat")["extraction"]
            assert second["prompt_tokens"] == 100 and second["completion_tokens"] == 20
            assert any("kept_out" in v for v in second["verdicts"])  # an inference never replaces her word
            assert timeline(client, "home_city") == [("Berlin", "2026-01-10", "2026-02-01"),
                                                     ("Lisbon", "2026-02-01", None)]
            (todo,) = client.get("/v1/users/ada/memories", params={"kind": "todo"}).json()["items"]
            assert todo["due_at"].startswith("2026-03-20") and todo["decided_by"].startswith("stand-in:")
            scraped = client.get("/metrics").text   # what extraction cost, for Prometheus
            assert 'lore_extractions{status="done"} 2.0' in scraped
            assert 'lore_extraction_tokens_total{type="prompt"} 200.0' in scraped
            assert 'lore_extraction_tokens_total{type="completion"} 40.0' in scraped
        asked = len(stub.requests)
        assert asked == 2 and "Remind me to renew my passport" in stub.asked[1]
        live = fingerprint(neo4j)

    rebuild_with_the_model_gone(settings)
    assert fingerprint(neo4j) == live


def test_a_model_judges_what_the_rules_cannot_and_its_verdict_is_replayed_without_it(
        neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:
    """A second way of saying what the person likes is merged into one memory by the model's
    verdict (a stand-in answering the consolidation prompt with the memory it was shown)."""
    tea = answer({"kind": "preference", "content": "Likes green tea", "messages": [0]})
    sugar = answer({"kind": "preference", "content": "Drinks green tea without sugar", "messages": [0]})

    def judge(asked: str) -> tuple[int, str] | None:
        shown = re.search(r"close: (\S+) \(", asked)
        if not asked.startswith("New memory") or shown is None:
            return None
        return 200, json.dumps({"verdicts": [{"candidate": 0, "verdict": "merge", "memory_id": shown[1],
                                              "content": "Likes green tea, without sugar",
                                              "reason": "one tea, one more detail"}]})
    with chat_stub("", script=[(200, tea), (200, sugar)], respond=judge) as stub:
        settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, llm="openai", layers="offline",
                            llm_base_url=stub.url, llm_model="stand-in", extraction_poll_s=0.1,
                            similar_cosine=0.6)
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            for n, said in enumerate(("I like green tea.", "I drink my green tea without sugar.")):
                talk(client, f"tea-{n}", turns(LISBON_DAY, ("user", said), ("assistant", "Noted."),
                                               ("user", "That's all."), ("assistant", "Bye.")))
                done = end(client, f"tea-{n}")["extraction"]
            assert any(v.split(": ")[1].startswith("merge") for v in done["verdicts"]), done
            items = client.get("/v1/users/ada/memories", params={"kind": "preference"}).json()["items"]
            assert [(m["content"], m["decided_by"]) for m in items] == [
                ("Likes green tea, without sugar", "stand-in:consolidate-memories/1")]
        assert len(stub.requests) == 3  # two extractions, one consolidation: the first had nothing close
        live = fingerprint(neo4j)
    records, _, _ = neo4j.execute_query(
        "MATCH (m:Memory {user_id: 'ada', status: 'active'})-[:MERGED_FROM]->(o:Memory) "
        "RETURN o.content AS merged, o.status AS status")
    assert [(r["merged"], r["status"]) for r in records] == [("Likes green tea", "merged")]

    rebuild_with_the_model_gone(settings)
    assert fingerprint(neo4j) == live


def test_a_deployments_own_categories_are_kept_listed_and_replayed(
        neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:
    coach = Taxonomy(categories=(
        Category(name="SOMA", kind=MemoryKind.FACT, description="the body: sleep, pain", importance=0.9),
        Category(name="PREF", kind=MemoryKind.PREFERENCE, description="what they like")))
    found = answer({"kind": "fact", "category": "soma", "content": "Sleeps badly after late runs",
                    "messages": [0]},
                   {"kind": "preference", "category": "PREF", "content": "Likes morning runs",
                    "messages": [2]})
    with chat_stub(found) as stub:
        settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", llm="openai",
                            layers="offline", llm_base_url=stub.url, llm_model="stand-in",
                            extraction_poll_s=0.1,
                            taxonomy=coach)
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            talk(client, "coach", turns(LISBON_DAY, ("user", "I sleep badly after late runs."),
                                        ("assistant", "Hm."), ("user", "I like morning runs."),
                                        ("assistant", "Noted.")))
            assert end(client, "coach")["extraction"]["status"] == "done"
            soma = client.get("/v1/users/ada/memories", params={"category": "SOMA"}).json()["items"]
            assert [(m["content"], m["kind"], m["importance"]) for m in soma] == [
                ("Sleeps badly after late runs", "fact", 1.0)]
        live = fingerprint(neo4j)
    rebuild_with_the_model_gone(settings)
    assert fingerprint(neo4j) == live


def rebuild_with_the_model_gone(settings: Settings) -> None:
    """`lore rebuild` with the model's endpoint out of reach: the log holds every answer it gave."""
    lore = bootstrap(settings.model_copy(update={"llm_base_url": "http://127.0.0.1:9/v1"}))
    try:
        lore.projector.rebuild(lore.event_log)
    finally:
        lore.close()


def test_a_worker_killed_mid_extraction_extracts_the_session_once(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str]
) -> None:
    with chat_stub(SECOND, hold=1) as stub:
        settings = kafka_mode(servers, tmp_path, kafka_topic, llm="openai", layers="offline",
                              llm_base_url=stub.url, llm_model="stand-in")
        at = datetime.fromisoformat(LISBON_DAY)
        produce(settings.kafka_bootstrap, settings.commands_topic, as_messages([
            RecordEpisode(command_id="talk", user_id="ada", occurred_at=at, session_id="chat",
                          messages=tuple(Message.model_validate(m) for m in LISBON_OR_PORTO)),
            EndSession(command_id="end", user_id="ada", occurred_at=at, session_id="chat")]))
        first = start_worker(settings, tmp_path / "worker-1.log")
        try:
            wait_until(stub.held.is_set, "the model asked mid-extraction", [first])
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait(30)
        stub.release.set()
        second = start_worker(settings, tmp_path / "worker-2.log")
        try:
            wait_until(lambda: extractions(neo4j) == {"done": 1},
                       "the extraction, answered by the next worker", [second],
                       progress=lambda: len(stub.requests))
            time.sleep(1)  # a second answer, were there one, would be in the log by now
        finally:
            stop(second)
    keys = open_key_store(settings)  # the log is sealed: read it with the people's keys
    log = KafkaEventLog(settings.kafka_bootstrap, topic=settings.events_topic, partitions=4, keys=keys)
    try:
        events = [s.event for batch in log.read({}) for s in batch]
    finally:
        log.close()
        if keys is not None:
            keys.close()
    extracted = [e for e in events if isinstance(e, MemoriesExtracted)]
    assert len(extracted) == 1 and len(extracted[0].candidates) == 4
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {user_id: 'ada'}) RETURN m.content AS c")
    assert sorted(r["c"] for r in records) == ["Moved to Lisbon last month", "Renew the passport",
                                               "Uses Neovim as editor"]


def extractions(neo4j: Driver) -> dict[str, int]:
    records, _, _ = neo4j.execute_query("MATCH (x:Extraction) RETURN x.status AS s, count(*) AS n")
    return {r["s"]: r["n"] for r in records}

