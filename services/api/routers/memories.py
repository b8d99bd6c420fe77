"""/v1/users/{user_id}/memories, episodes, timeline, stats, and erasure of a person."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import JSONResponse

from domain.access import split_person
from domain.model import MemoryKind, MemoryStatus, utc
from lore.schemas import (
    EpisodeCreate,
    FeedbackCreate,
    Instant,
    MemoryCreate,
    MemoryPage,
    PersonRunStatus,
    PersonSettings,
    Problem,
    Stats,
    UserSettingsUpdate,
    WriteAccepted,
)
from projections.views import MemoryView
from services.api import person_runs
from services.api.deps import CommandId, IntakeDep, LoreDep, MemoryId, QueriesDep, UserId, Wait
from services.api.person_runs import start_or_wait
from services.api.writes import WRITE_RESPONSES, command, submit
from services.runs import Runs

router = APIRouter(prefix="/users/{user_id}", tags=["memories"])
Offset = Annotated[int, Query(ge=0, le=1_000_000, description="Items to skip (the last page's next_offset).")]
Limit = Annotated[int, Query(ge=1, le=1000, description="Most items in a page.")]
_ACCEPTED = {"status_code": status.HTTP_202_ACCEPTED, "response_model": WriteAccepted,
             "responses": WRITE_RESPONSES}


@router.post("/memories", summary="Record a memory", **_ACCEPTED)
async def record_memory(user_id: UserId, body: MemoryCreate, intake: IntakeDep,
                        wait: Wait = False) -> JSONResponse:
    """A fact, preference, lesson... With an `attribute`, a new value supersedes the one in force;
    a value that arrives late (older `valid_from`) is slotted into the past."""
    fields = body.model_dump()
    fields["entities"] = tuple(body.entities)
    return await submit(intake, command("RecordMemory", user_id, fields), wait)


@router.post("/episodes", summary="Record a conversation", **_ACCEPTED)
async def record_episode(user_id: UserId, body: EpisodeCreate, intake: IntakeDep,
                         wait: Wait = False) -> JSONResponse:
    fields = body.model_dump(exclude={"messages"})
    fields["messages"] = tuple(m.as_message() for m in body.messages)
    first = body.messages[0].timestamp
    if body.occurred_at is None and first is not None:
        fields["occurred_at"] = first
    return await submit(intake, command("RecordEpisode", user_id, fields), wait)


@router.get("/memories", response_model=MemoryPage, summary="List memories")
def list_memories(
    user_id: UserId, queries: QueriesDep,
    kind: MemoryKind | None = None,
    status_: Annotated[MemoryStatus | None, Query(alias="status")] = None,
    attribute: Annotated[str | None, Query(max_length=200)] = None,
    category: Annotated[str | None, Query(max_length=40, description="The deployment's category "
                                          "(LORE_TAXONOMY).")] = None,
    valid_at: Annotated[Instant | None, Query(
        description="True at this time. Default: now, unless `status` is given (then: any time).")] = None,
    known_at: Annotated[Instant | None, Query(
        description="As Lore knew it at this time (default: now); forgotten ones reappear as they were. "
                    "With `status`, the memories that had that status then (`status=forgotten&known_at=…`: "
                    "what was forgotten by that time).")] = None,
    offset: Offset = 0,
    limit: Limit = 100,
) -> MemoryPage:
    if valid_at is None and status_ is None:
        valid_at = datetime.now().astimezone()
    items = queries.memories(user_id, valid_at=valid_at and utc(valid_at),
                             known_at=known_at and utc(known_at),
                             kind=kind.value if kind else None, attribute=attribute,
                             status=status_.value if status_ else None, category=category,
                             skip=offset, limit=limit + 1)
    return _page(items, offset, limit)


def _page(items: list[MemoryView], offset: int, limit: int) -> MemoryPage:
    """A page of a read that asked for one item more than `limit`, to know whether more follow."""
    more = len(items) > limit
    return MemoryPage(items=items[:limit], offset=offset, limit=limit,
                      next_offset=offset + limit if more else None)


def _no_such_memory(user_id: str, memory_id: str) -> HTTPException:
    return HTTPException(status.HTTP_404_NOT_FOUND, f"memory {memory_id!r} does not exist for {user_id!r}")


@router.get("/memories/{memory_id}", response_model=MemoryView, summary="One memory",
            responses={404: {"model": Problem, "description": "No such memory for this user."}})
def get_memory(user_id: UserId, memory_id: MemoryId, queries: QueriesDep) -> MemoryView:
    found = queries.memory(user_id, memory_id)
    if found is None:
        raise _no_such_memory(user_id, memory_id)
    return found


@router.get("/memories/{memory_id}/history", response_model=MemoryPage,
            summary="Its supersession chain, oldest first",
            responses={404: {"model": Problem, "description": "No such memory for this user."}})
def memory_history(user_id: UserId, memory_id: MemoryId, queries: QueriesDep,
                   offset: Offset = 0, limit: Limit = 100) -> MemoryPage:
    chain = queries.history(user_id, memory_id, skip=offset, limit=limit + 1)
    if not chain and queries.memory(user_id, memory_id) is None:
        raise _no_such_memory(user_id, memory_id)
    return _page(chain, offset, limit)


@router.get("/timeline", response_model=MemoryPage, summary="The values one slot held, oldest first")
def timeline(user_id: UserId, queries: QueriesDep,
             attribute: Annotated[str, Query(min_length=1, max_length=200,
                                             description="The slot, e.g. favorite_color.")],
             offset: Offset = 0, limit: Limit = 100) -> MemoryPage:
    return _page(queries.timeline(user_id, attribute, skip=offset, limit=limit + 1), offset, limit)


@router.delete("/memories/{memory_id}", summary="Forget a memory (soft: restorable), or purge it for good",
               **_ACCEPTED)
async def forget_memory(user_id: UserId, memory_id: MemoryId, intake: IntakeDep, lore: LoreDep,
                        request: Request, wait: Wait = False,
                        reason: Annotated[str | None, Query(max_length=500)] = None,
                        purge: Annotated[bool, Query(description=(
                            "Delete it for good: the memory, the memories merged with it and the words of "
                            "the turns it came from become unreadable in the log and leave the graph (after "
                            "`lore compact`, every file); the summaries of those sessions and the profile "
                            "are written anew. Not restorable."))] = False,
                        command_id: CommandId = None) -> JSONResponse:
    """Forget: hidden everywhere (with the turns it came from), restorable. Purge: gone; without
    `wait` it answers at once (202 `accepted`, `run`: where to follow it), as it re-projects the
    person and can take long for a large one."""
    if purge:
        cmd = command("PurgeMemory", user_id, {"memory_id": memory_id, "command_id": command_id})
        return await start_or_wait(request.app.state.runs, lore.job_records, lore.outcomes, intake, cmd,
                                   "purge", split_person(user_id)[1], wait)
    fields = {"memory_id": memory_id, "reason": reason, "command_id": command_id}
    return await submit(intake, command("ForgetMemory", user_id, fields), wait)


@router.post("/memories/{memory_id}/restore", summary="Restore a forgotten memory", **_ACCEPTED)
async def restore_memory(user_id: UserId, memory_id: MemoryId, intake: IntakeDep, wait: Wait = False,
                         command_id: CommandId = None) -> JSONResponse:
    fields = {"memory_id": memory_id, "command_id": command_id}
    return await submit(intake, command("RestoreMemory", user_id, fields), wait)


@router.post("/feedback", summary="Say a cited memory was helpful or wrong", **_ACCEPTED)
async def give_feedback(user_id: UserId, body: FeedbackCreate, intake: IntakeDep,
                        wait: Wait = False) -> JSONResponse:
    """Each /search hit and each memory a /context block cites has an id: a verdict on one is
    recorded as an event. "wrong" halves the memory's confidence (it weighs in the ranking);
    the memory stays, and its card on the page shows the verdicts."""
    return await submit(intake, command("GiveFeedback", user_id, body.model_dump()), wait)


@router.get("/stats", response_model=Stats, summary="Counts by kind and status")
def stats(user_id: UserId, lore: LoreDep) -> Stats:
    by_kind: dict[str, int] = defaultdict(int)
    by_status: dict[str, int] = defaultdict(int)
    both: dict[str, dict[str, int]] = defaultdict(dict)
    for kind, state, n in lore.outcomes.memory_counts(user_id):
        by_kind[kind] += n
        by_status[state] += n
        both[kind][state] = n
    return Stats(user_id=split_person(user_id)[1], total=sum(by_kind.values()), by_kind=by_kind,
                 by_status=by_status, by_kind_and_status=both, extractions=lore.extractions.usage(user_id))


users = APIRouter(prefix="/users", tags=["people"])


@users.delete("/{user_id}", summary="Erase everything about a person", **_ACCEPTED)
async def erase_user(user_id: UserId, intake: IntakeDep, lore: LoreDep, request: Request, wait: Wait = False,
                     command_id: CommandId = None) -> JSONResponse:
    """Everything about the person leaves the graph and their words become unreadable in the log
    (their key is destroyed). Without `wait` it answers at once (202 `accepted`, `run`: where to
    follow it): a person of 20,000 memories took 11 s to erase here."""
    cmd = command("EraseUser", user_id, {"command_id": command_id})
    return await start_or_wait(request.app.state.runs, lore.job_records, lore.outcomes, intake, cmd,
                               "erasure", split_person(user_id)[1], wait)


@users.get("/{user_id}/runs/{run_id}", response_model=PersonRunStatus, tags=["people"],
           summary="A write that runs in the background (erasure, purge): its state",
           responses={404: {"model": Problem, "description": "No such run for this person."}})
def person_run(user_id: UserId, run_id: MemoryId, lore: LoreDep, request: Request) -> PersonRunStatus:
    runs: Runs = request.app.state.runs
    found = runs.view(lore.job_records.get(user_id, run_id))
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no run {run_id!r} for {split_person(user_id)[1]!r}")
    return person_runs.view(runs, found, split_person(user_id)[1])


@users.get("/{user_id}/settings", response_model=PersonSettings, summary="A person's settings")
def person_settings(user_id: UserId, queries: QueriesDep) -> PersonSettings:
    return PersonSettings(**queries.settings(user_id))


@users.put("/{user_id}/settings", summary="Set a person's memory settings", **_ACCEPTED)
async def configure_user(user_id: UserId, body: UserSettingsUpdate, intake: IntakeDep,
                         wait: Wait = False) -> JSONResponse:
    """Memory on or off, automatic extraction, citations, a temporary (no-memory) session; how
    long the words of their conversations are kept, and the kinds of memory that never fade.
    While memory is off or a temporary session is on, writes that would remember something are
    refused (409 memory_paused) and search and context answer nothing, with a note."""
    fields = body.model_dump(exclude_none=True)
    return await submit(intake, command("ConfigureUser", user_id, fields), wait)
