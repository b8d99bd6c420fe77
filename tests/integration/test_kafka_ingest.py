"""Commands through Kafka to real `lore worker` processes: poison to the dead-letter topic,
every valid command applied exactly once — also when a worker is SIGKILLed mid-stream."""

from __future__ import annotations

import json
import signal
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from neo4j import Driver

from bench.history import history
from domain.sealing import is_sealed
from infra.settings import Settings
from projections.graph.fingerprint import TRANSACTION_TIMES, fingerprint
from services.bootstrap import bootstrap
from services.worker import REASON_HEADER
from tests.support.kafka_flow import (
    Sent,
    applied,
    as_messages,
    opened,
    produce,
    read_all,
    sent_at,
    start_worker,
    stop,
    wait_until,
)
from tests.support.servers import ServerEndpoints

USERS, COMMANDS = 100, 10_000
MAX_BYTES = 64 * 1024
# Compared across an SQLite and a Kafka log, whose positions differ by nature, as do the times at
# which Lore decided (each run records its own).
SAME_EFFECT = frozenset({"log_position"}) | TRANSACTION_TIMES

POISON = {
    b"{this is not json": "not JSON",
    json.dumps({"type": "RecordMemory", "user_id": "user-00001",
                "payload": {"content": "no id"}}).encode(): "command_id: Field required",
    json.dumps({"type": "PlantTree", "command_id": "p-type", "user_id": "user-00002",
                "payload": {}}).encode(): "type: Input should be",
    json.dumps({"type": "RecordMemory", "command_id": "p-big", "user_id": "user-00003",
                "payload": {"content": "x" * (MAX_BYTES + 1000)}}).encode(): "message too large",
    json.dumps({"type": "RecordMemory", "command_id": "p-importance", "user_id": "user-00004",
                "payload": {"content": "c", "importance": "high"}}).encode(): "payload.importance",
    json.dumps(["a", "list"]).encode(): "a command is a JSON object",
}


@pytest.fixture()
def settings(servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str]) -> Settings:
    return Settings(
        neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="kafka",
        kafka_bootstrap=servers.kafka_bootstrap,
        commands_topic=kafka_topic("commands", partitions=8),
        events_topic=kafka_topic("events", partitions=8),
        dead_letter_topic=kafka_topic("dlq"), worker_group=f"workers-{uuid.uuid4().hex[:8]}",
        max_command_bytes=MAX_BYTES, worker_session_timeout_ms=6000, worker_batch=500,
    )


def reference(neo4j: Driver, tmp_path: Path, messages: list[Sent]) -> tuple[str, int]:
    """The graph the same commands give through the embedded path; and how many it refused."""
    from services.wire import parse_command

    lore = bootstrap(Settings(neo4j_uri=neo4j_uri(neo4j), home=tmp_path / "reference", embedder="none"))
    commands = [parse_command(m.value, max_bytes=MAX_BYTES, received_at=sent_at(m)) for m in messages]
    refused = 0
    try:
        for start in range(0, len(commands), 1000):
            part = slice(start, start + 1000)
            outcomes = lore.commands.handle(commands[part])
            refused += sum(o.status == "rejected" for o in outcomes)
        printed = fingerprint(neo4j, ignore=SAME_EFFECT)
        lore.projector.wipe()
    finally:
        lore.close()
    return printed, refused


def neo4j_uri(driver: Driver) -> str:
    return f"bolt://{driver.get_server_info().address[0]}:{driver.get_server_info().address[1]}"


def with_poison(valid: list[Sent]) -> list[Sent]:
    mixed = list(valid)
    for i, raw in enumerate(POISON):
        mixed.insert(1 + i * (len(valid) // len(POISON)), Sent(b"user-00001", raw, valid[0].timestamp_ms))
    return mixed


def test_poison_goes_to_the_dead_letter_topic_and_every_valid_command_applies_once(
    settings: Settings, neo4j: Driver, tmp_path: Path
) -> None:
    valid = as_messages(history(USERS, COMMANDS, seed=11))
    expected, refused = reference(neo4j, tmp_path, valid)
    assert refused > 50  # refusals of the domain (forgetting what does not exist) are in the mix

    produce(settings.kafka_bootstrap, settings.commands_topic, with_poison(valid))
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        wait_until(lambda: applied(neo4j) >= len(valid), "every valid command", [worker],
                   progress=lambda: applied(neo4j))
    finally:
        stop(worker)

    assert applied(neo4j) == len(valid)
    assert fingerprint(neo4j, ignore=SAME_EFFECT) == expected
    # Dead letters are sent at least once: a batch consumed again (a rebalance on a busy machine)
    # sends its refusals again, each naming the same source message.
    letters = read_all(settings.kafka_bootstrap, settings.dead_letter_topic)
    # Lore seals the letters it publishes with the person's key (here the record key's).
    assert all(is_sealed(m.value) for m in letters)
    commands = {(m.partition, m.offset): m.value
                for m in read_all(settings.kafka_bootstrap, settings.commands_topic)}
    by_source = {}
    for m, value in zip(letters, opened(settings, [m.value for m in letters]), strict=True):
        headers = dict(m.headers)
        source = tuple(headers[f"lore.dlq.source.{key}"].decode() for key in ("topic", "partition", "offset"))
        letter = (value, headers[REASON_HEADER])
        first = by_source.setdefault(source, letter)
        # One source, one letter (an erased person's may open to nothing in one copy only).
        assert first[1] == letter[1] and (first[0] == value or b"" in (first[0], value))
        # Opened, a letter is its message as it came; an erased person's opens to nothing.
        assert value in (b"", commands[(int(source[1]), int(source[2]))])
    assert len(by_source) == len(POISON) + refused
    assert {t for t, _, _ in by_source} == {settings.commands_topic}
    assert sum(1 for value, _ in by_source.values() if value) > len(by_source) // 2
    reasons = [reason.decode() for _, reason in by_source.values()]
    for why in POISON.values():
        assert any(why in reason for reason in reasons), why
    refusals = [r for r in reasons if r.startswith("memory_")]
    assert len(refusals) == refused and len(reasons) - len(refusals) == len(POISON)


def test_a_worker_killed_mid_stream_loses_nothing_and_applies_nothing_twice(
    settings: Settings, neo4j: Driver, tmp_path: Path
) -> None:
    messages = as_messages(history(USERS, COMMANDS, seed=12))
    expected, _ = reference(neo4j, tmp_path, messages)
    produce(settings.kafka_bootstrap, settings.commands_topic, messages)

    worker = start_worker(settings, tmp_path / "worker-1.log")
    wait_until(lambda: applied(neo4j) >= 2000, "a part of the stream", [worker],
               progress=lambda: applied(neo4j))
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    assert applied(neo4j) < len(messages), "the kill must land mid-stream"

    restarted = start_worker(settings, tmp_path / "worker-2.log")
    try:
        wait_until(lambda: applied(neo4j) >= len(messages), "the rest of the stream", [restarted],
                   progress=lambda: applied(neo4j))
    finally:
        stop(restarted)
    assert applied(neo4j) == len(messages)
    assert fingerprint(neo4j, ignore=SAME_EFFECT) == expected


def logged(log: Path) -> list[str]:
    """The messages of a worker's log (one JSON object a line: its output is not a terminal)."""
    found = []
    for line in log.read_text().splitlines():
        try:
            found.append(str(json.loads(line)["message"]))
        except (ValueError, KeyError, TypeError):
            found.append(line)
    return found


def split(log: Path) -> bool:
    """The worker's latest assignment is a part of the partitions, not none or all of them."""
    assigned = [line for line in logged(log) if "partitions assigned: [" in line]
    return bool(assigned) and not assigned[-1].endswith(("[]", "[0, 1, 2, 3, 4, 5, 6, 7]"))


def test_two_workers_share_the_stream_and_one_killed_loses_nothing(
    settings: Settings, neo4j: Driver, tmp_path: Path
) -> None:
    messages = as_messages(history(USERS, COMMANDS, seed=13))
    expected, _ = reference(neo4j, tmp_path, messages)
    first = start_worker(settings, tmp_path / "worker-a.log")
    second = start_worker(settings, tmp_path / "worker-b.log")
    try:
        wait_until(lambda: split(tmp_path / "worker-a.log") and split(tmp_path / "worker-b.log"),
                   "the two workers to split the partitions", [first, second])
        produce(settings.kafka_bootstrap, settings.commands_topic, messages[:3000])
        wait_until(lambda: applied(neo4j) >= 1500, "both workers under way", [first, second],
                   progress=lambda: applied(neo4j))
        first.send_signal(signal.SIGKILL)
        first.wait()
        produce(settings.kafka_bootstrap, settings.commands_topic, messages[3000:])
        wait_until(lambda: applied(neo4j) >= len(messages), "the survivor to finish", [second],
                   progress=lambda: applied(neo4j))
    finally:
        stop(first, second)
    assert applied(neo4j) == len(messages)
    assert fingerprint(neo4j, ignore=SAME_EFFECT) == expected
    assert "partitions assigned: [0, 1, 2, 3, 4, 5, 6, 7]" in logged(tmp_path / "worker-b.log"), \
        "the survivor took every partition"
