"""The event-log port and the choice of adapter."""

from __future__ import annotations

from typing import Protocol

from lore.infra.settings import Settings


class EventLog(Protocol):
    name: str

    def ping(self) -> None:
        """Raise if the log cannot be read or written."""

    def close(self) -> None: ...


def open_event_log(settings: Settings) -> EventLog:
    if settings.uses_kafka_log:
        from lore.infra.eventlog.kafka import KafkaEventLog

        assert settings.kafka_bootstrap is not None
        return KafkaEventLog(settings.kafka_bootstrap)
    from lore.infra.eventlog.sqlite import SqliteEventLog

    return SqliteEventLog(settings.sqlite_log_path)
