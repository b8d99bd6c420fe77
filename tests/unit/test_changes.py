"""The change stream's reading of the log (services/changes.py): a change per event a front end
cares about, only the people asked for, and an id after which the stream goes on with exactly the
rest, whichever change it stopped at."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from domain.access import People
from domain.commands import (
    CompleteTodo,
    Correction,
    ForgetMemory,
    RecordMemory,
    RestoreMemory,
    ReviseMemories,
)
from domain.decide import decide
from domain.state import UserState, evolve
from domain.stored import Decided
from services.changes import CURSOR, BadCursor, Cursor, changes
from tests.support.memory_ports import MemoryLog

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _log() -> MemoryLog:
    log = MemoryLog()
    states: dict[str, UserState] = {}

    def do(user: str, command_type: type, partition: int = 0, **fields: object) -> list:
        n = len(log.entries)
        command = command_type(command_id=f"c{n}", user_id=user, occurred_at=NOW, **fields)
        state = states.setdefault(user, UserState(user))
        events = decide(state, command, NOW)
        evolve(state, events)
        log.append([Decided(command.command_id, user, events, partition)])
        return events

    (cat,) = do("acme/ada", RecordMemory, content="Ada's cat is called Mso")
    do("acme/bob", RecordMemory, content="Bob keeps bees", partition=1)
    do("globex/ada", RecordMemory, content="Globex's Ada likes jazz")
    fixed = Correction(memory_id=cat.memory_id, content="Ada's cat is Miso")
    do("acme/ada", ReviseMemories, correct=(fixed,))
    (todo,) = do("acme/ada", RecordMemory, content="Renew the passport", kind="todo")
    do("acme/ada", CompleteTodo, memory_id=todo.memory_id)
    do("acme/bob", ForgetMemory, memory_id=log.entries[1][2].events[0].memory_id, partition=1)
    do("acme/bob", RestoreMemory, memory_id=log.entries[1][2].events[0].memory_id, partition=1)
    return log


def _all(log: MemoryLog, people: People, cursor: Cursor, most: int = 500) -> list:
    reader = log.people_reader(people)
    out = []
    while True:
        read = reader.read(cursor.start(), most)
        got = list(changes(read.events, cursor, read.reached))
        out += got
        if not read.events:
            return out


def test_one_person_sees_their_own_changes_in_order_and_nothing_of_anyone_else() -> None:
    seen = _all(_log(), People("acme", "acme/ada"), Cursor())
    assert [(c.type, c.content) for c in seen] == [
        ("memory.recorded", "Ada's cat is called Mso"), ("memory.recorded", "Ada's cat is Miso"),
        ("memory.corrected", None), ("memory.recorded", "Renew the passport"), ("todo.completed", None)]
    assert {c.user_id for c in seen} == {"ada"}


def test_a_tenant_sees_its_people_across_partitions_and_not_another_tenants() -> None:
    seen = _all(_log(), People("acme"), Cursor())
    assert {c.user_id for c in seen} == {"ada", "bob"}
    assert [c.type for c in seen if c.user_id == "bob"] == ["memory.recorded", "memory.forgotten",
                                                            "memory.restored"]
    assert not any("jazz" in (c.content or "") for c in seen)


@pytest.mark.parametrize("people", [People("acme", "acme/ada"), People("acme")])
@pytest.mark.parametrize("most", [1, 2, 500])
def test_from_any_id_the_stream_goes_on_with_exactly_the_rest(people: People, most: int) -> None:
    log = _log()
    whole = _all(log, people, Cursor(), most)
    for n, change in enumerate(whole):
        rest = _all(log, people, Cursor.parse(change.id), most)
        assert [c.model_dump(exclude={"id"}) for c in rest] == [c.model_dump(exclude={"id"})
                                                               for c in whole[n + 1:]], (n, change.id)


def test_a_stream_from_now_sends_only_what_comes_after() -> None:
    log = _log()
    people = People("acme", "acme/ada")
    cursor = Cursor(done=log.people_reader(people).end())
    assert _all(log, people, cursor) == []
    log.append([Decided("late", "acme/ada", decide(UserState("acme/ada"), RecordMemory(
        command_id="late", user_id="acme/ada", occurred_at=NOW, content="Ada moved to Porto"), NOW), 0)])
    assert [c.content for c in _all(log, people, cursor)] == ["Ada moved to Porto"]


@pytest.mark.parametrize("bad", ["", "x", "0:1;2", "0:-2", "a:1", "0:-1:0"])
def test_an_id_the_stream_never_sent_is_refused(bad: str) -> None:
    with pytest.raises(BadCursor):
        Cursor.parse(bad)
    assert not re.match(CURSOR, bad)  # and its form is not an id's, as the OpenAPI document says


def test_a_partition_named_twice_goes_on_after_the_last() -> None:
    assert Cursor.parse("0:1,0:2:3") == Cursor(done={0: 1}, within={0: (2, 3)})
    assert Cursor.parse("0:2:3,0:1") == Cursor(done={0: 1})
