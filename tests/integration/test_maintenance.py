"""A maintenance run on the real graph: with a fixed as_of it forgets, demotes, compresses and
expires exactly what the rules say of memories crafted for it; the report counts the same; a dry
run changes nothing; a rebuild from the log gives the same graph; a compressed memory restores."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from domain.commands import Command, RecordEpisode, RecordMemory, RestoreMemory
from infra.settings import Settings
from services.api import create_app
from services.bootstrap import Lore, bootstrap, maintenance_service
from tests.support.servers import ServerEndpoints

AS_OF = datetime(2026, 9, 1, 3, tzinfo=UTC)

# (name, kind, importance, days since said, searches, days since last found, expected)
TABLE: list[tuple[str, str, float, int, int, int | None, str]] = [
    ("fresh", "fact", 0.5, 1, 0, None, "active"),
    ("fading", "preference", 0.5, 60, 0, None, "demoted"),
    ("gone", "fact", 0.5, 200, 0, None, "forgotten"),
    ("used", "fact", 0.5, 200, 9, 2, "active"),
    ("core", "fact", 0.95, 2000, 0, None, "active"),
    ("pinned", "lesson", 0.5, 2000, 0, None, "active"),
    ("open to-do", "todo", 0.5, 2000, 0, None, "active"),
    ("ramen", "event", 0.45, 35, 0, None, "compressed"),     # relevance 0.317: kept, but unused
    ("dentist", "event", 0.45, 36, 0, None, "compressed"),   # for a month with importance < 0.5
    ("lamp", "event", 0.45, 37, 0, None, "compressed"),
]


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[Lore]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="sqlite",
                        extractor="off", layers="off")
    made = bootstrap(settings)
    yield made
    made.close()


def handle(lore: Lore, *commands: Command) -> None:
    outcomes = lore.commands.handle(list(commands))
    assert all(o.status == "applied" for o in outcomes), outcomes


def craft(lore: Lore, neo4j: Driver) -> dict[str, str]:
    ids: dict[str, str] = {}
    for i, (name, kind, importance, days, searches, found_days, _) in enumerate(TABLE):
        said = AS_OF - timedelta(days=days)
        command = RecordMemory(command_id=f"m{i}", user_id="ada", occurred_at=said, content=f"Ada's {name}",
                               kind=kind, importance=importance)
        outcome = lore.commands.handle([command])[0]
        ids[name] = str(outcome.memory_id)
        if searches:  # usage statistics are what searches leave behind, not events
            neo4j.execute_query("MATCH (m:Memory {memory_id: $id}) SET m.access_count = $n, "
                                "m.last_accessed_at = datetime($at)", id=ids[name], n=searches,
                                at=(AS_OF - timedelta(days=found_days or 0)).isoformat())
    handle(lore, RecordEpisode(command_id="ep-old", user_id="ada", occurred_at=AS_OF - timedelta(days=90),
                               session_id="s1", episode_id="old",
                               messages=[{"role": "user", "content": "I walked the dog by the river"}]))
    # Someone else's memories are not Ada's business, and they are kept (not old enough to fade).
    handle(lore, RecordMemory(command_id="b1", user_id="bob", occurred_at=AS_OF, content="Bob's fact"))
    return ids


def statuses(neo4j: Driver, user_id: str) -> dict[str, tuple[str, float]]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {user_id: $u}) "
                                        "RETURN m.content AS c, m.status AS s, m.importance AS i", u=user_id)
    return {r["c"]: (r["s"], r["i"]) for r in records}


def test_a_run_at_a_fixed_moment_does_what_the_rules_say_and_a_rebuild_gives_the_same_graph(
        lore: Lore, neo4j: Driver) -> None:
    craft(lore, neo4j)
    handle(lore, command_of("ConfigureUser", pinned_kinds=["lesson"]))
    as_of = AS_OF
    service = maintenance_service(lore)
    before = lore.projector.fingerprint()

    dry = service.run(as_of=as_of, dry_run=True)
    assert lore.projector.fingerprint() == before  # a dry run changes nothing
    expected = {"forgotten": 1, "demoted": 1, "compressed": 3, "contradictions": 0}
    assert {k: getattr(dry, k) for k in expected} == expected
    assert (dry.users, dry.evaluated) == (2, 11)

    report = service.run(as_of=as_of, run_id="nightly-1")
    assert {k: getattr(report, k) for k in expected} == expected and report.users == 2

    now = statuses(neo4j, "ada")
    for name, _, importance, *_, want in TABLE:
        status, kept_importance = now[f"Ada's {name}"]
        if want == "demoted":
            assert (status, kept_importance) == ("active", pytest.approx(importance * 0.8)), name
        else:
            assert status == want, name
    (made,) = [c for c in now if c.count("Ada's") == 3]
    assert made == "Ada's lamp. Ada's dentist. Ada's ramen."  # oldest first, every word kept
    assert statuses(neo4j, "bob") == {"Bob's fact": ("active", 0.5)}
    records, _, _ = neo4j.execute_query(
        "MATCH (n:Memory)-[e:COMPRESSED_FROM]->(o:Memory) "
        "RETURN count(e) AS n, collect(DISTINCT e.run_id) AS runs")
    assert (records[0]["n"], records[0]["runs"]) == (3, ["nightly-1"])
    records, _, _ = neo4j.execute_query(
        "MATCH (m:Memory {forgotten_reason: 'decayed'}) RETURN m.forgotten_run AS r")
    assert [r["r"] for r in records] == ["nightly-1"]

    # The same run again changes no one twice.
    again = service.run(as_of=as_of, run_id="nightly-1")
    assert again.forgotten == 1 and statuses(neo4j, "ada") == now

    live = lore.projector.fingerprint()
    lore.projector.rebuild(lore.event_log)
    assert lore.projector.fingerprint() == live

    compressed = next(i for i, (s, _) in statuses_by_id(neo4j).items() if s == "compressed")
    handle(lore, RestoreMemory(command_id="r", user_id="ada", occurred_at=AS_OF, memory_id=compressed))
    assert statuses_by_id(neo4j)[compressed][0] == "active"


def statuses_by_id(neo4j: Driver) -> dict[str, tuple[str, float]]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {user_id: 'ada'}) RETURN m.memory_id AS id, "
                                        "m.status AS s, m.importance AS i")
    return {r["id"]: (r["s"], r["i"]) for r in records}


def command_of(type_: str, **fields: Any) -> Command:
    from domain.commands import command_adapter

    return command_adapter.validate_python({"type": type_, "command_id": f"{type_}-1", "user_id": "ada",
                                            "occurred_at": AS_OF, **fields})


def test_conversations_lose_their_words_when_they_expire_and_what_was_taken_from_them_stays(
        lore: Lore, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:
    said = [{"role": "user", "content": "I walked Rex by the river"},
            {"role": "assistant", "content": "Lovely!"}]
    handle(lore, RecordEpisode(command_id="e1", user_id="ada", occurred_at=AS_OF, session_id="s1",
                               episode_id="walk", messages=said))
    handle(lore, RecordMemory(command_id="m1", user_id="ada", occurred_at=AS_OF,
                              content="Ada has a dog, Rex", episode_id="walk"))
    records, _, _ = neo4j.execute_query("MATCH (e:Episode {episode_id: 'walk'}) RETURN e.expires_at AS at")
    expires = records[0]["at"].to_native()
    service = maintenance_service(lore)
    assert service.run(as_of=expires - timedelta(seconds=1)).expired == 0
    report = service.run(as_of=expires)
    assert report.expired == 1
    records, _, _ = neo4j.execute_query(
        "MATCH (e:Episode {episode_id: 'walk'})-[:HAS_MESSAGE]->(x:Message) "
        "RETURN e.status AS status, e.text AS text, collect(x.content) AS words, collect(x.expired) AS flags")
    assert (records[0]["status"], records[0]["text"], records[0]["words"]) == ("expired", None, [])
    assert records[0]["flags"] == [True, True]
    records, _, _ = neo4j.execute_query(
        "MATCH (m:Memory {content: 'Ada has a dog, Rex'})-[:EXTRACTED_FROM]->(e:Episode) "
        "RETURN e.status AS s")
    assert [r["s"] for r in records] == ["expired"]

    with TestClient(create_app(lambda: bootstrap(Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path,
                                                           embedder="none", event_log="sqlite")))) as client:
        runs = client.get("/v1/maintenance/runs").json()["items"]
        assert [r["expired"] for r in runs[:1]] == [1] and runs[0]["duration_s"] is not None
        dry = client.post("/v1/maintenance/runs", json={"as_of": expires.isoformat(), "dry_run": True})
        assert dry.status_code == 200 and dry.json()["dry_run"] is True and dry.json()["expired"] == 0
        kept = client.put("/v1/users/ada/settings", params={"wait": "true"},
                          json={"episode_retention_days": 0})
        assert kept.status_code == 202, kept.text
        bad = client.put("/v1/users/ada/settings", json={"episode_retention_days": -1})
        assert bad.status_code == 422 and "episode_retention_days" in bad.text
