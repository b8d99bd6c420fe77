"""`lore serve`: the HTTP API."""

from __future__ import annotations

import typer
import uvicorn

from lore.infra.settings import Settings


def serve(
    host: str = typer.Option(None, help="Bind address (default: LORE_API_HOST or 127.0.0.1)."),
    port: int = typer.Option(None, help="Port (default: LORE_API_PORT or 8000)."),
) -> None:
    """Serve the v1 HTTP API (OpenAPI at /docs)."""
    settings = Settings()
    from lore.services.api import create_app

    uvicorn.run(
        create_app(), host=host or settings.api_host, port=port or settings.api_port,
        log_level="info",
    )
