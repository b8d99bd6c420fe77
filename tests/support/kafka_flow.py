"""Helpers for tests that send commands through Kafka to real `lore worker` processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kafka import KafkaConsumer, KafkaProducer
from neo4j import Driver

from domain.commands import Command
from infra.settings import Settings
from services.wire import to_message

T0 = datetime(2026, 5, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Sent:
    key: bytes | None
    value: bytes
    timestamp_ms: int


def as_messages(commands: Iterable[Command]) -> list[Sent]:
    """Each command as a message, with a fixed timestamp (its `recorded_at`), one ms apart."""
    return [Sent(c.user_id.encode(), to_message(c), int((T0 + timedelta(milliseconds=i)).timestamp() * 1000))
            for i, c in enumerate(commands)]


def accepted_at(message: Sent) -> datetime:
    return datetime.fromtimestamp(message.timestamp_ms / 1000, tz=UTC)


def produce(bootstrap: str, topic: str, messages: Iterable[Sent]) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5,
                             max_request_size=4 * 1024 * 1024)
    for m in messages:
        producer.send(topic, key=m.key, value=m.value, timestamp_ms=m.timestamp_ms)
    producer.flush()
    producer.close()


def read_topic(bootstrap: str, topic: str, expect: int, timeout_s: float = 60) -> list:
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                             enable_auto_commit=False, consumer_timeout_ms=3000)
    found: list = []
    deadline = time.monotonic() + timeout_s
    while len(found) < expect and time.monotonic() < deadline:
        found.extend(consumer)
    consumer.close()
    return found


def env_for(settings: Settings) -> dict[str, str]:
    values = {
        "LORE_NEO4J_URI": settings.neo4j_uri, "LORE_HOME": str(settings.home),
        "LORE_KAFKA_BOOTSTRAP": settings.kafka_bootstrap or "", "LORE_EVENT_LOG": settings.event_log,
        "LORE_EVENTS_TOPIC": settings.events_topic, "LORE_COMMANDS_TOPIC": settings.commands_topic,
        "LORE_DEAD_LETTER_TOPIC": settings.dead_letter_topic, "LORE_WORKER_GROUP": settings.worker_group,
        "LORE_EMBEDDER": settings.embedder, "LORE_MAX_COMMAND_BYTES": str(settings.max_command_bytes),
        "LORE_WORKER_SESSION_TIMEOUT_MS": str(settings.worker_session_timeout_ms),
        "LORE_WORKER_BATCH": str(settings.worker_batch),
    }
    return {**os.environ, **values}


def start_worker(settings: Settings, log: Path) -> subprocess.Popen[bytes]:
    """A real `lore worker` process."""
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "services.cli", "worker"],
                                env=env_for(settings), stdout=out, stderr=subprocess.STDOUT)


def stop(*workers: subprocess.Popen[bytes]) -> None:
    """A clean stop (SIGTERM) of the workers still running."""
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
            worker.wait(30)


def applied(driver: Driver) -> int:
    records, _, _ = driver.execute_query("MATCH (a:AppliedCommand) RETURN count(a) AS n")
    return int(records[0]["n"])


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str,
               workers: Iterable[subprocess.Popen[bytes]] = ()) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        for worker in workers:
            if worker.poll() is not None:
                raise AssertionError(f"a worker exited with {worker.returncode} while waiting for {what}")
        time.sleep(0.1)
