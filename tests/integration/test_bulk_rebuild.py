"""`lore rebuild --bulk` against a Neo4j of its own (the offline import stops and starts it):
a rich log, rebuilt by transactions and by the bulk path, gives the same graph, and the
projection goes on from where the bulk rebuild stopped. A `lore serve` that runs through a bulk
rebuild, and then a crash and restart of Neo4j, answers 503 while Neo4j is away and reads and
writes again once it is back, without being restarted."""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from neo4j import GraphDatabase

from infra.local import LocalStack
from infra.local.process import free_port
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from projections.graph.fold_fingerprint import fold_fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from services.bulk_rebuild import bulk_rebuild, fold_log
from tests.integration.test_layers import BERLIN, MOVE, TRIP, done, progress
from tests.integration.test_memory_formation import end, talk
from tests.support.kafka_flow import STALL_S, env_for, kafka_settings, stop, wait_until
from tests.support.servers import ServerEndpoints, private_stack

TRICKY = 'Ada said "call me, maybe";\nthen: 你好, ok \\ done — ünïcödé'


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    """A Neo4j of this module's own: the import stops it, which the session's must not be."""
    home = tmp_path_factory.mktemp("bulk-stack")
    made = private_stack(home, neo4j_heap="1g", pagecache="256m", kafka_heap="256m")
    try:
        made.start_neo4j()
        yield made
    finally:
        made.down()


def post(client: TestClient, path: str, **body: object) -> dict[str, object]:
    response = client.post(path, params={"wait": "true"}, json=body)
    assert response.status_code == 202, response.text
    return dict(response.json())


def rich_log(client: TestClient) -> None:
    """Sessions (extraction, summaries, profile versions), supersessions, a command sent twice,
    forget/restore, feedback, settings, maintenance, use, a memory forgotten with the turns it came
    from, one purged, and a person erased."""
    for n, said in enumerate((BERLIN, TRIP, MOVE)):
        talk(client, f"chat-{n}", said)
        end(client, f"chat-{n}")
    wait_until(done(client, 3), "three summaries and the profile", progress=progress(client))
    items = client.get("/v1/users/ada/memories").json()["items"]
    extracted = [m["memory_id"] for m in items if m["decided_by"]]
    assert len(extracted) >= 2
    forgot = client.delete(f"/v1/users/ada/memories/{extracted[0]}", params={"wait": "true"})
    purged = client.delete(f"/v1/users/ada/memories/{extracted[-1]}",
                           params={"wait": "true", "purge": "true"})
    assert (forgot.status_code, purged.status_code) == (202, 202), purged.text
    wait_until(done(client, 3), "the summaries and the profile written anew", progress=progress(client))
    client.post("/v1/users/ada/search", json={"query": "where does Ada live?"})
    client.post("/v1/users/ada/context", json={"message": "Any plans for the trip?"})
    client.app.state.lore.use.flush()  # type: ignore[attr-defined]
    first = post(client, "/v1/users/ada/memories", content=TRICKY, kind="fact", command_id="twice")
    again = post(client, "/v1/users/ada/memories", content=TRICKY, kind="fact", command_id="twice")
    assert first["memory_id"] == again["memory_id"]
    for color in ("blue", "green", "red"):
        post(client, "/v1/users/ada/memories", content=f"favorite color is {color}", kind="preference",
             attribute="favorite_color", value=color)
    memory = str(first["memory_id"])
    assert client.delete(f"/v1/users/ada/memories/{memory}", params={"wait": "true"}).status_code == 202
    post(client, f"/v1/users/ada/memories/{memory}/restore")
    post(client, "/v1/users/ada/feedback", memory_id=memory, verdict="wrong", note='said "no"')
    assert client.put("/v1/users/ada/settings", params={"wait": "true"},
                      json={"pinned_kinds": []}).status_code == 202
    old = datetime(2025, 1, 1, tzinfo=UTC).isoformat()
    for n in range(3):
        post(client, "/v1/users/ada/memories", content=f"had ramen {n}", kind="event", importance=0.45,
             occurred_at=old)
    response = client.post("/v1/maintenance/runs", params={"wait": "true"},
                           json={"as_of": "2026-09-01T03:00:00+00:00"})
    assert response.status_code == 200 and response.json()["state"] == "done", response.text
    post(client, "/v1/users/bob/memories", content="Bob's secret, with a comma")
    assert client.delete("/v1/users/bob", params={"wait": "true"}).status_code == 202


def test_the_bulk_rebuild_gives_the_transactional_graph_and_the_projection_goes_on(
    stack: LocalStack, tmp_path: Path
) -> None:
    # With the local embedder: vectors go through the import as they do through the transactions.
    settings = Settings(neo4j_uri=stack.neo4j.bolt_uri, home=tmp_path, embedder="local",
                        extraction_poll_s=0.1)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        rich_log(client)
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:
        live = fingerprint(driver)
        found = driver.execute_query("MATCH (n) UNWIND labels(n) AS l RETURN DISTINCT l").records
        labels = {r["l"] for r in found}
        assert {"Summary", "Profile", "Extraction", "Session", "Superseded", "MaintenanceRun"} <= labels

    lore = bootstrap(settings)
    try:
        lore.projector.rebuild(lore.event_log)
        transactional = fingerprint(lore.driver)
    finally:
        lore.close()
    assert transactional == live
    graph, *_ = fold_log(settings)
    assert fold_fingerprint(graph) == transactional  # the fold, before any import

    report = bulk_rebuild(settings, stack=stack, csv_dir=tmp_path / "csv")
    assert report.events > 50 and report.nodes > 50
    lore = bootstrap(settings)
    try:
        assert fingerprint(lore.driver) == transactional
        assert lore.projector.lag(lore.event_log) == 0
        indexes = lore.driver.execute_query("SHOW INDEXES YIELD name, state").records
        assert {"memory_text", "memory_id"} <= {r["name"] for r in indexes}
        assert {r["state"] for r in indexes} == {"ONLINE"}
        vectors = lore.driver.execute_query(
            "MATCH (m:Memory) WHERE m.embedding IS NOT NULL RETURN count(m) AS n")
        assert vectors.records[0]["n"] > 5
    finally:
        lore.close()
    with TestClient(create_app(lambda: bootstrap(settings))) as client:  # found through the vector index
        answer = client.post("/v1/users/ada/search", json={"query": "what is Ada's favorite color?"})
        hits = answer.json()["hits"]
        assert "vector" in hits[0]["ranks"] and "color" in hits[0]["content"]

    # New commands continue the log from the bulk rebuild's checkpoints (a gap would be refused).
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        post(client, "/v1/users/ada/memories", content="favorite color is black", kind="preference",
             attribute="favorite_color", value="black")
    lore = bootstrap(settings)
    try:
        assert lore.projector.lag(lore.event_log) == 0
        after = fingerprint(lore.driver)
        lore.projector.rebuild(lore.event_log)
        assert fingerprint(lore.driver) == after
    finally:
        lore.close()


class Reads:
    """One person's memories read over and over from a live server, every answer kept."""

    def __init__(self, base: str, path: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.path = path
        self.seen: list[tuple[int, float]] = []  # (status, seconds); 0: no answer at all
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read_until_stopped, daemon=True)

    def once(self) -> tuple[int, float]:
        started = time.monotonic()
        try:
            status = self.http.get(self.path).status_code
        except httpx.HTTPError:
            status = 0
        self.seen.append((status, time.monotonic() - started))
        return self.seen[-1]

    def _read_until_stopped(self) -> None:
        while not self._stop.wait(0.5):
            self.once()

    def __enter__(self) -> Reads:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def until_answered(self, since: float) -> float:
        """Seconds from `since` until a read answers 200. The server recovers by itself or not at
        all (a stale driver answered 500 until restarted), so a generous deadline decides."""
        while self.once()[0] != 200:
            assert time.monotonic() - since < RECOVERY_DEADLINE_S, f"no answer since: {self.seen[-5:]}"
            time.sleep(0.2)
        return time.monotonic() - since

    def outage(self) -> str:
        away = sorted(s for status, s in self.seen if status == 503)
        assert away, "no read came while Neo4j was away"
        return f"{len(away)} reads 503 in {statistics.median(away):.2f} s (max {away[-1]:.2f} s)"


RECOVERY_DEADLINE_S = 120.0


def test_a_live_serve_answers_again_after_a_bulk_rebuild_and_a_neo4j_restart_without_one_of_its_own(
    stack: LocalStack, servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:  # this test's log's graph only
        driver.execute_query("MATCH (n) DETACH DELETE n")
    settings = kafka_settings(stack.neo4j.bolt_uri, servers.kafka_bootstrap, tmp_path, kafka_topic,
                              extractor="off", layers="off")
    port = free_port()
    with (tmp_path / "serve.log").open("ab") as out:
        serve = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)],
                                 # ?wait=true waits for the worker however busy the machine is
                                 env={**env_for(settings), "LORE_MAINTENANCE_CRON": "",
                                      "LORE_WAIT_TIMEOUT_S": str(STALL_S)},
                                 stdout=out, stderr=subprocess.STDOUT)
    base, memories = f"http://127.0.0.1:{port}", "/v1/users/ada/memories"
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            wait_until(lambda: answers(http), "lore serve to answer", [serve])

            def remember(n: int) -> None:
                response = http.post(memories, params={"wait": "true"},
                                     json={"content": f"Ada keeps tea number {n}", "command_id": f"tea-{n}"})
                assert response.status_code == 202 and response.json()["status"] == "applied", response.text

            remember(0)
            with Reads(base, memories) as reads:
                started = time.monotonic()
                bulk_rebuild(settings, stack=stack)  # Neo4j stopped, its store replaced, started again
                rebuilt = time.monotonic() - started
                after_rebuild = reads.until_answered(time.monotonic())
            assert {status for status, _ in reads.seen} <= {200, 503}, reads.seen  # never a 500, nor a hang
            assert serve.poll() is None  # the same process, never restarted
            assert [m["content"] for m in http.get(memories).json()["items"]] == ["Ada keeps tea number 0"]
            remember(1)  # the worker in it applies commands on the new store

            # The bulk rebuild stopped Neo4j cleanly; now it dies (SIGKILL) and is started again.
            with Reads(base, memories) as restarted:
                started = time.monotonic()
                killed = stack._process(stack.neo4j)
                os.kill(killed.pid() or 0, signal.SIGKILL)
                wait_until(lambda: killed.pid() is None, "Neo4j to die")
                restarted.once()
                stack.start_neo4j()
                down = time.monotonic() - started
                after_restart = restarted.until_answered(time.monotonic())
            assert {status for status, _ in restarted.seen} <= {200, 503}, restarted.seen
            assert serve.poll() is None
            remember(2)
            assert len(http.get(memories).json()["items"]) == 3
        with capsys.disabled():
            print(f"\nbulk rebuild ({rebuilt:.0f} s) under a live serve: {reads.outage()}; answered 200 "
                  f"{after_rebuild:.2f} s after it returned\nNeo4j killed and started ({down:.0f} s) under "
                  f"it: {restarted.outage()}; answered 200 {after_restart:.2f} s after Neo4j answered again")
    finally:
        stop(serve)


def answers(http: httpx.Client) -> bool:
    try:
        return http.get("/v1/health").status_code == 200
    except httpx.HTTPError:
        return False
