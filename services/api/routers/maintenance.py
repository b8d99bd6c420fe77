"""/v1/maintenance: run the lifecycle rules now (or say what they would do), and the runs' reports."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from starlette.concurrency import run_in_threadpool

from domain.access import Scope
from lore.schemas import MaintenanceRequest, MaintenanceRunPage, MaintenanceRunView
from services.api.auth import PrincipalDep, needs
from services.api.deps import ShardsDep
from services.bootstrap import maintenance_service
from services.lifecycle.maintenance import MaintenanceBusy, MaintenanceReport, run_id_for

router = APIRouter(prefix="/maintenance", tags=["maintenance"])


def view(run: dict[str, Any]) -> MaintenanceRunView:
    started, finished = run.get("started_at"), run.get("finished_at")
    native = {k: v.to_native() if hasattr(v, "to_native") else v for k, v in run.items()}
    duration = (finished.to_native() - started.to_native()).total_seconds() if started and finished else None
    return MaintenanceRunView(**{k: v for k, v in native.items() if k in MaintenanceRunView.model_fields},
                              duration_s=duration)


_COUNTS = ("users", "evaluated", "forgotten", "demoted", "compressed", "contradictions", "expired")


def combined(views: list[MaintenanceRunView]) -> MaintenanceRunView:
    """One run as the shards each made it (LORE_NEO4J_SHARDS): their counts added up."""
    first = views[0]
    started = [v.started_at for v in views if v.started_at]
    finished = [v.finished_at for v in views if v.finished_at]
    counts = {name: sum(getattr(v, name) for v in views) for name in _COUNTS}
    durations = [v.duration_s for v in views if v.duration_s is not None]
    done = len(finished) == len(views)
    return first.model_copy(update={**counts, "started_at": min(started, default=None),
                                    "finished_at": max(finished) if done and finished else None,
                                    "duration_s": max(durations) if len(durations) == len(views) else None})


def _operator_only(principal: PrincipalDep) -> None:
    if not principal.operator:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "runs over everyone are the operator's: an admin "
                            "key of the default tenant (a tenant's admin may run one of its people)")


@router.get("/runs", response_model=MaintenanceRunPage, summary="Reports of the latest maintenance runs")
@needs(Scope.ADMIN)
def runs(shards: ShardsDep, principal: PrincipalDep,
         limit: Annotated[int, Query(ge=1, le=1000)] = 20,
         offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> MaintenanceRunPage:
    """Newest first: people processed, memories evaluated, forgotten, demoted, compressed,
    contradictions resolved, episodes expired, and how long the run took."""
    _operator_only(principal)
    by_run: dict[str, list[MaintenanceRunView]] = {}
    for lore in shards:
        for found in lore.maintenance_queries.runs(offset + limit + 1):
            item = view(found)
            by_run.setdefault(item.run_id, []).append(item)
    items = sorted((combined(views) for views in by_run.values()),
                   key=lambda v: v.started_at or v.as_of, reverse=True)
    return MaintenanceRunPage(items=items[offset:offset + limit],
                              next_offset=offset + limit if len(items) > offset + limit else None)


@router.post("/runs", response_model=MaintenanceRunView, summary="Run maintenance now",
             responses={status.HTTP_409_CONFLICT: {"description": "Another run is in progress."}})
@needs(Scope.ADMIN)
async def run(shards: ShardsDep, principal: PrincipalDep, body: MaintenanceRequest) -> MaintenanceRunView:
    """Apply the lifecycle rules at `as_of` (default now) to everyone, or one person; with
    `dry_run`, say what would change and change nothing. Answers when the run is done."""
    if body.user_id is None:
        _operator_only(principal)
    person = None if body.user_id is None else principal.person(body.user_id)
    # Every shard runs at the same moment under the same name: one run, reported as one.
    as_of = body.as_of or datetime.now(UTC)
    run_id = body.run_id or run_id_for(as_of, scheduled=False)
    reports: list[MaintenanceReport] = []
    try:
        for lore in [shards.of(person)] if person is not None else list(shards):
            service = maintenance_service(lore)
            reports.append(await run_in_threadpool(service.run, as_of, person, body.dry_run, run_id))
    except MaintenanceBusy as busy:
        raise HTTPException(status.HTTP_409_CONFLICT, str(busy)) from busy
    return combined([MaintenanceRunView(**report.as_dict()) for report in reports])
