"""/v1/users/{user_id}/todos: what the person asked to be reminded of, open, done or overdue."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, status
from fastapi.responses import JSONResponse

from lore.schemas import TodoCreate, TodoDone, TodoPage, WriteAccepted
from services.api.deps import IntakeDep, MemoryId, QueriesDep, UserId, Wait
from services.api.writes import WRITE_RESPONSES, command, submit

router = APIRouter(prefix="/users/{user_id}/todos", tags=["todos"])
_ACCEPTED = {"status_code": status.HTTP_202_ACCEPTED, "response_model": WriteAccepted,
             "responses": WRITE_RESPONSES}


@router.post("", summary="Add a to-do", **_ACCEPTED)
async def add(user_id: UserId, body: TodoCreate, intake: IntakeDep, wait: Wait = False) -> JSONResponse:
    """A memory of kind todo (what extraction makes of "remind me to..." too), reminded of at
    `remind_at`, an hour before `due_at` unless said."""
    fields = {**body.model_dump(), "kind": "todo", "entities": tuple(body.entities)}
    return await submit(intake, command("RecordMemory", user_id, fields), wait)


@router.get("", response_model=TodoPage, summary="List to-dos")
def list_todos(user_id: UserId, queries: QueriesDep,
               state: Annotated[Literal["open", "done", "overdue", "all"], Query(
                   description="open: not done; overdue: open and past due; done; all.")] = "open",
               limit: Annotated[int, Query(ge=1, le=1000)] = 100,
               offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> TodoPage:
    now = datetime.now(UTC)
    todos = queries.memories(user_id, valid_at=now, kind="todo", limit=10_000)
    chosen = [t for t in todos if t.status == "active" and (
        state == "all" or (state == "done") == (t.completed_at is not None))
        and (state != "overdue" or (t.due_at is not None and t.due_at < now))]
    chosen.sort(key=lambda t: (t.due_at is None, t.due_at or now, t.memory_id))
    page = chosen[offset:offset + limit]
    return TodoPage(items=page, next_offset=offset + limit if len(chosen) > offset + limit else None)


@router.post("/{todo_id}/complete", summary="Mark a to-do done", **_ACCEPTED)
async def complete(user_id: UserId, todo_id: MemoryId, intake: IntakeDep, body: TodoDone | None = None,
                   wait: Wait = False) -> JSONResponse:
    fields = {"memory_id": todo_id, **(body.model_dump() if body else {})}
    return await submit(intake, command("CompleteTodo", user_id, fields), wait)


@router.post("/{todo_id}/reopen", summary="Reopen a to-do done", **_ACCEPTED)
async def reopen(user_id: UserId, todo_id: MemoryId, intake: IntakeDep, wait: Wait = False) -> JSONResponse:
    return await submit(intake, command("ReopenTodo", user_id, {"memory_id": todo_id}), wait)
