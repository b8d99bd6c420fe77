"""Helpers for tests that send commands through Kafka to real `lore worker` processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kafka import KafkaConsumer, KafkaProducer
from neo4j import Driver

from domain.commands import Command
from domain.sealing import Sealer
from infra.keys import open_key_store
from infra.settings import Settings
from services.wire import SealedUnreadable, open_message, to_message

T0 = datetime(2026, 5, 1, tzinfo=UTC)
# How long a wait may see nothing move before it fails: a hang, not a slow machine.
STALL_S = 300.0


@dataclass(frozen=True)
class Sent:
    key: bytes | None
    value: bytes
    timestamp_ms: int


def as_messages(commands: Iterable[Command]) -> list[Sent]:
    """Each command as a message, with a fixed timestamp, one ms apart."""
    return [Sent(c.user_id.encode(), to_message(c), int((T0 + timedelta(milliseconds=i)).timestamp() * 1000))
            for i, c in enumerate(commands)]


def sent_at(message: Sent) -> datetime:
    """The message's timestamp: a command without `occurred_at` happened then."""
    return datetime.fromtimestamp(message.timestamp_ms / 1000, tz=UTC)


def produce(bootstrap: str, topic: str, messages: Iterable[Sent]) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5,
                             max_request_size=4 * 1024 * 1024)
    for m in messages:
        producer.send(topic, key=m.key, value=m.value, timestamp_ms=m.timestamp_ms)
    producer.flush()
    producer.close()


def read_topic(bootstrap: str, topic: str, expect: int, stall_s: float = STALL_S) -> list:
    """The topic's messages, once it holds `expect` of them, or when none has come for `stall_s`."""
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                             enable_auto_commit=False, consumer_timeout_ms=1000)
    found: list = []
    moved = time.monotonic()
    while len(found) < expect and time.monotonic() - moved < stall_s:
        before = len(found)
        found.extend(consumer)
        if len(found) > before:
            moved = time.monotonic()
    consumer.close()
    return found


def read_all(bootstrap: str, topic: str) -> list:
    """Everything the topic holds now (for a topic no one writes to any more)."""
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                             enable_auto_commit=False, consumer_timeout_ms=3000)
    found = list(consumer)
    consumer.close()
    return found


def opened(settings: Settings, values: Iterable[bytes]) -> list[bytes]:
    """Messages as their producer wrote them: the sealed ones opened with the people's keys (what
    Lore publishes itself is sealed when encryption is on)."""
    keys = open_key_store(settings)
    try:
        sealer = None if keys is None else Sealer(keys)
        return [_opened(value, sealer) for value in values]
    finally:
        if keys is not None:
            keys.close()


def _opened(value: bytes, sealer: Sealer | None) -> bytes:
    """b"" for a message of an erased person's: their key is gone."""
    try:
        return open_message(value, sealer)[0] or b""
    except SealedUnreadable as unreadable:
        if unreadable.code != "key_destroyed":
            raise
        return b""


def by_source(letters: Iterable) -> list:
    """Dead letters, one per message they came from (a batch consumed again sends its letters again)."""
    first: dict[tuple[bytes, ...], object] = {}
    for letter in letters:
        headers = dict(letter.headers)
        source = tuple(headers[f"lore.dlq.source.{k}"] for k in ("topic", "partition", "offset"))
        first.setdefault(source, letter)
    return list(first.values())


def env_for(settings: Settings) -> dict[str, str]:
    values = {
        "LORE_NEO4J_URI": settings.neo4j_uri, "LORE_HOME": str(settings.home),
        "LORE_KAFKA_BOOTSTRAP": settings.kafka_bootstrap or "", "LORE_EVENT_LOG": settings.event_log,
        "LORE_EVENTS_TOPIC": settings.events_topic, "LORE_COMMANDS_TOPIC": settings.commands_topic,
        "LORE_DEAD_LETTER_TOPIC": settings.dead_letter_topic, "LORE_WORKER_GROUP": settings.worker_group,
        "LORE_EMBEDDER": settings.embedder, "LORE_MAX_COMMAND_BYTES": str(settings.max_command_bytes),
        "LORE_WORKER_SESSION_TIMEOUT_MS": str(settings.worker_session_timeout_ms),
        "LORE_WORKER_BATCH": str(settings.worker_batch),
        "LORE_MAX_ENTRY_BYTES": str(settings.max_entry_bytes),
        "LORE_EXTRACTOR": settings.extractor, "LORE_LLM": settings.llm, "LORE_LAYERS": settings.layers,
        "LORE_LLM_MODEL": settings.llm_model, "LORE_EXTRACTION_POLL_S": str(settings.extraction_poll_s),
    }
    if settings.llm_base_url:
        values["LORE_LLM_BASE_URL"] = settings.llm_base_url
    if settings.neo4j_shards:
        values["LORE_NEO4J_SHARDS"] = ",".join(settings.neo4j_shards)
    if settings.neo4j_password:
        values["LORE_NEO4J_PASSWORD"] = settings.neo4j_password
    if settings.kafka_password:
        values |= {"LORE_KAFKA_USERNAME": settings.kafka_username,
                   "LORE_KAFKA_PASSWORD": settings.kafka_password}
    return {**os.environ, **values}


def start_worker(settings: Settings, log: Path, *args: str) -> subprocess.Popen[bytes]:
    """A real `lore worker` process (`args`: its options, e.g. --shard 1)."""
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "services.cli", "worker", *args],
                                env=env_for(settings), stdout=out, stderr=subprocess.STDOUT)


def stop(*workers: subprocess.Popen[bytes]) -> None:
    """A clean stop (SIGTERM) of the workers still running."""
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
            worker.wait(30)


def applied(driver: Driver) -> int:
    """Commands sent to Lore that took effect (the extraction process's own answers left out; an
    erased person's keep no id, and count)."""
    records, _, _ = driver.execute_query("MATCH (a:AppliedCommand) WHERE a.command_id IS NULL "
                                         "OR NOT a.command_id STARTS WITH 'extraction-' RETURN count(a) AS n")
    return int(records[0]["n"])


def wait_until(condition: Callable[[], bool], what: str, workers: Iterable[subprocess.Popen[bytes]] = (),
               progress: Callable[[], object] | None = None, stall_s: float = STALL_S) -> None:
    """Wait for `condition`, however long the work takes while it moves: the wait fails when a
    worker exits, or when `progress()` (a count the work raises, e.g. commands applied) has not
    changed for `stall_s` — never on a budget of wall-clock time for the whole of the work."""
    moved, last = time.monotonic(), progress() if progress else None
    while not condition():
        if progress is not None and (now := progress()) != last:
            moved, last = time.monotonic(), now
        if time.monotonic() - moved > stall_s:
            raise AssertionError(f"no progress for {stall_s:.0f}s while waiting for {what}")
        for worker in workers:
            if worker.poll() is not None:
                raise AssertionError(f"a worker exited with {worker.returncode} while waiting for {what}")
        time.sleep(0.1)


def kafka_settings(servers_neo4j: str, bootstrap: str, home: Path, topic: Callable[..., str],
                   partitions: int = 4, **extra: object) -> Settings:
    """Settings of a Lore on Kafka whose topics and consumer group are this test's own."""
    values: dict[str, object] = dict(
        neo4j_uri=servers_neo4j, home=home, embedder="none", event_log="kafka", kafka_bootstrap=bootstrap,
        commands_topic=topic("commands", partitions=partitions),
        events_topic=topic("events", partitions=partitions), dead_letter_topic=topic("dlq"),
        worker_group=f"workers-{uuid.uuid4().hex[:8]}",
    )
    return Settings(**{**values, **extra})
