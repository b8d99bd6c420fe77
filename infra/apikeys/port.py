"""The API-key store port: keys by id, kept hashed, outside the event log (a key is not a memory,
and a rebuild of the graph must not lose them)."""

from __future__ import annotations

from typing import Protocol

from domain.access import ApiKey
from infra.settings import Settings


class ApiKeyStore(Protocol):
    name: str

    def find(self, key_id: str) -> ApiKey | None: ...

    def add(self, key: ApiKey) -> None: ...

    def revoke(self, key_id: str) -> bool:
        """Remove the key; False when there was none of that id."""

    def all(self) -> list[ApiKey]: ...

    def close(self) -> None: ...


def open_api_key_store(settings: Settings) -> ApiKeyStore:
    """Kafka's when the event log is on Kafka (every server sees every key), else a SQLite file."""
    if settings.uses_kafka_log:
        from infra.apikeys.kafka import KafkaApiKeyStore

        assert settings.kafka_bootstrap is not None
        return KafkaApiKeyStore(settings.kafka_access, topic=settings.api_keys_topic)
    from infra.apikeys.sqlite import SqliteApiKeyStore

    return SqliteApiKeyStore(settings.home / "api-keys.sqlite3")
