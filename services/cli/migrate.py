"""`lore migrate-log`: the configured log, sealed, into a new SQLite file or Kafka topic."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from infra.eventlog import EventLog, open_event_log
from infra.eventlog.kafka import KafkaEventLog
from infra.eventlog.sqlite import SqliteEventLog
from infra.keys import open_key_store
from infra.settings import Settings
from services.migrate import migrate

console = Console()


def migrate_log(
    to: str = typer.Option(..., "--to", help="The new log: a SQLite file path (embedded mode) or a "
                           "Kafka topic name (Kafka mode)."),
) -> None:
    """Copy a log written before encryption into a new one, each person's entries sealed with their
    key. Then point Lore at the new log (LORE_HOME's events.sqlite3 or LORE_EVENTS_TOPIC), run
    `lore rebuild`, and delete the old log: it holds people's words in the clear."""
    settings = Settings()
    keys = open_key_store(settings)
    if keys is None:
        console.print("[red]error:[/red] LORE_ENCRYPTION is off: there is nothing to seal with")
        raise typer.Exit(2)
    source = open_event_log(settings)  # no keys: an entry already sealed is refused, not re-sealed
    target: EventLog
    if settings.uses_kafka_log:
        assert settings.kafka_bootstrap
        target = KafkaEventLog(settings.kafka_access, topic=to, partitions=settings.kafka_partitions,
                               max_entry_bytes=settings.max_entry_bytes, keys=keys)
    else:
        target = SqliteEventLog(Path(to), keys=keys)
    try:
        copied = migrate(source, target, keys)
        console.print(f"copied {copied:,} entries into {to}, sealed")
    finally:
        source.close()
        target.close()
        keys.close()
