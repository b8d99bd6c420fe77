"""Where API keys are kept (hashed): a SQLite file, or a compacted Kafka topic shared by servers."""

from __future__ import annotations

from infra.apikeys.port import ApiKeyStore
from infra.settings import Settings


def open_api_key_store(settings: Settings) -> ApiKeyStore:
    """Kafka's when the event log is on Kafka (every server sees every key), else a SQLite file."""
    if settings.uses_kafka_log:
        from infra.apikeys.kafka import KafkaApiKeyStore

        assert settings.kafka_bootstrap is not None
        return KafkaApiKeyStore(settings.kafka_access, topic=settings.api_keys_topic)
    from infra.apikeys.sqlite import SqliteApiKeyStore

    return SqliteApiKeyStore(settings.home / "api-keys.sqlite3")


__all__ = ["ApiKeyStore", "open_api_key_store"]
