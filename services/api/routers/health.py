"""GET /v1/health: liveness, and readiness of Neo4j, the event log and the embedder.

`degraded` names each reason and the command that mends it. 503 when the API cannot serve its main
job (no graph answers, the log is away, a worker cannot apply, writes are refused for the store's
vectors, the embedder fails); 200 when it serves with less (a shard down, a move between models
half done)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response, status
from starlette.concurrency import run_in_threadpool

from infra.embedding import setting_for
from lore.schemas import ComponentHealth, Health, HealthReason
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


async def _graph(lore: Lore) -> tuple[ComponentHealth, str | None]:
    """The graph's state, and the code of what fails (None when ready)."""
    neo4j = await run_in_threadpool(_check, lore.projector.ping, "bolt handshake")
    if not neo4j.ready:
        return neo4j, "graph_unavailable"
    try:
        # The graph must be the projection of this log; if not, every write would be refused.
        await run_in_threadpool(lore.projector.checkpoints)
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready", reported as such
        code = getattr(exc, "code", None)
        return (ComponentHealth(ready=False, detail=f"{type(exc).__name__}: {exc}"),
                code if isinstance(code, str) else "graph_unavailable")
    return ComponentHealth(ready=True, detail="bolt handshake; the graph follows this event log"), None


_HEALTH_RESPONSES: dict[int | str, dict[str, Any]] = {503: {
    "model": Health, "description": "Degraded so that the API cannot serve its main job: `reasons` says "
    "why and what mends it."}}


@router.get("/health", response_model=Health, responses=_HEALTH_RESPONSES)
async def health(shards: ShardsDep, request: Request, response: Response) -> Health:
    """`ok`, or `degraded` with each reason and its fix: 503 when the API cannot serve its main job
    (200 while it serves with less: a shard down while others answer, a move between models half
    done)."""
    lore = shards.home
    checked = [await _graph(shard) for shard in shards]
    graphs = [graph for graph, _ in checked]
    reasons = [_graph_reason(g, code, i, len(graphs)) for i, (g, code) in enumerate(checked) if code]
    if len(graphs) == 1:
        neo4j = graphs[0]
    else:
        neo4j = ComponentHealth(ready=all(g.ready for g in graphs),
                                detail="; ".join(f"shard {i}: {g.detail}" for i, g in enumerate(graphs)))
    if reasons and len(reasons) < len(graphs) and all(r.code == "graph_unavailable" for r in reasons):
        for reason in reasons:  # a shard down takes its own people only, while any other answers
            reason.blocking = False
    event_log = await run_in_threadpool(_check, lore.event_log.ping, f"{lore.event_log.name} log")
    if not event_log.ready:
        reasons.append(HealthReason(component="event_log", code="event_log_unavailable",
                                    detail=event_log.detail, blocking=True,
                                    fix="start the log's server (`lore infra up` for the local Kafka)"))
    worker = _worker(getattr(request.app.state, "worker", None))
    if worker is not None and not worker.ready:
        reasons.append(HealthReason(component="worker", code="worker_retrying", detail=worker.detail,
                                    fix="see the reasons above and the server's log: it applies what "
                                    "waited once Neo4j and Kafka answer", blocking=True))
    embedder, why = await run_in_threadpool(_embedder, lore, any(g.ready for g in graphs))
    reasons += why
    if any(r.blocking for r in reasons):
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="degraded" if reasons else "ok", reasons=reasons, neo4j=neo4j, event_log=event_log,
                  worker=worker, extraction=_extraction(lore), layers=_layers(lore), embedder=embedder)


def _graph_reason(graph: ComponentHealth, code: str, shard: int, shards: int) -> HealthReason:
    which = "Neo4j" if shards == 1 else f"shard {shard} (its Neo4j)"
    if code == "graph_unavailable":
        return HealthReason(component="neo4j", code=code, detail=f"{which} does not answer: {graph.detail}",
                            fix="start that Neo4j (`lore infra up` for the local one); its address is in "
                            "LORE_NEO4J_URI / LORE_NEO4J_SHARDS", blocking=True)
    return HealthReason(component="neo4j", code=code, detail=f"{which}: {graph.detail}",
                        fix="lore rebuild" + (f" --shard {shard}" if shards > 1 else "") +
                        " (projects the log you have now into the graph)", blocking=True)


def _embedder(lore: Lore, graph_answers: bool) -> tuple[ComponentHealth | None, list[HealthReason]]:
    """The embedder's state: whether it gives vectors (tried again while it fails), and whether
    the store's vectors are of its model (read when the graph answers)."""
    embedder = lore.embedder
    reasons = []
    failing = getattr(embedder, "probe", lambda: None)()
    if embedder is not None and failing is not None:
        since, why = failing
        reasons.append(HealthReason(
            component="embedder", code="embedder_failed",
            detail=f"the embedder {embedder.model} has given no vectors for {time.monotonic() - since:.0f} s "
            f"({why}): writes are refused (503 embedder_unavailable), searches leave the vector source out",
            fix=f"mend the model or its endpoint (LORE_EMBEDDER={setting_for(embedder.model)}; "
            "LORE_EMBEDDING_BASE_URL for an endpoint); see the server's log", blocking=True))
    store = None
    if graph_answers:
        try:
            store = lore.search.vector_degradation()
        except Exception:  # noqa: BLE001 - the graph's own check says what fails
            store = None
    if store is not None:
        reasons.append(HealthReason(component="embedder", code=store.code, detail=store.detail, fix=store.fix,
                                    blocking=store.code == "embedder_changed"))
    if embedder is None:
        return (None if store is None else ComponentHealth(ready=False, detail=store.detail)), reasons
    ready = not reasons
    detail = reasons[0].detail if reasons else f"{embedder.model}; the store's vectors are its own"
    return ComponentHealth(ready=ready, detail=detail), reasons
