"""To-dos in the domain: reminded an hour before they are due unless said, completed once, reopened."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from domain.commands import CompleteTodo, RecordMemory, ReopenTodo
from domain.decide import decide
from domain.errors import MemoryNotFound, NotATodo, TodoAlreadyCompleted, TodoNotCompleted
from domain.events import MemoryRecorded, TodoCompleted
from domain.state import UserState, evolve

NOW = datetime(2026, 3, 15, 10, tzinfo=UTC)
DUE = datetime(2026, 3, 20, 9, tzinfo=UTC)


def do(state: UserState, command_type: type, n: int, **fields: object) -> list:
    events = decide(state, command_type(command_id=f"c{n}", user_id="u", occurred_at=NOW, **fields), NOW)
    evolve(state, events)
    return events


def test_a_todo_is_reminded_before_it_is_due_completed_once_and_reopened() -> None:
    state = UserState("u")
    (todo,) = do(state, RecordMemory, 1, content="Renew the passport", kind="todo", due_at=DUE)
    assert isinstance(todo, MemoryRecorded) and todo.remind_at == DUE - timedelta(hours=1)
    (said,) = do(state, RecordMemory, 2, content="Call mum", kind="todo", due_at=DUE, remind_at=NOW)
    assert said.remind_at == NOW
    (undated,) = do(state, RecordMemory, 3, content="Read the book", kind="todo")
    assert undated.due_at is None and undated.remind_at is None

    (done,) = do(state, CompleteTodo, 4, memory_id=todo.memory_id)
    assert isinstance(done, TodoCompleted) and done.completed_at == NOW
    with pytest.raises(TodoAlreadyCompleted):
        do(state, CompleteTodo, 5, memory_id=todo.memory_id)
    do(state, ReopenTodo, 6, memory_id=todo.memory_id)
    with pytest.raises(TodoNotCompleted):
        do(state, ReopenTodo, 7, memory_id=todo.memory_id)


def test_only_a_todo_is_completed_or_has_a_due_time() -> None:
    state = UserState("u")
    (fact,) = do(state, RecordMemory, 1, content="Lives in Lisbon", kind="fact")
    with pytest.raises(NotATodo, match="is a fact, not a to-do"):
        do(state, CompleteTodo, 2, memory_id=fact.memory_id)
    with pytest.raises(MemoryNotFound):
        do(state, CompleteTodo, 3, memory_id="nope")
    with pytest.raises(ValidationError, match="due_at is for to-dos"):
        RecordMemory(command_id="x", user_id="u", occurred_at=NOW, content="x", kind="fact", due_at=DUE)
