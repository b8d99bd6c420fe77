"""`lore serve`: the HTTP API, and with Kafka configured a worker in the same process."""

from __future__ import annotations

import typer
import uvicorn

from infra.settings import Settings


def serve(
    host: str = typer.Option(None, help="Bind address (default: LORE_API_HOST or 127.0.0.1)."),
    port: int = typer.Option(None, help="Port (default: LORE_API_PORT or 8000)."),
    worker: bool = typer.Option(
        True, "--worker/--no-worker",
        help="With Kafka configured (LORE_KAFKA_BOOTSTRAP), also consume lore.commands here. "
        "Use --no-worker when `lore worker` processes run apart. With several Neo4j shards "
        "(LORE_NEO4J_SHARDS) there is never one here: run `lore worker --shard I` for each.",
    ),
) -> None:
    """Serve the v1 HTTP API (OpenAPI at /docs).

    Without Kafka, writes go to the embedded SQLite log (LORE_HOME/events.sqlite3) and are applied
    before the answer. With LORE_KAFKA_BOOTSTRAP set, writes go through lore.commands."""
    settings = Settings()
    from services.api import create_app

    bind = host or settings.api_host
    uvicorn.run(
        create_app(worker=worker, lifecycle=True, host=bind), host=bind, port=port or settings.api_port,
        log_level="info",
    )
