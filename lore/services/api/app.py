"""The FastAPI application: lifespan wiring and routers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from lore import __version__
from lore.services.api.routers import health
from lore.services.bootstrap import Lore, bootstrap


def create_app(make_lore: Callable[[], Lore] = bootstrap) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.lore = make_lore()
        try:
            yield
        finally:
            app.state.lore.close()

    app = FastAPI(
        title="Lore",
        version=__version__,
        summary="Temporal, event-sourced memory for AI assistants.",
        lifespan=lifespan,
    )
    app.include_router(health.router, prefix="/v1")
    return app
