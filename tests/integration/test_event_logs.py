"""One contract for both event logs, and for the command handler on top of each."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import Driver

from domain.commands import RecordMemory
from domain.events import MemoryRecorded
from domain.stored import Decided
from infra.eventlog import EventLog
from infra.eventlog.kafka import KafkaEventLog
from infra.eventlog.sqlite import SqliteEventLog
from infra.settings import Settings
from projections.graph import ensure_schema
from projections.graph.fingerprint import fingerprint
from projections.graph.projector import ProjectionMismatch
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints

AT = datetime(2026, 1, 1, tzinfo=UTC)


def decided(user: str, n: int) -> Decided:
    event = MemoryRecorded(event_id=f"e-{user}-{n}", user_id=user, command_id=f"c-{user}-{n}",
                           occurred_at=AT, recorded_at=AT, memory_id=f"m-{user}-{n}", kind="fact",
                           content=f"{user} fact {n}", valid_from=AT)
    return Decided(event.command_id, user, [event])


@pytest.fixture(params=["sqlite", "kafka"])
def event_log(request: pytest.FixtureRequest, tmp_path: Path, servers: ServerEndpoints,
              kafka_topic: Callable[..., str]) -> Iterator[EventLog]:
    if request.param == "sqlite":
        log: EventLog = SqliteEventLog(tmp_path / "events.sqlite3")
    else:
        log = KafkaEventLog(servers.kafka_bootstrap, topic=kafka_topic("events", partitions=3))
    yield log
    log.close()


def test_a_log_keeps_each_users_order_and_reads_back_from_any_point(event_log: EventLog) -> None:
    assert event_log.count() == 0
    assert all(end == -1 for end in event_log.end().values())
    stored = event_log.append([decided(user, n) for n in range(30) for user in ("ada", "bob", "cy")])
    assert len(stored) == 90 and event_log.count() == 90

    everything = [s for batch in event_log.read({}, batch_size=7) for s in batch]
    assert sorted((s.partition, s.position) for s in everything) == \
        sorted((s.partition, s.position) for s in stored)
    for user in ("ada", "bob", "cy"):
        mine = [s for s in everything if s.event.user_id == user]
        assert len({s.partition for s in mine}) == 1, "one user, one partition"
        assert [s.event.content for s in sorted(mine, key=lambda s: s.position)] == \
            [f"{user} fact {n}" for n in range(30)]

    middle = {s.partition: s.position for s in stored[:45]}
    later = [s for batch in event_log.read(middle) for s in batch]
    assert {(s.partition, s.position) for s in later} == \
        {(s.partition, s.position) for s in stored if s.position > middle.get(s.partition, -1)}


def test_sqlite_refuses_a_command_id_it_already_holds(tmp_path: Path) -> None:
    log = SqliteEventLog(tmp_path / "events.sqlite3")
    assert len(log.append([decided("ada", 1)])) == 1
    assert log.append([decided("ada", 1)]) == []
    assert log.count() == 1


@pytest.mark.parametrize("log_kind", ["sqlite", "kafka"])
def test_the_same_command_twice_takes_effect_once(
    log_kind: str, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path,
    kafka_topic: Callable[..., str],
) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log=log_kind,
                        kafka_bootstrap=servers.kafka_bootstrap, events_topic=kafka_topic("events"))
    command = RecordMemory(command_id="once", user_id="ada", occurred_at=AT, content="likes tea")
    first = bootstrap(settings)
    assert [o.status for o in first.commands.handle([command, command])] == ["applied", "duplicate"]
    first.close()
    second = bootstrap(settings)  # a restarted worker: it knows only what the graph and log say
    assert [o.status for o in second.commands.handle([command])] == ["duplicate"]
    assert second.event_log.count() == 1
    second.close()
    records, _, _ = neo4j.execute_query("MATCH (m:Memory) RETURN count(m) AS n")
    assert records[0]["n"] == 1


def test_two_workers_creating_the_schema_at_once_both_succeed(neo4j: Driver) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def create() -> None:
        start.wait()
        try:
            ensure_schema(neo4j, 384)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    workers = [threading.Thread(target=create) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    ensure_schema(neo4j, 384)  # and again, when everything exists
    names = {r["name"] for r in neo4j.execute_query("SHOW INDEXES YIELD name").records}
    assert {"memory_embedding", "message_embedding", "memory_text", "memory_text_cjk", "message_text",
            "entity_name_by_user", "memory_user"} <= names


def test_a_command_the_kafka_log_holds_twice_is_applied_once_live_and_on_replay(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str]
) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="kafka",
                        kafka_bootstrap=servers.kafka_bootstrap, events_topic=kafka_topic("events"))
    lore = bootstrap(settings)
    try:
        lore.commands.ensure_schema()
        twice = decided("ada", 1)
        # A worker that lost its partitions mid-batch can append what the new owner appends too.
        lore.projector.apply(lore.event_log.append([twice, decided("ada", 2)]))
        lore.projector.apply(lore.event_log.append([twice]))
        lore.projector.catch_up(lore.event_log)
        assert lore.event_log.count() == 3
        live = fingerprint(neo4j)
        lore.projector.wipe()
        assert lore.projector.catch_up(lore.event_log) == 2
        assert fingerprint(neo4j) == live
        records, _, _ = neo4j.execute_query("MATCH (m:Memory) RETURN m.content AS c ORDER BY c")
        assert [r["c"] for r in records] == ["ada fact 1", "ada fact 2"]
    finally:
        lore.close()


def test_a_graph_projected_from_one_log_refuses_to_follow_another(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    first = bootstrap(Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path / "a", embedder="none"))
    command = RecordMemory(command_id="c", user_id="ada", occurred_at=AT, content="likes tea")
    assert [o.status for o in first.commands.handle([command])] == ["applied"]
    first.close()
    other = bootstrap(Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path / "b", embedder="none"))
    try:
        with pytest.raises(ProjectionMismatch, match="another event log.*lore rebuild"):
            other.commands.handle([command.model_copy(update={"command_id": "d"})])
    finally:
        other.close()
