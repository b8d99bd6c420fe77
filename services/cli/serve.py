"""`lore serve`: the HTTP API, and with Kafka configured a worker in the same process."""

from __future__ import annotations

import logging

import typer
import uvicorn

from infra.settings import Settings

log = logging.getLogger(__name__)
STREAMS_GRACE_S = 5


def on_the_stack(settings: Settings) -> tuple[Settings, str | None]:
    """Settings that serve on the Kafka which `lore infra up` runs for this LORE_HOME, so that a
    producer's commands on lore.commands reach memory; and why not, when not. A Kafka named by
    LORE_KAFKA_BOOTSTRAP, or LORE_EVENT_LOG=sqlite, is kept; so is an embedded log that already
    holds entries (its graph was projected from it: moving needs `lore rebuild` on the new log)."""
    if settings.kafka_bootstrap is not None or settings.event_log == "sqlite":
        return settings, None
    from infra.eventlog.sqlite import SqliteEventLog
    from infra.local import LocalStack

    path = settings.sqlite_log_path
    if path.exists():
        held = SqliteEventLog(path)
        try:
            entries = held.count()
        finally:
            held.close()
        if entries:
            return settings, (f"{path} holds {entries:,} entries: serving on it (the embedded log), not on "
                              "Kafka; commands produced to lore.commands are not read. To move to Kafka, "
                              "README: 'The two commands'")
    bootstrap = LocalStack.from_settings(settings).kafka.bootstrap
    return settings.model_copy(update={"kafka_bootstrap": bootstrap}), None


def serve(
    host: str = typer.Option(None, help="Bind address (default: LORE_API_HOST or 127.0.0.1)."),
    port: int = typer.Option(None, help="Port (default: LORE_API_PORT or 8000)."),
    worker: bool = typer.Option(
        True, "--worker/--no-worker",
        help="With Kafka configured (LORE_KAFKA_BOOTSTRAP), also consume lore.commands here. "
        "Use --no-worker when `lore worker` processes run apart. With several Neo4j shards "
        "(LORE_NEO4J_SHARDS) there is never one here: run `lore worker --shard I` for each.",
    ),
    stack: bool = typer.Option(
        False, "--stack",
        help="Serve on the Kafka that `lore infra up` runs for this LORE_HOME (what `make run` does): "
        "the log on lore.events, commands on lore.commands, a worker here. Kept on the embedded log when "
        "that already holds entries, or LORE_KAFKA_BOOTSTRAP / LORE_EVENT_LOG say otherwise.",
    ),
) -> None:
    """Serve the v1 HTTP API (OpenAPI at /docs).

    Without Kafka, writes go to the embedded SQLite log (LORE_HOME/events.sqlite3) and are applied
    before the answer. With LORE_KAFKA_BOOTSTRAP set (or --stack), writes go through lore.commands,
    and so can any producer's."""
    settings = Settings()
    if stack:
        settings, kept = on_the_stack(settings)
        if kept:
            log.warning(kept)
    from services.api import create_app
    from services.bootstrap import bootstrap

    bind = host or settings.api_host
    app = create_app(lambda: bootstrap(settings.for_shard(0)), worker=worker, lifecycle=True, host=bind)
    # A change stream (GET .../changes) never ends by itself: on a restart it is cut after a grace
    # period, and its client connects again with the last id it received (nothing lost).
    uvicorn.run(app, host=bind, port=port or settings.api_port, log_level="info",
                timeout_graceful_shutdown=STREAMS_GRACE_S)
