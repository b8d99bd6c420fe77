"""A plain producer for what Lore's own jobs put on a topic (commands of a maintenance run)."""

from __future__ import annotations

from confluent_kafka import Producer

from infra.kafka_access import KafkaAccess


class KafkaPublisher:
    def __init__(self, kafka: KafkaAccess | str, topic: str) -> None:
        self.topic = topic
        self._producer = Producer(KafkaAccess.of(kafka).confluent(**{
            "enable.idempotence": True, "acks": "all", "linger.ms": 5, "partitioner": "murmur2_random"}))

    def publish(self, value: bytes, key: str) -> None:
        while True:
            try:
                self._producer.produce(self.topic, key=key.encode(), value=value)
                return
            except BufferError:  # the local queue is full: let it drain
                self._producer.poll(0.1)

    def flush(self) -> None:
        if self._producer.flush(60):
            raise RuntimeError(f"could not deliver every message to {self.topic}")

    def close(self) -> None:
        self._producer.flush(30)
