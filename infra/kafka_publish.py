"""A plain producer for what Lore's own jobs put on a topic (commands of a maintenance run)."""

from __future__ import annotations

from typing import Any

from confluent_kafka import Producer

from infra.kafka_access import KafkaAccess

# What a record costs on a topic beyond its value (key, headers, batch framing), with room to spare:
# topics and producers allow a command or an entry of the largest accepted size plus this.
RECORD_OVERHEAD = 64 * 1024


def produce_patiently(producer: Producer, topic: str, **record: Any) -> None:
    """Queue a record, waiting while the producer's local queue is full (it drains as the broker
    acknowledges) instead of failing."""
    while True:
        try:
            producer.produce(topic, **record)
            return
        except BufferError:
            producer.poll(0.1)


class KafkaPublisher:
    def __init__(self, kafka: KafkaAccess | str, topic: str) -> None:
        self.topic = topic
        self._producer = Producer(KafkaAccess.of(kafka).confluent(**{
            "enable.idempotence": True, "acks": "all", "linger.ms": 5, "partitioner": "murmur2_random"}))

    def publish(self, value: bytes, key: str) -> None:
        produce_patiently(self._producer, self.topic, key=key.encode(), value=value)

    def flush(self) -> None:
        if self._producer.flush(60):
            raise RuntimeError(f"could not deliver every message to {self.topic}")

    def close(self) -> None:
        self._producer.flush(30)
