"""Reminders: 200 to-dos due within a minute, two `lore serve` processes, the one sending killed
with SIGKILL in the middle: every reminder is on lore.reminders exactly once (for a consumer
reading committed records), the survivor sending the rest."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from confluent_kafka import Consumer, TopicPartition
from neo4j import Driver

from domain.commands import RecordMemory
from infra.settings import Settings
from services.bootstrap import bootstrap
from tests.support.kafka_flow import env_for, kafka_settings, stop, wait_until
from tests.support.servers import ServerEndpoints

TODOS = 200


def committed(bootstrap_servers: str, topic: str) -> list[dict]:  # type: ignore[type-arg]
    """Every committed record of the topic, as a consumer with read_committed sees it."""
    consumer = Consumer({"bootstrap.servers": bootstrap_servers, "group.id": f"t-{os.getpid()}",
                         "isolation.level": "read_committed", "enable.auto.commit": False,
                         "auto.offset.reset": "earliest"})
    try:
        parts = consumer.list_topics(topic, timeout=30).topics[topic].partitions
        # Up to the end as it is now: a topic still being written to is read to this moment.
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)[1] for p in parts}
        consumer.assign([TopicPartition(topic, p, 0) for p in parts])
        found: list[dict] = []  # type: ignore[type-arg]
        idle = 0
        while idle < 10:
            message = consumer.poll(0.3)
            if message is not None and not message.error():
                idle = 0
                if message.offset() < ends[message.partition()]:
                    found.append(json.loads(message.value()))
            else:
                idle += 1
            at = consumer.position([TopicPartition(topic, p) for p in parts])
            if all(tp.offset >= ends[tp.partition] or ends[tp.partition] == 0 for tp in at):
                break
        return found
    finally:
        consumer.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(settings: Settings, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, **env_for(settings), "LORE_REMINDERS_TOPIC": settings.reminders_topic,
           "LORE_REMINDER_POLL_S": "0.5", "LORE_MAINTENANCE_CRON": ""}
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)],
                                env=env, stdout=out, stderr=subprocess.STDOUT)


def healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def holder_pid(neo4j: Driver) -> int | None:
    records, _, _ = neo4j.execute_query("MATCH (l:Lease {name: 'reminders'}) RETURN l.holder AS h")
    holder = records[0]["h"] if records else None
    return int(holder.split(":")[1]) if holder else None


def test_every_reminder_is_sent_exactly_once_when_a_server_is_killed_mid_way(
        servers: ServerEndpoints, neo4j: Driver, tmp_path: Path, kafka_topic: Callable[..., str]) -> None:
    settings = kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic,
                              reminders_topic=kafka_topic("reminders"), extractor="off", layers="off")
    ports = [free_port(), free_port()]
    first = serve(settings, ports[0], tmp_path / "serve-a.log")
    second = serve(settings, ports[1], tmp_path / "serve-b.log")
    try:
        wait_until(lambda: healthy(ports[0]) and healthy(ports[1]) and holder_pid(neo4j) is not None,
                   "both servers up, one sending reminders", [first, second])
        lore = bootstrap(settings.model_copy(update={"reminders": "off"}))
        try:
            # Due over 80 seconds from half a minute on: the workers apply them first.
            start = datetime.now(UTC) + timedelta(seconds=30)
            commands = [RecordMemory(command_id=f"todo-{i}", user_id=f"user-{i % 7}",
                                     occurred_at=datetime.now(UTC), content=f"to-do number {i}", kind="todo",
                                     due_at=start + timedelta(hours=1, seconds=i * 0.4),
                                     remind_at=start + timedelta(seconds=i * 0.4))
                        for i in range(TODOS)]
            # Through lore.commands, to the two servers' workers.
            from infra.kafka_publish import KafkaPublisher
            from services.lifecycle.send import through_kafka
            publisher = KafkaPublisher(settings.kafka_bootstrap or "", settings.commands_topic)
            through_kafka(publisher.publish, publisher.flush, lore.outcomes.outcomes)(commands)
        finally:
            lore.close()

        def sent() -> int:
            return len(committed(settings.kafka_bootstrap or "", settings.reminders_topic))

        wait_until(lambda: sent() >= 40, "the first reminders", [first, second], progress=sent)
        pid = holder_pid(neo4j)
        victim, survivor = (first, second) if pid == first.pid else (second, first)
        assert pid in (first.pid, second.pid)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        at_kill = sent()
        assert at_kill < TODOS, "the kill must land mid-way"
        wait_until(lambda: sent() >= TODOS, "the survivor to send the rest", [survivor], progress=sent)
    finally:
        stop(first, second)
    reminders = committed(settings.kafka_bootstrap or "", settings.reminders_topic)
    ids = [r["reminder_id"] for r in reminders]
    assert len(ids) == TODOS and len(set(ids)) == TODOS
    assert sorted(r["content"] for r in reminders) == sorted(f"to-do number {i}" for i in range(TODOS))
