"""The event log: the source of truth. SQLite (embedded default) or a Kafka topic."""

from __future__ import annotations

from domain.sealing import Keyring
from domain.stored import Decided, StoredEvent
from infra.eventlog.port import EventLog
from infra.settings import Settings


def open_event_log(settings: Settings, keys: Keyring | None = None) -> EventLog:
    """The log the settings name; `keys`: where people's keys are (None: entries are plain)."""
    if settings.uses_kafka_log:
        from infra.eventlog.kafka import KafkaEventLog

        if settings.kafka_bootstrap is None:
            raise ValueError("LORE_EVENT_LOG=kafka needs LORE_KAFKA_BOOTSTRAP")
        return KafkaEventLog(settings.kafka_access, topic=settings.events_topic,
                             partitions=settings.kafka_partitions, max_entry_bytes=settings.max_entry_bytes,
                             keys=keys)
    from infra.eventlog.sqlite import SqliteEventLog

    return SqliteEventLog(settings.sqlite_log_path, keys=keys)


__all__ = ["Decided", "EventLog", "StoredEvent", "open_event_log"]
