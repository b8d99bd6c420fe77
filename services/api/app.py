"""The FastAPI application: lifespan wiring and routers.

Embedded mode (no Kafka): writes go straight to the command handler. Kafka mode: writes are
published to `lore.commands`, and, unless told otherwise, this process also runs a worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain.access import NotThisPerson
from infra.apikeys import open_api_key_store
from infra.embedding.watched import EmbedderUnavailable
from infra.page_secret import PageSecret
from infra.settings import LOOPBACK, Settings
from projections.graph.projector import GraphNeedsRebuild
from services import __version__
from services.api import contract, person_runs, ui, ui_actions, unavailable
from services.api.auth import Gate, authorize
from services.api.routers import (
    browser,
    changes,
    export,
    extraction,
    health,
    keys,
    layers,
    maintenance,
    memories,
    metrics,
    page_links,
    revisions,
    search,
    todos,
    topics,
)
from services.bootstrap import Lore, lifecycle_scheduler
from services.failures import GRAPH_ERRORS
from services.intake import DirectIntake, Intake, KafkaIntake
from services.runs import Runs
from services.shards import GraphShards, open_shards
from services.telemetry import REQUEST_SECONDS
from services.wire import seal_message
from services.worker import command_broker, prepare_topics

log = logging.getLogger(__name__)
V1 = "/v1"


def _prepare_schema(lore: Lore) -> None:
    try:
        # Fails at once when Neo4j is down, where a query would be retried (LORE_NEO4J_RETRY_S).
        lore.projector.ping()
        lore.commands.ensure_schema()
    except Exception as exc:  # noqa: BLE001 - serve anyway; /v1/health says what is wrong
        log.warning("Neo4j schema not ready yet (%s); it is retried on the first write", exc)


async def _kafka_intake(app: FastAPI, shards: GraphShards, stack: AsyncExitStack, worker: bool) -> Intake:
    lore = shards.home
    settings = lore.settings
    shards.partitions = partitions = await asyncio.to_thread(prepare_topics, settings)
    broker, app.state.worker = command_broker(settings, lore.commands if worker else None,
                                              partitions=partitions, sealer=lore.sealer)
    await broker.start()
    stack.push_async_callback(broker.stop)

    sealer = lore.sealer

    async def publish(body: bytes, user_id: str) -> object:
        if sealer is not None:  # the person's key may have to be made and written first: off the loop
            body = await asyncio.to_thread(seal_message, user_id, body, sealer)
        return await broker.publish(body, topic=settings.commands_topic, key=user_id.encode())

    return KafkaIntake(publish, shards.outcome, settings.max_command_bytes,
                       timeout_s=settings.wait_timeout_s)


async def _cancelled(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _resume_cut_short(runs: Runs, shards: GraphShards, intake: Intake, every_s: float = 60.0) -> None:
    """Send again, now and then, the erasures and purges whose run a stopped process left unfinished."""
    await asyncio.sleep(runs.stale_s)
    while True:
        for shard in shards:
            try:
                await person_runs.resume(runs, shard.job_records, shard.outcomes, intake)
            except Exception as error:  # noqa: BLE001 - the graph may be away: tried again later
                log.warning("runs cut short could not be looked for now (%s)", error)
        await asyncio.sleep(every_s)


def _gate(settings: Settings, host: str | None) -> Gate:
    if not settings.auth_on(host):
        where = host or settings.api_host
        if where not in LOOPBACK:
            raise RuntimeError(f"LORE_AUTH=none on {where}: anyone who can reach it could read or erase "
                               "anyone. Bind to 127.0.0.1, or use keys (LORE_AUTH=keys, `lore keys create`).")
        log.warning("NO AUTHENTICATION (LORE_AUTH=%s on %s): every request acts as the operator. Fine on "
                    "your own machine; anywhere else set LORE_AUTH=keys.", settings.auth, where)
        return Gate(None, settings.rate_limit, _page_secret(settings))
    keys = open_api_key_store(settings)
    log.info("API keys required (%s key store, %d keys)", keys.name, len(keys.all()))
    return Gate(keys, settings.rate_limit, _page_secret(settings))


def _page_secret(settings: Settings) -> PageSecret:
    return PageSecret(settings.page_secret_path, settings.page_secret)


def _allowed(app: FastAPI, request: Request) -> list[str]:
    """The methods of every route whose path matches the request's."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, Route) and route.methods and route.matches(request.scope)[0] is not Match.NONE:
            methods |= route.methods
    return sorted(methods)


def _otlp_configured() -> bool:
    configured = any(os.getenv(name) for name in ("OTEL_EXPORTER_OTLP_ENDPOINT",
                                                  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
    if configured:
        os.environ.setdefault("OTEL_SERVICE_NAME", "lore")
    return configured


def create_app(make_lore: Callable[[], Lore] | None = None, *, worker: bool = True,
               lifecycle: bool = False, host: str | None = None) -> FastAPI:
    """`make_lore`: wires Lore (of shard 0, with LORE_NEO4J_SHARDS; default: from the settings).
    `lifecycle`: also run maintenance on its cron and send reminders (what `lore serve` does).
    `host`: the address the API is bound to (LORE_API_HOST when None), which decides whether
    LORE_AUTH=auto asks for keys. With several shards this process runs no worker: each shard
    has its own (`lore worker --shard I`)."""
    app = FastAPI(
        # OpenTelemetry: FastAPI's own request and operation spans (and metrics, logs), exported
        # over OTLP when the standard OTEL_EXPORTER_OTLP_ENDPOINT is set.
        telemetry={"auto_configure": _otlp_configured()},
        title="Lore",
        version=__version__,
        summary="Temporal, event-sourced memory for AI assistants.",
        description="Record what a person tells an assistant; ask what is true now, or was then. "
        "Writes answer 202 with the command_id; `?wait=true` answers once the graph has it.",
        lifespan=_lifespan(make_lore, worker=worker, lifecycle=lifecycle, host=host),
    )
    app.openapi = _openapi(app)  # type: ignore[method-assign]
    app.add_middleware(TimedRequests)
    _answer_errors(app)
    _route(app)
    origins = Settings().cors_origins
    if origins:
        app.add_middleware(CorsBesideTheBrowserGuide, allow_origins=origins, allow_methods=["*"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type"])
    return app


def _lifespan(make_lore: Callable[[], Lore] | None, *, worker: bool, lifecycle: bool,
              host: str | None) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """What a served app opens when it starts and closes when it stops: the shards, the key gate,
    the schema, the intake (and on Kafka its worker), extraction, the lifecycle's schedule, runs."""
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Wiring opens the event log (on Kafka: topics, a producer): not on the event loop.
        app.state.shards = shards = await asyncio.to_thread(open_shards, make_lore)
        app.state.lore = lore = shards.home
        app.state.worker = None
        sharded = len(shards) > 1
        runs_worker = worker and not sharded
        if worker and sharded and lore.settings.uses_kafka_log:
            log.info("%d Neo4j shards: this process runs no worker; start `lore worker --shard I` for "
                     "each shard", len(shards))
        async with AsyncExitStack() as stack:
            stack.callback(shards.close)
            app.state.gate = await asyncio.to_thread(_gate, lore.settings, host)
            if app.state.gate.keys is not None:
                stack.callback(app.state.gate.keys.close)
            # In the background: Lore serves (and /v1/health answers) even while Neo4j is still down.
            for shard in shards:
                schema = asyncio.create_task(asyncio.to_thread(_prepare_schema, shard))
                # Closing the driver under a running schema job would leave it writing after we are gone.
                stack.push_async_callback(lambda job=schema: job)  # type: ignore[misc]
            if lore.settings.uses_kafka_log:
                app.state.intake = await _kafka_intake(app, shards, stack, runs_worker)
            else:
                app.state.intake = DirectIntake(lore.commands, lore.settings.max_command_bytes)
            if runs_worker or not lore.settings.uses_kafka_log:
                # Beside this process's writer: on Kafka, for the partitions its worker is given.
                lore.start_extraction(kafka_worker=lore.settings.uses_kafka_log)
            if lifecycle:
                for shard in shards:
                    scheduler = await asyncio.to_thread(lifecycle_scheduler, shard)
                    scheduler.start()
                    stack.callback(scheduler.stop)
            app.state.runs = runs = Runs()
            stack.callback(runs.close)
            resumer = asyncio.create_task(_resume_cut_short(runs, shards, app.state.intake))
            stack.push_async_callback(_cancelled, resumer)
            yield

    return lifespan


def _openapi(app: FastAPI) -> Callable[[], dict[str, Any]]:
    def openapi() -> dict[str, Any]:
        # Whether keys are asked for is known once the app started (LORE_AUTH and the address);
        # before, the document says they are (the default anywhere but loopback).
        gate = getattr(app.state, "gate", None)
        if gate is None:
            return contract.truthful_openapi(app, keys_on=True)
        if app.openapi_schema is None:
            app.openapi_schema = contract.truthful_openapi(app, keys_on=gate.keys is not None)
        return app.openapi_schema

    return openapi


class TimedRequests:
    """Each request's seconds by route, method and status (REQUEST_SECONDS). Plain ASGI: Starlette's
    function middleware runs the rest of each request in a task of its own and passes the answer
    through memory streams, a cost every request paid (bench/README, "A request's own cost")."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers when the app raised before it answered

        async def answered(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, answered)
        finally:
            REQUEST_SECONDS.labels(_route_of(scope), scope["method"], str(status)).observe(
                time.perf_counter() - started)


def _route_of(scope: Scope) -> str:
    """The route a request matched, as declared (those under /v1 were included with it)."""
    route = getattr(scope.get("route"), "path", None)
    if route is None:
        return "unmatched"
    if scope["path"].startswith(f"{V1}/") and not route.startswith(V1):
        return V1 + route
    return route


def _answer_errors(app: FastAPI) -> None:
    """The answers of errors raised under a route: each names its problem, with its own status."""
    @app.exception_handler(StarletteHTTPException)
    async def _with_allow(request: Request, exc: StarletteHTTPException) -> Response:
        # A method a path does not take: `Allow` lists every method of the path (RFC 9110), where
        # Starlette names only those of the first route that matched it.
        if exc.status_code == 405:
            exc.headers = {**(exc.headers or {}), "Allow": ", ".join(_allowed(app, request))}
        return await http_exception_handler(request, exc)

    @app.exception_handler(NotThisPerson)
    async def _not_this_person(request: Request, exc: NotThisPerson) -> Response:
        if request.url.path.startswith("/ui/"):
            return ui.not_this_person(request, exc)
        return JSONResponse(status_code=403, content={"detail": str(exc), "code": "not_this_person"})

    @app.exception_handler(GraphNeedsRebuild)
    async def _graph_needs_rebuild(request: Request, exc: GraphNeedsRebuild) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": str(exc), "code": exc.code})

    @app.exception_handler(EmbedderUnavailable)
    async def _embedder_unavailable(request: Request, exc: EmbedderUnavailable) -> JSONResponse:
        # A write needs its vectors: nothing is wrong with the request, send it again later.
        return JSONResponse(status_code=503, content={"detail": f"{exc}: try again shortly; /v1/health says "
                                                      "what fails", "code": exc.code},
                            headers={"Retry-After": str(unavailable.RETRY_AFTER_S)})

    # A graph that does not answer: 503 naming the shard within seconds (services/bootstrap.py's
    # driver settings), rather than a 500 after the driver's half minute.
    for error in GRAPH_ERRORS:
        app.add_exception_handler(error, unavailable.graph_unavailable)
    app.add_exception_handler(ui.Login, ui.login_redirect)


def _route(app: FastAPI) -> None:
    app.include_router(health.router, prefix=V1)
    keyed = [Depends(authorize)]  # every route below needs a key, when keys are on
    # Each of these reads or writes one person's graph.
    for router in (memories.router, memories.users, search.router, extraction.router, layers.router,
                   export.router, todos.router, topics.router, revisions.router, changes.router,
                   page_links.router):
        app.include_router(router, prefix=V1, dependencies=keyed, responses=unavailable.RESPONSES)
    for router in (maintenance.router, keys.router):
        app.include_router(router, prefix=V1, dependencies=keyed)
    app.include_router(metrics.router)
    app.include_router(browser.router)
    app.include_router(ui.router)
    app.include_router(ui_actions.router)
    app.mount("/ui/static", ui.static, name="ui-static")


class CorsBesideTheBrowserGuide(CORSMiddleware):
    """LORE_CORS_ORIGINS for the API; the Neo4j Browser guide and style stay open to any origin
    (they hold no one's data, and Browser's page is on Neo4j's origin), so their own answers,
    preflights included, are not refused by the list."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in browser.OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
