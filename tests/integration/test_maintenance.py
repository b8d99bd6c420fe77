"""A maintenance run on the real graph: with a fixed as_of it forgets, demotes, compresses and
expires exactly what the rules say of memories crafted for it; the report counts the same; a dry
run changes nothing; a rebuild from the log gives the same graph; a compressed memory restores."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from domain.commands import Command, RecordEpisode, RecordMemory, RecordUse, UseCount
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import Lore, bootstrap, maintenance_service
from tests.support.kafka_flow import kafka_settings, wait_until
from tests.support.rebuild import rebuilt_fingerprint
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


@pytest.fixture(params=["sqlite", "kafka"])
def settings(request: pytest.FixtureRequest, servers: ServerEndpoints, tmp_path: Path,
             kafka_topic: Callable[..., str]) -> Settings:
    if request.param == "kafka":
        return kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic,
                              extractor="off", layers="off")
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="sqlite",
                    extractor="off", layers="off")


def handle(lore: Lore, *commands: Command) -> None:
    outcomes = lore.commands.handle(list(commands))
    assert all(o.status == "applied" for o in outcomes), outcomes


def applied(response: httpx.Response) -> str:
    assert response.status_code == 202 and response.json()["status"] == "applied", response.text
    return str(response.json()["memory_id"])


def craft(client: TestClient, neo4j: Driver) -> dict[str, str]:
    ids: dict[str, str] = {}
    for name, kind, importance, days, searches, found_days, _ in TABLE:
        said = AS_OF - timedelta(days=days)
        body = {"content": f"Ada's {name}", "kind": kind, "importance": importance,
                "occurred_at": said.isoformat()}
        ids[name] = applied(client.post("/v1/users/ada/memories", params={"wait": "true"}, json=body))
        if searches:  # use is recorded as events, as the API records what searches return
            found = AS_OF - timedelta(days=found_days or 0)
            client.app.state.lore.outbox.send_and_wait([RecordUse(
                command_id=f"use-{name}", user_id="ada", occurred_at=found,
                found=(UseCount(memory_id=ids[name], count=searches),))])
    # Someone else's memories are not Ada's business, and they are kept (not old enough to fade).
    applied(client.post("/v1/users/bob/memories", params={"wait": "true"}, json={
        "content": "Bob's fact", "occurred_at": AS_OF.isoformat()}))
    return ids


def statuses(neo4j: Driver, user_id: str) -> dict[str, tuple[str, float]]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {user_id: $u}) "
                                        "RETURN m.content AS c, m.status AS s, m.importance AS i", u=user_id)
    return {r["c"]: (r["s"], r["i"]) for r in records}


def maintain(client: TestClient, **fields: Any) -> dict[str, Any]:
    """A run's report, once it ended (the run answers at once; GET follows it)."""
    response = client.post("/v1/maintenance/runs", json={"as_of": AS_OF.isoformat(), **fields})
    assert response.status_code == 202, response.text
    return ended(client, response.json()["run_id"])


def ended(client: TestClient, run_id: str) -> dict[str, Any]:
    def state() -> str:
        return str(client.get(f"/v1/maintenance/runs/{run_id}").json()["state"])

    wait_until(lambda: state() != "running", f"maintenance run {run_id} to end")
    found = client.get(f"/v1/maintenance/runs/{run_id}").json()
    assert found["state"] == "done", found
    return dict(found["report"])


def test_a_run_at_a_fixed_moment_does_what_the_rules_say_and_a_rebuild_gives_the_same_graph(
        settings: Settings, neo4j: Driver) -> None:
    expected = {"forgotten": 1, "demoted": 1, "compressed": 3, "contradictions": 0}
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        craft(client, neo4j)
        assert client.put("/v1/users/ada/settings", params={"wait": "true"},
                          json={"pinned_kinds": ["lesson"]}).status_code == 202
        before = fingerprint(neo4j)
        dry = maintain(client, dry_run=True)
        assert fingerprint(neo4j) == before  # a dry run changes nothing
        assert {k: dry[k] for k in expected} == expected and (dry["users"], dry["evaluated"]) == (2, 11)

        report = maintain(client, run_id="nightly-1")
        assert {k: report[k] for k in expected} == expected and report["users"] == 2
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
        (listed,) = client.get("/v1/maintenance/runs").json()["items"]
        assert {k: listed[k] for k in expected} == expected and listed["run_id"] == "nightly-1"

        # The same run again changes no one twice.
        again = maintain(client, run_id="nightly-1")
        assert again["forgotten"] == 1 and statuses(neo4j, "ada") == now
        ada = client.get("/v1/users/ada/memories").json()["items"]
        assert not [m for m in ada if m["status"] in ("compressed", "forgotten")]  # only what holds now

        compressed = next(i for i, (s, _) in statuses_by_id(neo4j).items() if s == "compressed")
        restored = client.post(f"/v1/users/ada/memories/{compressed}/restore", params={"wait": "true"})
        assert restored.status_code == 202 and statuses_by_id(neo4j)[compressed][0] == "active"

    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live


def statuses_by_id(neo4j: Driver) -> dict[str, tuple[str, float]]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {user_id: 'ada'}) RETURN m.memory_id AS id, "
                                        "m.status AS s, m.importance AS i")
    return {r["id"]: (r["s"], r["i"]) for r in records}


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
        dry = client.post("/v1/maintenance/runs", params={"wait": "true"},
                          json={"as_of": expires.isoformat(), "dry_run": True})
        assert dry.status_code == 200 and dry.json()["dry_run"] is True
        assert dry.json()["report"]["expired"] == 0
        kept = client.put("/v1/users/ada/settings", params={"wait": "true"},
                          json={"episode_retention_days": 0})
        assert kept.status_code == 202, kept.text
        bad = client.put("/v1/users/ada/settings", json={"episode_retention_days": -1})
        assert bad.status_code == 422 and "episode_retention_days" in bad.text


def test_nightly_runs_keep_the_city_in_force_and_the_preference_in_use_while_a_remark_fades(
        neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:
    """Runs every 15 days for 150 days while an assistant keeps asking for context: the home city
    (a slot value in force, importance 0.7: demoted night after night and forgotten by day 90 when
    slots were not spared) and the preference every context block cites stay; a remark nobody used
    again fades (demoted once near day 60, forgotten by day 150)."""
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="sqlite",
                        extractor="off", layers="off")
    start = datetime.now(UTC).replace(microsecond=0)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        def remember(content: str, **fields: Any) -> str:
            return applied(client.post("/v1/users/ada/memories", params={"wait": "true"},
                                       json={"content": content, "occurred_at": start.isoformat(), **fields}))

        city = remember("Ada lives in Lyon", kind="fact", attribute="home_city", value="Lyon", importance=0.7)
        answers = remember("Ada likes answers with a worked example", kind="preference", importance=0.5)
        remark = remember("The hallway lamp was repaired", kind="fact", importance=0.5)
        lore = client.app.state.lore
        demoted = []
        for step in range(1, 11):
            for message in ("Can you help me plan my week?", "What should I cook tonight?"):
                block = client.post("/v1/users/ada/context", json={"message": message}).json()
                assert answers in block["cited"]["memories"] and remark not in block["cited"]["memories"]
            lore.use.flush()
            report = client.post("/v1/maintenance/runs", params={"wait": "true"},
                                 json={"as_of": (start + timedelta(days=15 * step)).isoformat()})
            assert report.status_code == 200, report.text
            demoted.append(report.json()["report"]["demoted"])
        final = {m: client.get(f"/v1/users/ada/memories/{m}").json() for m in (city, answers, remark)}
    assert final[city]["status"] == "active" and final[city]["importance"] == 0.7
    assert final[answers]["status"] == "active" and final[answers]["cited_count"] == 20
    assert final[remark]["status"] == "forgotten"
    assert sum(demoted) == 1  # the remark, once: demotion does not compound night after night
