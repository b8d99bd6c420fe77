"""API keys on a compacted Kafka topic (`lore.api-keys`): record key = key id, value = the key's
record (hashed secret, tenant, scope); revoking writes a tombstone. Every server reads the topic
whole at start and follows it in the background, so a key made or revoked on one server counts on
every other within a poll."""

from __future__ import annotations

from domain.access import ApiKey
from infra.apikeys.codec import dump_key, load_key
from infra.compacted_topic import CompactedTopic
from infra.kafka_access import KafkaAccess

TOPIC_CONFIG = {"cleanup.policy": "compact", "retention.ms": "-1", "min.cleanable.dirty.ratio": "0.1"}


class KafkaApiKeyStore:
    name = "kafka"

    def __init__(self, kafka: KafkaAccess | str, topic: str = "lore.api-keys") -> None:
        self.topic = topic
        self._keys: dict[str, ApiKey] = {}
        self._table = CompactedTopic(kafka, topic, TOPIC_CONFIG, self._take, follow_s=0.2)
        self._lock = self._table.lock

    def _take(self, key: bytes, value: bytes | None) -> None:
        if value is None:
            self._keys.pop(key.decode(), None)
        else:
            self._keys[key.decode()] = load_key(value)

    def find(self, key_id: str) -> ApiKey | None:
        with self._lock:
            return self._keys.get(key_id)

    def add(self, key: ApiKey) -> None:
        self._table.write(key.key_id.encode(), dump_key(key))
        with self._lock:
            self._keys[key.key_id] = key

    def revoke(self, key_id: str) -> bool:
        with self._lock:
            self._table.read_to_end()
            known = key_id in self._keys
        if known:
            self._table.write(key_id.encode(), None)
            with self._lock:
                self._keys.pop(key_id, None)
        return known

    def all(self) -> list[ApiKey]:
        with self._lock:
            self._table.read_to_end()
            return sorted(self._keys.values(), key=lambda k: k.created_at)

    def close(self) -> None:
        self._table.close()
