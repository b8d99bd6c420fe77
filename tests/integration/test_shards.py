"""The graph split across two Neo4j instances (LORE_NEO4J_SHARDS), with four real `lore worker`
processes, two per shard: each person's writes and reads go to their own shard; while one
shard's Neo4j is killed, the other serves its people, the killed one's reads answer 503 naming
it within seconds, and its writes are still taken;
restarted, it catches up from Kafka with nothing lost and nothing applied twice, and its graph is
the one a replay of its partitions of the log gives."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver, GraphDatabase
from typer.testing import CliRunner

from infra.eventlog.shards import shard_of
from infra.local.stack import LocalStack
from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from services.cli import app as cli
from tests.support.kafka_flow import env_for, kafka_settings, start_worker, stop, wait_until
from tests.support.servers import ServerEndpoints, private_stack

PARTITIONS = 4
PER_SHARD = 4  # people on each shard
BEFORE, DURING = 3, 2  # memories each person records before the outage, and during it


@pytest.fixture(scope="module")
def shard_stacks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[LocalStack]]:
    """Two Neo4j instances of this module's own (one of them is killed), beside the session's Kafka."""
    stacks = [private_stack(tmp_path_factory.mktemp(f"shard-{i}"), neo4j_heap="512m", pagecache="128m",
                            kafka_heap="256m") for i in range(2)]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda stack: stack.start_neo4j(), stacks))
        yield stacks
    finally:
        for stack in stacks:
            stack.down()


@pytest.fixture()
def settings(shard_stacks: list[LocalStack], servers: ServerEndpoints, tmp_path: Path,
             kafka_topic: Callable[..., str]) -> Settings:
    uris = [stack.neo4j.bolt_uri for stack in shard_stacks]
    return kafka_settings(uris[0], servers.kafka_bootstrap, tmp_path, kafka_topic, partitions=PARTITIONS,
                          neo4j_shards=uris, extractor="off", layers="off", worker_session_timeout_ms=6000)


@pytest.fixture()
def drivers(shard_stacks: list[LocalStack]) -> Iterator[list[Driver]]:
    made = [GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) for stack in shard_stacks]
    for driver in made:  # a clean graph per test
        driver.execute_query("MATCH (n) DETACH DELETE n")
    yield made
    for driver in made:
        driver.close()


def people_of(shard: int) -> list[str]:
    return [p for p in (f"person-{i}" for i in range(100)) if shard_of(p, PARTITIONS, 2) == shard][:PER_SHARD]


def memories_in(driver: Driver, person: str) -> int:
    records, _, _ = driver.execute_query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", u=person)
    return int(records[0]["n"])


def applied_in(driver: Driver) -> list[str]:
    records, _, _ = driver.execute_query("MATCH (a:AppliedCommand) RETURN a.command_id AS id")
    return [r["id"] for r in records]


def record(client: TestClient, person: str, n: int, *, wait: bool) -> dict[str, Any]:
    response = client.post(f"/v1/users/{person}/memories", params={"wait": str(wait).lower()},
                           json={"content": f"{person} keeps a notebook of teas, entry {n}",
                                 "command_id": f"{person}-note-{n}"})
    assert response.status_code == 202, response.text
    return dict(response.json())


def test_two_shards_route_serve_through_an_outage_and_catch_up(
    settings: Settings, shard_stacks: list[LocalStack], drivers: list[Driver], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shards = [people_of(0), people_of(1)]
    workers = [start_worker(settings, tmp_path / f"worker-{shard}-{n}.log", "--shard", str(shard))
               for shard in (0, 1) for n in range(2)]
    try:
        with TestClient(create_app(lambda: bootstrap(settings.for_shard(0)), worker=False)) as client:
            # Routed: each person's memories are in their shard's graph, none in the other's.
            for shard, people in enumerate(shards):
                for person in people:
                    for n in range(BEFORE):
                        assert record(client, person, n, wait=True)["status"] == "applied"
                    assert memories_in(drivers[shard], person) == BEFORE
                    assert memories_in(drivers[1 - shard], person) == 0
                    listed = client.get(f"/v1/users/{person}/memories").json()["items"]
                    assert len(listed) == BEFORE
                    hits = client.post(f"/v1/users/{person}/search", json={"query": "notebook of teas"})
                    assert hits.status_code == 200 and hits.json()["hits"], hits.text

            # Shard 1's Neo4j dies.
            killed = shard_stacks[1]
            pid = killed._process(killed.neo4j).pid()
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            wait_until(lambda: killed._process(killed.neo4j).pid() is None, "shard 1's Neo4j to die")

            health = client.get("/v1/health")
            assert health.status_code == 200, health.text  # shard 0 still serves its people
            assert health.json()["status"] == "degraded" and "shard 1" in health.json()["neo4j"]["detail"]
            reasons = health.json()["reasons"]
            assert [(r["code"], r["blocking"]) for r in reasons] == [("graph_unavailable", False)], reasons
            assert "shard 1" in reasons[0]["detail"] and "lore infra up" in reasons[0]["fix"]

            # A read of shard 1's people answers 503 naming the shard within seconds, where the
            # driver's defaults took 30 s to answer 500.
            for path, body in ((f"/v1/users/{shards[1][0]}/memories", None),
                               (f"/v1/users/{shards[1][0]}/search", {"query": "notebook of teas"}),
                               (f"/v1/users/{shards[1][0]}/context", {"message": "notebook of teas"})):
                started = time.monotonic()
                away = client.request("POST" if body else "GET", path, json=body)
                took = time.monotonic() - started
                with capsys.disabled():
                    print(f"\n{path} while shard 1's Neo4j is down: {away.status_code} in {took:.2f} s")
                assert away.status_code == 503 and away.json()["shard"] == 1, away.text
                assert "shard 1 of 2" in away.json()["detail"] and away.headers["Retry-After"]
                assert took < 5, f"a read of a shard that is down took {took:.1f} s to fail"

            # Shard 0 serves throughout; shard 1's writes are taken (Kafka keeps them).
            for n in range(BEFORE, BEFORE + DURING):
                for person in shards[0]:
                    assert record(client, person, n, wait=True)["status"] == "applied"
                    listed = client.get(f"/v1/users/{person}/memories").json()["items"]
                    assert len(listed) == n + 1
                for person in shards[1]:
                    assert record(client, person, n, wait=False)["status"] == "accepted"

            # Restarted, shard 1 catches up from Kafka: nothing lost.
            killed.start_neo4j()
            expected = BEFORE + DURING

            def caught_up() -> int:
                return sum(memories_in(drivers[1], p) for p in shards[1])

            wait_until(lambda: caught_up() == expected * PER_SHARD, "shard 1 to catch up", workers,
                       progress=caught_up)
            for person in shards[1]:
                listed = client.get(f"/v1/users/{person}/memories").json()["items"]
                assert len(listed) == expected
            assert client.get("/v1/health").json()["status"] == "ok"
    finally:
        stop(*workers)

    # Nothing applied twice, and nothing on the wrong shard. (The searches' use of what they listed
    # is recorded as commands of its own, "use-…", on the searched person's shard.)
    for shard, people in enumerate(shards):
        ids = [i for i in applied_in(drivers[shard]) if not i.startswith("use-")]
        assert sorted(ids) == sorted(f"{p}-note-{n}" for p in people for n in range(BEFORE + DURING))

    # The graph the workers built after the outage is the one a replay of its partitions gives.
    lore = bootstrap(settings.for_shard(1))
    try:
        live = lore.projector.fingerprint()
    finally:
        lore.close()
    rebuilt = CliRunner().invoke(cli, ["rebuild", "--shard", "1"], env=env_for(settings))
    assert rebuilt.exit_code == 0, rebuilt.output
    printed = CliRunner().invoke(cli, ["fingerprint", "--shard", "1"], env=env_for(settings))
    assert printed.exit_code == 0, printed.output
    assert live in printed.output.replace("\n", "")


def test_a_command_that_names_no_shard_is_refused(settings: Settings) -> None:
    result = CliRunner().invoke(cli, ["rebuild"], env=env_for(settings))
    assert result.exit_code == 2 and "--shard 0 to 1" in result.output
    result = CliRunner().invoke(cli, ["worker"], env=env_for(settings))
    assert result.exit_code == 2 and "--shard 0 to 1" in result.output
    with pytest.raises(ValueError, match="works on one"):
        bootstrap(settings.model_copy(update={"neo4j_uri": "bolt://127.0.0.1:1"}))
