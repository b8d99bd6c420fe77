"""The person's own edits: correct a memory's words; give back an edited Markdown file."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from lore.schemas import ImportChange, ImportOut, MemoryCorrection, WriteAccepted
from services.api.deps import IntakeDep, MemoryId, QueriesDep, UserId, Wait
from services.api.writes import WRITE_RESPONSES, command, submit
from services.markdown import MarkdownError, Plan, correction
from services.memory_file import revision

router = APIRouter(prefix="/users/{user_id}", tags=["memories"])
MAX_FILE_BYTES = 20 * 1024 * 1024


@router.post("/memories/{memory_id}/correct", summary="Correct a memory's words", status_code=202,
             response_model=WriteAccepted, responses={
                 202: {"description": "Recorded (or, in Kafka mode without wait, accepted): `memory_id` is "
                       "the memory that holds the corrected words."}, **WRITE_RESPONSES})
async def correct_memory(user_id: UserId, memory_id: MemoryId, body: MemoryCorrection, queries: QueriesDep,
                         intake: IntakeDep, wait: Wait = False) -> JSONResponse:
    """The corrected words are a new memory over the old one's window (its slot, kind, dates and
    to-do times carried over); the old wording is superseded as never true, kept in its history
    (GET .../history) and in what Lore knew before (`known_at`)."""
    found = await run_in_threadpool(queries.memory, user_id, memory_id)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"memory {memory_id!r} does not exist for {user_id!r}")
    about = await run_in_threadpool(queries.entities, user_id, [memory_id])
    fixed = correction(found, body.content, body.value if body.value is not None else found.value,
                       about.get(memory_id, []))
    return await submit(intake, command("ReviseMemories", user_id, {
        "correct": (fixed,), "source": "a correction", "command_id": body.command_id}), wait)


@router.post("/import", summary="Give back an edited Markdown file", response_model=ImportOut,
             openapi_extra={"requestBody": {"required": True, "content": {
                 "text/markdown": {"schema": {"type": "string", "pattern": r"^\s*# ", "description": (
                     "The file as export?format=markdown gives it, edited: it begins with its title "
                     "('# ...'). Each line after is read as the export writes them; one that cannot be "
                     "read is a 422 naming it.")}}}}},
             responses={200: {"description": "A dry run: what the file would change."},
                        202: {"model": ImportOut, "description": "Applied as one revision (accepted, in "
                              "Kafka mode without wait)."},
                        413: {"description": "The file is too large."},
                        415: {"description": "Not sent as text/markdown."}, **WRITE_RESPONSES})
async def import_markdown(user_id: UserId, request: Request, queries: QueriesDep, intake: IntakeDep,
                          format: Annotated[Literal["markdown"], Query(
                              description="The file's format: markdown (what export?format=markdown "
                              "gives).")] = "markdown",
                          dry_run: Annotated[bool, Query(description="Only say what would change (the "
                                                         "default).")] = True,
                          command_id: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
                          wait: Wait = True) -> JSONResponse:
    """The file of GET .../export?format=markdown, edited: a new line under a heading becomes a
    memory of that kind, a changed line a correction, a removed line forgets its memory (one recorded
    after the export stays), a to-do's box ticked or cleared completes or reopens it. A dry run (the
    default) says what would change; then all of it is applied as one decision, or none of it. A line
    that cannot be read is a 422 naming it (`line`)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in ("text/markdown", "text/plain", "text/x-markdown"):
        raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, "send the file as text/markdown")
    raw = await request.body()
    if len(raw) > MAX_FILE_BYTES:
        raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE, f"the file holds {len(raw):,} bytes, at "
                            f"most {MAX_FILE_BYTES:,} are taken")
    try:
        text = raw.decode("utf-8")
        _, plan = await run_in_threadpool(revision, queries, user_id, text)
    except UnicodeDecodeError as bad:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, f"the file is not UTF-8 ({bad})") from bad
    except MarkdownError as bad:
        return JSONResponse({"detail": str(bad), "code": "markdown_invalid", "line": bad.line},
                            status_code=status.HTTP_422_UNPROCESSABLE_CONTENT)
    answer = _out(plan, dry_run)
    if dry_run or plan.empty:
        return JSONResponse(answer.model_dump(mode="json"))
    decision = command("ReviseMemories", user_id, {
        "record": tuple(plan.record), "correct": tuple(plan.correct), "forget": tuple(plan.forget),
        "complete": tuple(plan.complete), "reopen": tuple(plan.reopen), "source": "an edited Markdown file",
        "command_id": command_id})
    receipt = await submit(intake, decision, wait)
    if receipt.status_code != status.HTTP_202_ACCEPTED:
        return receipt
    done = answer.model_copy(update={"command_id": decision.command_id,
                                     "status": json.loads(bytes(receipt.body))["status"]})
    return JSONResponse(done.model_dump(mode="json"), status_code=status.HTTP_202_ACCEPTED)


def _out(plan: Plan, dry_run: bool) -> ImportOut:
    return ImportOut(
        dry_run=dry_run,
        changes=[ImportChange(action=c.action, line=c.line, content=c.content, kind=c.kind,
                              memory_id=c.memory_id, was=c.was) for c in plan.changes],
        recorded=len(plan.record), corrected=len(plan.correct), forgotten=len(plan.forget),
        completed=len(plan.complete), reopened=len(plan.reopen), unchanged=plan.kept)
