"""The FastAPI application: lifespan wiring and routers.

Embedded mode (no Kafka): writes go straight to the command handler. Kafka mode: writes are
published to `lore.commands`, and, unless told otherwise, this process also runs a worker.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from projections.graph.projector import ProjectionMismatch
from projections.outcomes import command_outcome
from services import __version__
from services.api.routers import health, memories, search
from services.bootstrap import Lore, bootstrap
from services.intake import DirectIntake, Intake, KafkaIntake
from services.worker import command_broker, prepare_topics

log = logging.getLogger(__name__)


def _prepare_schema(lore: Lore) -> None:
    try:
        # Fails at once when Neo4j is down, where a query would be retried for half a minute.
        lore.driver.verify_connectivity()
        lore.commands.ensure_schema()
    except Exception as exc:  # noqa: BLE001 - serve anyway; /v1/health says what is wrong
        log.warning("Neo4j schema not ready yet (%s); it is retried on the first write", exc)


async def _kafka_intake(lore: Lore, stack: AsyncExitStack, worker: bool) -> Intake:
    settings = lore.settings
    await asyncio.to_thread(prepare_topics, settings)
    broker = command_broker(settings, lore.commands if worker else None)
    await broker.start()
    stack.push_async_callback(broker.stop)

    async def publish(body: bytes, user_id: str) -> object:
        return await broker.publish(body, topic=settings.commands_topic, key=user_id.encode())

    return KafkaIntake(
        publish, lambda cid: command_outcome(lore.driver, cid, settings.neo4j_database),
        timeout_s=settings.wait_timeout_s,
    )


def create_app(make_lore: Callable[[], Lore] = bootstrap, *, worker: bool = True) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.lore = lore = make_lore()
        async with AsyncExitStack() as stack:
            stack.callback(lore.close)
            # In the background: Lore serves (and /v1/health answers) even while Neo4j is still down.
            schema = asyncio.create_task(asyncio.to_thread(_prepare_schema, lore))
            # Closing the driver under a running schema job would leave it writing after we are gone.
            stack.push_async_callback(lambda: schema)
            if lore.settings.uses_kafka_log:
                app.state.intake = await _kafka_intake(lore, stack, worker)
            else:
                app.state.intake = DirectIntake(lore.commands)
            yield

    app = FastAPI(
        title="Lore",
        version=__version__,
        summary="Temporal, event-sourced memory for AI assistants.",
        description="Record what a person tells an assistant; ask what is true now, or was then. "
        "Writes answer 202 with the command_id; `?wait=true` answers once the graph has it.",
        lifespan=lifespan,
    )
    @app.exception_handler(ProjectionMismatch)
    async def _graph_of_another_log(request: Request, exc: ProjectionMismatch) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": str(exc), "code": "projection_mismatch"})

    app.include_router(health.router, prefix="/v1")
    app.include_router(memories.router, prefix="/v1")
    app.include_router(memories.users, prefix="/v1")
    app.include_router(search.router, prefix="/v1")
    return app
