"""API keys on a compacted Kafka topic (`lore.api-keys`): record key = key id, value = the key's
record (hashed secret, tenant, scope); revoking writes a tombstone. Every server reads the topic
whole at start and follows it in the background, so a key made or revoked on one server counts on
every other within a poll."""

from __future__ import annotations

import threading

from confluent_kafka import Producer
from kafka import KafkaConsumer, TopicPartition

from domain.access import ApiKey
from infra.apikeys.codec import dump_key, load_key
from infra.eventlog.kafka import ensure_topic
from infra.kafka_access import KafkaAccess

TOPIC_CONFIG = {"cleanup.policy": "compact", "retention.ms": "-1", "min.cleanable.dirty.ratio": "0.1"}
_FOLLOW_S = 0.2


class KafkaApiKeyStore:
    name = "kafka"

    def __init__(self, kafka: KafkaAccess | str, topic: str = "lore.api-keys") -> None:
        kafka = KafkaAccess.of(kafka)
        self.topic = topic
        ensure_topic(kafka, topic, 1, TOPIC_CONFIG)
        self._producer = Producer(kafka.confluent(**{"enable.idempotence": True, "acks": "all"}))
        self._consumer = KafkaConsumer(**kafka.kafka_python(enable_auto_commit=False, group_id=None))
        self._partition = TopicPartition(topic, 0)
        self._consumer.assign([self._partition])
        self._consumer.seek_to_beginning(self._partition)
        self._lock = threading.Lock()
        self._keys: dict[str, ApiKey] = {}
        self._read_to_end()
        self._closed = threading.Event()
        self._follower = threading.Thread(target=self._follow, name=f"follow-{topic}", daemon=True)
        self._follower.start()

    def _read_to_end(self) -> None:
        end = self._consumer.end_offsets([self._partition])[self._partition]
        while self._consumer.position(self._partition) < end:
            self._take_polled(1000)

    def _take_polled(self, timeout_ms: int) -> None:
        for records in self._consumer.poll(timeout_ms=timeout_ms).values():
            for record in records:
                key_id = record.key.decode()
                if record.value is None:
                    self._keys.pop(key_id, None)
                else:
                    self._keys[key_id] = load_key(record.value)

    def _follow(self) -> None:
        while not self._closed.wait(_FOLLOW_S):
            with self._lock:
                if not self._closed.is_set():
                    self._take_polled(0)

    def find(self, key_id: str) -> ApiKey | None:
        with self._lock:
            return self._keys.get(key_id)

    def add(self, key: ApiKey) -> None:
        self._write(key.key_id, dump_key(key))
        with self._lock:
            self._keys[key.key_id] = key

    def revoke(self, key_id: str) -> bool:
        with self._lock:
            self._read_to_end()
            known = key_id in self._keys
        if known:
            self._write(key_id, None)
            with self._lock:
                self._keys.pop(key_id, None)
        return known

    def all(self) -> list[ApiKey]:
        with self._lock:
            self._read_to_end()
            return sorted(self._keys.values(), key=lambda k: k.created_at)

    def _write(self, key_id: str, value: bytes | None) -> None:
        errors: list[object] = []
        self._producer.produce(self.topic, key=key_id.encode(), value=value,
                               on_delivery=lambda error, _: errors.append(error) if error else None)
        if self._producer.flush(30) or errors:
            raise RuntimeError(f"writing to the API-key topic {self.topic} failed: {errors or 'timed out'}")

    def close(self) -> None:
        self._closed.set()
        self._follower.join(timeout=5)
        self._producer.flush(30)
        with self._lock:
            self._consumer.close()
