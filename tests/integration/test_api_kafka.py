"""The HTTP API in Kafka mode: writes travel through lore.commands to the worker running in the
same process, and a command id sent through both doors takes effect once."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from kafka import KafkaConsumer, TopicPartition
from neo4j import Driver

from domain.commands import RecordMemory
from domain.sealing import is_sealed
from infra.settings import Settings
from tests.support.kafka_flow import as_messages, opened, produce, wait_until
from tests.support.servers import ServerEndpoints


@pytest.fixture()
def settings(servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str]) -> Settings:
    return Settings(
        neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="kafka",
        kafka_bootstrap=servers.kafka_bootstrap, commands_topic=kafka_topic("commands", partitions=4),
        events_topic=kafka_topic("events", partitions=4), dead_letter_topic=kafka_topic("dlq"),
        worker_group=f"api-{uuid.uuid4().hex[:8]}",
    )


def consumed_everything(settings: Settings) -> bool:
    # A consumer of the workers' group that never joins it: it only reads the group's offsets.
    consumer = KafkaConsumer(bootstrap_servers=settings.kafka_bootstrap, group_id=settings.worker_group,
                             enable_auto_commit=False)
    try:
        parts = [TopicPartition(settings.commands_topic, p) for p in range(4)]
        ends = consumer.end_offsets(parts)
        return all((consumer.committed(tp) or 0) >= ends[tp] for tp in parts)
    finally:
        consumer.close()


def memories(neo4j: Driver) -> list[str]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory) RETURN m.content AS content")
    return [r["content"] for r in records]


def test_http_then_kafka_with_one_command_id_takes_effect_once(
    client: TestClient, settings: Settings, neo4j: Driver
) -> None:
    response = client.post("/v1/users/ada/memories", params={"wait": "true"},
                           json={"content": "likes tea", "command_id": "both-doors"})
    assert response.status_code == 202 and response.json()["status"] == "applied"
    assert response.json()["memory_id"]

    again = RecordMemory(command_id="both-doors", user_id="ada", occurred_at=datetime.now(UTC),
                         content="likes coffee")
    produce(settings.kafka_bootstrap, settings.commands_topic, as_messages([again]))
    wait_until(lambda: consumed_everything(settings), "the worker to consume the Kafka copy")
    assert memories(neo4j) == ["likes tea"]


def test_kafka_then_http_with_one_command_id_answers_duplicate(
    client: TestClient, settings: Settings, neo4j: Driver
) -> None:
    first = RecordMemory(command_id="kafka-first", user_id="ada", occurred_at=datetime.now(UTC),
                         content="runs on sundays")
    produce(settings.kafka_bootstrap, settings.commands_topic, as_messages([first]))
    wait_until(lambda: memories(neo4j) == ["runs on sundays"], "the Kafka command to apply")

    response = client.post("/v1/users/ada/memories", params={"wait": "true"},
                           json={"content": "runs on mondays", "command_id": "kafka-first"})
    assert response.status_code == 202 and response.json()["status"] == "duplicate"
    assert memories(neo4j) == ["runs on sundays"]


def test_without_wait_the_answer_is_accepted_and_the_write_arrives(
    client: TestClient, neo4j: Driver
) -> None:
    response = client.post("/v1/users/ada/memories", json={"content": "plays chess"})
    assert response.status_code == 202 and response.json()["status"] in {"accepted", "applied"}
    wait_until(lambda: memories(neo4j) == ["plays chess"], "the write to arrive")


def test_a_refusal_through_kafka_mode_is_404_with_wait(client: TestClient) -> None:
    response = client.delete("/v1/users/ada/memories/nothing-here", params={"wait": "true"})
    assert response.status_code == 404 and response.json()["code"] == "memory_not_found"


def test_what_the_api_publishes_to_lore_commands_is_sealed_with_the_persons_key(
    client: TestClient, settings: Settings, neo4j: Driver
) -> None:
    marker = f"quillwort{uuid.uuid4().hex[:6]}"
    response = client.post("/v1/users/ada/memories", params={"wait": "true"},
                           json={"content": f"grows {marker} on the balcony"})
    assert response.status_code == 202 and response.json()["status"] == "applied"
    assert memories(neo4j) == [f"grows {marker} on the balcony"]
    consumer = KafkaConsumer(settings.commands_topic, bootstrap_servers=settings.kafka_bootstrap,
                             auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=3000)
    (record,) = list(consumer)
    consumer.close()
    assert is_sealed(record.value) and marker.encode() not in record.value and record.key == b"ada"
    assert marker.encode() in opened(settings, [record.value])[0]
