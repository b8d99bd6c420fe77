"""The event log: the source of truth. SQLite (embedded default) or a Kafka topic."""

from domain.stored import Decided, StoredEvent
from infra.eventlog.port import EventLog, open_event_log

__all__ = ["Decided", "EventLog", "StoredEvent", "open_event_log"]
