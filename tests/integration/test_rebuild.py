"""The graph is a projection of the log: rebuilt from it, or resumed after a SIGKILL, it is identical."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from bench.history import history
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.bootstrap import Lore, bootstrap
from services.cli import app
from tests.support.servers import ServerEndpoints

USERS, COMMANDS = 200, 20_000


def batches(items: Iterable, size: int) -> Iterator[list]:
    batch: list = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_live(lore: Lore, users: int = USERS, commands: int = COMMANDS) -> dict[str, int]:
    counts: dict[str, int] = {}
    for batch in batches(history(users, commands), 500):
        for outcome in lore.commands.handle(batch):
            counts[outcome.status] = counts.get(outcome.status, 0) + 1
    return counts


def env_for(settings: Settings) -> dict[str, str]:
    env = {**os.environ, "LORE_NEO4J_URI": settings.neo4j_uri, "LORE_HOME": str(settings.home),
           "LORE_EVENT_LOG": settings.event_log, "LORE_EVENTS_TOPIC": settings.events_topic}
    if settings.kafka_bootstrap:
        env["LORE_KAFKA_BOOTSTRAP"] = settings.kafka_bootstrap
    return env


@pytest.mark.parametrize("log_kind", ["sqlite", "kafka"])
def test_a_rebuild_from_the_log_gives_the_live_graph_back(
    log_kind: str, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path,
    kafka_topic: Callable[..., str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings(
        neo4j_uri=servers.neo4j_uri, home=tmp_path, event_log=log_kind,
        kafka_bootstrap=servers.kafka_bootstrap if log_kind == "kafka" else None,
        events_topic=kafka_topic("events", partitions=4) if log_kind == "kafka" else "lore.events",
    )
    lore = bootstrap(settings)
    try:
        counts = run_live(lore)
        assert counts["applied"] > 15_000 and counts["rejected"] > 100  # refusals are part of it
        live = fingerprint(neo4j)
        memories, _, _ = neo4j.execute_query(
            "MATCH (m:Memory) RETURN count(m) AS n, count(m.embedding) AS vectors, "
            "count{ ()-[:SUPERSEDES]->() } AS supersessions"
        )
        assert memories[0]["n"] > 8_000 and memories[0]["vectors"] == memories[0]["n"]
        assert memories[0]["supersessions"] > 3_000
    finally:
        lore.close()

    for key, value in env_for(settings).items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(app, ["rebuild"])
    assert result.exit_code == 0, result.output
    assert "rebuilt" in result.output
    assert fingerprint(neo4j) == live

    printed = CliRunner().invoke(app, ["fingerprint"])
    assert printed.exit_code == 0 and live in printed.output.replace("\n", "")


def test_a_projector_killed_mid_batch_resumes_to_the_same_graph(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none")
    lore = bootstrap(settings)
    try:
        run_live(lore, users=100, commands=12_000)
        uninterrupted = fingerprint(neo4j)
        end = lore.event_log.end()[0]
        lore.projector.wipe()
    finally:
        lore.close()

    def checkpoint() -> int:
        records, _, _ = neo4j.execute_query("MATCH (c:Checkpoint) RETURN max(c.position) AS p")
        return records[0]["p"] or -1

    cli = [sys.executable, "-m", "services.cli", "catch-up", "--batch-size", "2000"]
    worker = subprocess.Popen(cli, env=env_for(settings), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while checkpoint() < 2000 and time.monotonic() < deadline and worker.poll() is None:
        time.sleep(0.05)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    reached = checkpoint()
    assert 0 < reached < end, "the kill must land part-way through the log"
    assert fingerprint(neo4j) != uninterrupted

    resumed = subprocess.run(cli, env=env_for(settings), capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert checkpoint() == end
    assert fingerprint(neo4j) == uninterrupted


def labels(neo4j: Driver) -> dict[str, int]:
    records, _, _ = neo4j.execute_query("MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n")
    return {r["label"]: r["n"] for r in records}


def test_a_wipe_leaves_nothing_of_the_projection_and_a_replay_brings_every_turn_back(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    lore = bootstrap(Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none"))
    try:
        run_live(lore, users=20, commands=1_500)
        live, counts = fingerprint(neo4j), labels(neo4j)
        # Every command is recorded once; an erased person's keep answering, with nothing of them.
        assert counts["Message"] > 100 and counts["Episode"] > 50 and counts["AppliedCommand"] == 1_500
        lore.projector.wipe()
        assert labels(neo4j) == {}, "the wipe left nodes the projection wrote"
        lore.projector.catch_up(lore.event_log)
        assert labels(neo4j) == counts and fingerprint(neo4j) == live
        # The fingerprint sees the turns: a changed or missing one is a different graph.
        neo4j.execute_query("MATCH (x:Message) WITH x LIMIT 1 SET x.content = 'changed'")
        assert fingerprint(neo4j) != live
        neo4j.execute_query("MATCH (x:Message) WITH x LIMIT 1 DETACH DELETE x")
        assert fingerprint(neo4j) != live
    finally:
        lore.close()
