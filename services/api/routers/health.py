"""GET /v1/health: liveness, and readiness of Neo4j and the event log."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request, Response, status
from starlette.concurrency import run_in_threadpool

from lore.schemas import ComponentHealth, Health
from services.api.deps import HomeLoreDep, ShardsDep
from services.bootstrap import Lore
from services.worker import CommandWorker

router = APIRouter(tags=["health"])


def _check(probe: object, what: str) -> ComponentHealth:
    try:
        probe()  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready", reported as such
        return ComponentHealth(ready=False, detail=f"{type(exc).__name__}: {exc}")
    return ComponentHealth(ready=True, detail=what)


def _worker(worker: CommandWorker | None) -> ComponentHealth | None:
    if worker is None:
        return None
    if worker.stalled is None:
        return ComponentHealth(ready=True, detail="applying commands")
    since, error = worker.stalled
    return ComponentHealth(ready=False, detail=f"retrying for {time.monotonic() - since:.0f}s: {error}")


def _extraction(lore: HomeLoreDep) -> ComponentHealth | None:
    process = lore.extraction
    if process is None or not process.running:
        return None
    if process.failing:
        return ComponentHealth(ready=False, detail=f"retrying: {process.failing}")
    waiting = f"; {len(process.waiting_for_budget)} people wait for their token budget" \
        if process.waiting_for_budget else ""
    if process.all_waiting:
        waiting = "; every extraction waits: the day's token budget (LORE_LLM_TOKENS_PER_DAY) is spent"
    return ComponentHealth(ready=True, detail=f"extracting with {process.extractor.name}{waiting}")


def _layers(lore: HomeLoreDep) -> ComponentHealth | None:
    process = lore.layers
    if process is None or not process.running:
        return None
    writing = f"summaries by {process.summarizer.name}, profiles by {process.writer.name}"
    if process.retry:
        return ComponentHealth(ready=False, detail=f"{writing}; {len(process.retry)} summaries or profiles "
                               f"wait to be tried again: {process.failing}")
    return ComponentHealth(ready=True, detail=writing)


async def _graph(lore: Lore) -> ComponentHealth:
    neo4j = await run_in_threadpool(_check, lore.projector.ping, "bolt handshake")
    if neo4j.ready:
        # The graph must be the projection of this log; if not, every write would be refused.
        neo4j = await run_in_threadpool(_check, lore.projector.checkpoints,
                                        "bolt handshake; the graph follows this event log")
    return neo4j


@router.get("/health", response_model=Health)
async def health(shards: ShardsDep, request: Request, response: Response) -> Health:
    lore = shards.home
    graphs = [await _graph(shard) for shard in shards]
    if len(graphs) == 1:
        neo4j = graphs[0]
    else:
        neo4j = ComponentHealth(ready=all(g.ready for g in graphs),
                                detail="; ".join(f"shard {i}: {g.detail}" for i, g in enumerate(graphs)))
    event_log = await run_in_threadpool(_check, lore.event_log.ping, f"{lore.event_log.name} log")
    worker = _worker(getattr(request.app.state, "worker", None))
    # Ready while any shard answers: a shard that is down takes its own people only.
    ok = any(g.ready for g in graphs) and event_log.ready and (worker is None or worker.ready)
    if ok and not neo4j.ready:
        return Health(status="degraded", neo4j=neo4j, event_log=event_log, worker=worker,
                      extraction=_extraction(lore), layers=_layers(lore))
    if not ok:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="ok" if ok else "degraded", neo4j=neo4j, event_log=event_log, worker=worker,
                  extraction=_extraction(lore), layers=_layers(lore))
