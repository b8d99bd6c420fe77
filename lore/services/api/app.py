"""The FastAPI application: lifespan wiring and routers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from lore import __version__
from lore.services.api.routers import health
from lore.services.bootstrap import Lore, bootstrap

log = logging.getLogger(__name__)


def _prepare_schema(lore: Lore) -> None:
    try:
        # Fails at once when Neo4j is down, where a query would be retried for half a minute.
        lore.driver.verify_connectivity()
        lore.commands.ensure_schema()
    except Exception as exc:  # noqa: BLE001 - serve anyway; /v1/health says what is wrong
        log.warning("Neo4j schema not ready yet (%s); it is retried on the first write", exc)


def create_app(make_lore: Callable[[], Lore] = bootstrap) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.lore = lore = make_lore()
        # In the background: Lore serves (and /v1/health answers) even while Neo4j is still down.
        schema = asyncio.create_task(asyncio.to_thread(_prepare_schema, lore))
        try:
            yield
        finally:
            # Closing the driver under a running schema job would leave it writing after we are gone.
            await schema
            lore.close()

    app = FastAPI(
        title="Lore",
        version=__version__,
        summary="Temporal, event-sourced memory for AI assistants.",
        lifespan=lifespan,
    )
    app.include_router(health.router, prefix="/v1")
    return app
