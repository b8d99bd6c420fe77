"""A person's writes that can run long (erasing a person, purging a memory: tens of seconds for a
person of 100,000 memories) answer at once (202, `accepted`) unless the caller asks to wait; the
command is then sent in a run of this process, followed at GET /v1/users/{id}/runs/{command_id}.

The run's record is written before the answer: a process that dies before the command reaches the
log leaves it `running` with no beat, and a successor (any server of the deployment) sends it again
(`resume`): a command takes effect once, however often it is sent."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from typing import Any, Literal

from fastapi import status
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from domain.commands import Command
from lore.schemas import PersonRunStatus, RunProgress, WriteAccepted
from projections.jobs import JobQueries, JobRecord
from projections.outcomes import OutcomeQueries
from services.api.writes import submit
from services.intake import Intake, Receipt
from services.runs import Progress, Runs
from services.wire import parse_command, to_message

log = logging.getLogger(__name__)

RunKind = Literal["erasure", "purge"]
KINDS: list[str] = ["erasure", "purge"]


def runs_path(user_id: str, run_id: str) -> str:
    return f"/v1/users/{user_id}/runs/{run_id}"


async def start_or_wait(runs: Runs, jobs: JobQueries, outcomes: OutcomeQueries, intake: Intake, cmd: Command,
                        kind: RunKind, shown_id: str, wait: bool) -> JSONResponse:
    """With `wait`, the command's answer once applied; without, 202 `accepted` at once, the
    command sent by a run of this process (`run`: where to follow it)."""
    if wait:
        return await submit(intake, cmd, wait)
    size = len(to_message(cmd))
    if size > intake.max_command_bytes:
        return await submit(intake, cmd, wait)  # refused by the same rule (422) as any write
    loop = asyncio.get_running_loop()
    work = _sender(loop, intake, outcomes, cmd)
    await run_in_threadpool(runs.start, jobs, cmd.user_id, cmd.command_id, kind, work,
                            {"command": to_message(cmd).decode()})
    body = WriteAccepted(command_id=cmd.command_id, status="accepted",
                         run=runs_path(shown_id, cmd.command_id))
    return JSONResponse(status_code=status.HTTP_202_ACCEPTED, content=body.model_dump(),
                        headers={"Location": body.run or ""})


def _sender(loop: asyncio.AbstractEventLoop, intake: Intake, outcomes: OutcomeQueries, cmd: Command) -> Any:
    def work(progress: Progress) -> dict[str, Any]:
        progress.total = 1
        receipt: Receipt = asyncio.run_coroutine_threadsafe(intake.submit(cmd, True), loop).result()
        while receipt.status == "accepted":  # Kafka: on lore.commands, a worker has not applied it yet
            time.sleep(1.0)
            found = outcomes.outcome_now(cmd.user_id, cmd.command_id)
            if found is not None:
                receipt = Receipt(cmd.command_id, "rejected" if found.outcome == "rejected" else "applied",
                                  code=found.code, reason=found.reason)
        progress.advance()
        return {"status": receipt.status, "code": receipt.code, "detail": receipt.reason}
    return work


def view(runs: Runs, found: JobRecord, shown_id: str) -> PersonRunStatus:
    report = found.report or {}
    interrupted = found.state == "interrupted"
    return PersonRunStatus(
        run_id=found.run_id, kind=found.kind, state=found.state,  # type: ignore[arg-type]
        command_id=found.run_id, progress=RunProgress(done=found.done, total=found.total),
        outcome=report.get("status"), code=report.get("code"), detail=report.get("detail"), error=found.error,
        note=("the process sending it stopped before the command was applied: a server of this deployment "
              "sends it again within a minute (it takes effect once); or send the same request again with "
              f"command_id={found.run_id}") if interrupted else None,
        started_at=found.started_at, updated_at=found.updated_at, finished_at=found.finished_at)


async def resume(runs: Runs, jobs: JobQueries, outcomes: OutcomeQueries, intake: Intake) -> int:
    """Send again the commands of runs cut short (no beat for `runs.stale_s`); how many."""
    before = runs.clock() - timedelta(seconds=runs.stale_s)
    stale = await run_in_threadpool(jobs.stale, KINDS, before)
    loop = asyncio.get_running_loop()
    for found in stale:
        cmd = parse_command(found.fields["command"].encode(), max_bytes=intake.max_command_bytes,
                            received_at=found.started_at)
        log.warning("run %s (%s of %s) was cut short: sending it again", found.run_id, found.kind,
                    cmd.user_id)
        await run_in_threadpool(runs.start, jobs, cmd.user_id, cmd.command_id, found.kind,
                                _sender(loop, intake, outcomes, cmd), found.fields)
    return len(stale)
