"""The key store: people's keys, kept outside the event log (crypto-shredding)."""

from __future__ import annotations

from infra.keys.port import KeyStore
from infra.settings import Settings


def open_key_store(settings: Settings) -> KeyStore | None:
    """The store the settings name; None when encryption is off."""
    if not settings.encryption:
        return None
    if settings.uses_kafka_keys:
        from infra.keys.kafka import KafkaKeyStore

        if settings.kafka_bootstrap is None:
            raise ValueError("LORE_KEY_STORE=kafka needs LORE_KAFKA_BOOTSTRAP")
        return KafkaKeyStore(settings.kafka_access, topic=settings.keys_topic)
    from infra.keys.sqlite import SqliteKeyStore

    return SqliteKeyStore(settings.key_store_path)


__all__ = ["KeyStore", "open_key_store"]
