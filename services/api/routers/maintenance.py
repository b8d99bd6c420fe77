"""/v1/maintenance: run the lifecycle rules now (or say what they would do), and the runs' reports."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from starlette.concurrency import run_in_threadpool

from domain.access import Scope
from services.api.auth import PrincipalDep, needs
from services.api.deps import LoreDep
from services.api.schemas import MaintenanceRequest, MaintenanceRunPage, MaintenanceRunView
from services.bootstrap import maintenance_service
from services.lifecycle.maintenance import MaintenanceBusy

router = APIRouter(prefix="/maintenance", tags=["maintenance"])


def view(run: dict[str, Any]) -> MaintenanceRunView:
    started, finished = run.get("started_at"), run.get("finished_at")
    native = {k: v.to_native() if hasattr(v, "to_native") else v for k, v in run.items()}
    duration = (finished.to_native() - started.to_native()).total_seconds() if started and finished else None
    return MaintenanceRunView(**{k: v for k, v in native.items() if k in MaintenanceRunView.model_fields},
                              duration_s=duration)


def _operator_only(principal: PrincipalDep) -> None:
    if not principal.operator:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "runs over everyone are the operator's: an admin "
                            "key of the default tenant (a tenant's admin may run one of its people)")


@router.get("/runs", response_model=MaintenanceRunPage, summary="Reports of the latest maintenance runs")
@needs(Scope.ADMIN)
def runs(lore: LoreDep, principal: PrincipalDep,
         limit: Annotated[int, Query(ge=1, le=1000)] = 20) -> MaintenanceRunPage:
    """Newest first: people processed, memories evaluated, forgotten, demoted, compressed,
    contradictions resolved, episodes expired, and how long the run took."""
    _operator_only(principal)
    return MaintenanceRunPage(items=[view(r) for r in lore.maintenance_queries.runs(limit)])


@router.post("/runs", response_model=MaintenanceRunView, summary="Run maintenance now",
             responses={status.HTTP_409_CONFLICT: {"description": "Another run is in progress."}})
@needs(Scope.ADMIN)
async def run(lore: LoreDep, principal: PrincipalDep, body: MaintenanceRequest) -> MaintenanceRunView:
    """Apply the lifecycle rules at `as_of` (default now) to everyone, or one person; with
    `dry_run`, say what would change and change nothing. Answers when the run is done."""
    if body.user_id is None:
        _operator_only(principal)
    person = None if body.user_id is None else principal.person(body.user_id)
    service = maintenance_service(lore)
    try:
        report = await run_in_threadpool(service.run, body.as_of, person, body.dry_run, body.run_id)
    except MaintenanceBusy as busy:
        raise HTTPException(status.HTTP_409_CONFLICT, str(busy)) from busy
    return MaintenanceRunView(**report.as_dict())
