"""/v1/maintenance: run the lifecycle rules now (or say what they would do), and the runs' reports."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response, status
from starlette.concurrency import run_in_threadpool

from domain.access import Principal, Scope
from domain.commands import IDENTIFIER_PATTERN
from lore.schemas import (
    MaintenanceRequest,
    MaintenanceRunPage,
    MaintenanceRunStatus,
    MaintenanceRunView,
    Problem,
    RunProgress,
)
from projections.jobs import JobRecord
from services.api.auth import PrincipalDep, needs
from services.api.deps import ShardsDep, Wait
from services.bootstrap import maintenance_service
from services.lifecycle.maintenance import MaintenanceBusy, run_id_for
from services.runs import Progress, Runs

router = APIRouter(prefix="/maintenance", tags=["maintenance"])
RunId = Annotated[str, Path(min_length=1, max_length=150, pattern=IDENTIFIER_PATTERN)]


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


_INTERRUPTED = ("the process running it stopped before it ended. What it applied stays applied (each "
                "person's changes are one command); POST /v1/maintenance/runs with this run_id goes on "
                "where it was, changing no one twice, once the lease lapses (at most 10 minutes)")


@router.post("/runs", response_model=MaintenanceRunStatus, status_code=status.HTTP_202_ACCEPTED,
             summary="Start a maintenance run (answers at once)",
             responses={200: {"model": MaintenanceRunStatus, "description": "With wait=true: the run ended."},
                        status.HTTP_409_CONFLICT: {"model": Problem, "description": "Another run holds "
                                                   "the lease (a dry run needs none)."},
                        status.HTTP_404_NOT_FOUND: {"model": Problem, "description": "No such person."}})
@needs(Scope.ADMIN)
async def run(shards: ShardsDep, principal: PrincipalDep, body: MaintenanceRequest, request: Request,
              response: Response, wait: Wait = False) -> MaintenanceRunStatus:
    """Apply the lifecycle rules at `as_of` (default now) to everyone, or one person; with
    `dry_run`, say what would change and change nothing. Answers 202 at once with the run's id
    (`Location`: where to follow it); GET /v1/maintenance/runs/{run_id} gives its progress, then
    its report. With `wait=true`, answers 200 once it ended."""
    if body.user_id is None:
        _operator_only(principal)
    person = None if body.user_id is None else principal.person(body.user_id)
    # Every shard runs at the same moment under the same name: one run, reported as one.
    as_of = body.as_of or datetime.now(UTC)
    run_id = body.run_id or run_id_for(as_of, scheduled=False)
    lores = [shards.of(person)] if person is not None else list(shards)
    services = [maintenance_service(lore) for lore in lores]
    taken = []
    try:  # the lease is taken before the answer, so that a run that cannot start is refused now (409)
        for service in [] if body.dry_run else services:
            await run_in_threadpool(service.reserve)
            taken.append(service)
    except MaintenanceBusy as busy:
        for service in taken:
            await run_in_threadpool(service.release)
        raise HTTPException(status.HTTP_409_CONFLICT, str(busy)) from busy

    def work(progress: Progress) -> dict[str, Any]:
        progress.total = sum(lore.maintenance_queries.people_count(person) for lore in lores)
        reports = [service.run(as_of, person, body.dry_run, run_id, on_progress=progress.advance)
                   for service in services]
        views = [MaintenanceRunView(**report.as_dict()) for report in reports]
        return combined(views).model_dump(mode="json")

    runs: Runs = request.app.state.runs
    home = shards.home
    asked = {"as_of": as_of.isoformat(), "user_id": person, "dry_run": body.dry_run,
             "tenant": principal.tenant}
    await run_in_threadpool(runs.start, home.job_records, _SCOPE, run_id, "maintenance", work, asked)
    response.headers["Location"] = f"/v1/maintenance/runs/{run_id}"
    if wait:
        await run_in_threadpool(runs.wait, _SCOPE, run_id)
        response.status_code = status.HTTP_200_OK
    found = await run_in_threadpool(home.job_records.get, _SCOPE, run_id)
    return _status(runs.view(found), body.dry_run)  # type: ignore[arg-type]


@router.get("/runs/{run_id}", response_model=MaintenanceRunStatus, summary="One maintenance run: progress, "
            "then its report", responses={status.HTTP_404_NOT_FOUND: {"model": Problem,
                                                                     "description": "No such run."}})
@needs(Scope.ADMIN)
def one_run(run_id: RunId, shards: ShardsDep, principal: PrincipalDep,
            request: Request) -> MaintenanceRunStatus:
    """A run started over HTTP, as it stands (its progress while it runs, its report once done,
    what to do if it was cut short); or one that ran elsewhere (the scheduler, `lore maintain`),
    from its report in the graph."""
    runs: Runs = request.app.state.runs
    found = runs.view(shards.home.job_records.get(_SCOPE, run_id))
    if found is not None and _visible(found.fields, principal):
        return _status(found, bool(found.fields.get("dry_run")))
    views = [view(r) for lore in shards for r in lore.maintenance_queries.runs(1, run_id)]
    if not views or not principal.operator:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no maintenance run {run_id!r}")
    report = combined(views)
    done = report.finished_at is not None
    return MaintenanceRunStatus(run_id=run_id, state="done" if done else "running", dry_run=False,
                                progress=RunProgress(done=report.users), report=report if done else None,
                                started_at=report.started_at, finished_at=report.finished_at)


_SCOPE = "maintenance"


def _visible(asked: dict[str, Any], principal: Principal) -> bool:
    """The operator sees every run; a tenant's admin the runs of one of its people it may see."""
    if principal.operator:
        return True
    person = asked.get("user_id")
    return isinstance(person, str) and asked.get("tenant") == principal.tenant


def _status(found: JobRecord, dry_run: bool) -> MaintenanceRunStatus:
    return MaintenanceRunStatus(
        run_id=found.run_id, state=found.state, dry_run=dry_run,  # type: ignore[arg-type]
        progress=RunProgress(done=found.done, total=found.total),
        report=MaintenanceRunView(**found.report) if found.report else None, error=found.error,
        note=_INTERRUPTED if found.state == "interrupted" else None, started_at=found.started_at,
        updated_at=found.updated_at, finished_at=found.finished_at)
