"""How the worker treats failures, on a stand-in handler: a transient one is retried until it
passes, one command that fails is found by halving and dead-lettered alone, a graph that needs a
rebuild dead-letters the batch at once; a command on another partition than its person's is
forwarded, not applied here."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Sequence
from datetime import UTC, datetime

from aiokafka import ConsumerRecord
from neo4j.exceptions import ServiceUnavailable

from domain.commands import Command, RecordMemory
from infra.eventlog.kafka import key_partition
from infra.settings import Settings
from projections.graph.projector import ProjectionMismatch
from services.commands import Outcome
from services.wire import to_message
from services.worker import CommandWorker, DeadLetter

T = datetime(2026, 3, 1, tzinfo=UTC)
PARTITIONS = 4


class FlakyHandler:
    """Applies what it is given, unless `fails(commands)` names an error to raise instead."""

    def __init__(self, fails: object) -> None:
        self.fails = fails
        self.applied: list[str] = []
        self.calls = 0

    def handle(self, commands: Sequence[Command], partitions: Sequence[int | None]) -> list[Outcome]:
        self.calls += 1
        error = self.fails(commands)  # type: ignore[operator]
        if error is not None:
            raise error
        self.applied += [c.command_id for c in commands]
        return [Outcome(c.command_id, "applied", 1) for c in commands]


def records(count: int, user: str = "ada") -> list[ConsumerRecord]:
    return [ConsumerRecord("lore.commands", key_partition(user, PARTITIONS), n, int(T.timestamp() * 1000), 0,
                           user.encode(), to_message(RecordMemory(command_id=f"c{n}", user_id=user,
                                                                  occurred_at=T, content=f"fact {n}")),
                           None, 3, 100, [])
            for n in range(count)]


def run(handler: FlakyHandler, batch: list[ConsumerRecord]) -> tuple[CommandWorker, list[DeadLetter], list]:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    worker = CommandWorker(handler, Settings(), PARTITIONS, sleep=sleep)  # type: ignore[arg-type]
    sorted_ = worker.sort(batch)
    return worker, asyncio.run(worker.apply(sorted_.valid)), slept


def test_one_command_that_always_fails_is_dead_lettered_alone_and_the_rest_apply() -> None:
    handler = FlakyHandler(lambda cs: ValueError("cannot project c5") if any(c.command_id == "c5" for c in cs)
                           else None)
    _, letters, _ = run(handler, records(8))
    assert [(json_id(letter), letter.code) for letter in letters] == [("c5", "internal_error")]
    assert "ValueError: cannot project c5" in letters[0].reason
    assert sorted(handler.applied) == sorted(f"c{n}" for n in range(8) if n != 5)


def test_a_graph_that_needs_a_rebuild_dead_letters_the_batch_at_once() -> None:
    mismatch = ProjectionMismatch("the graph follows another event log; run `lore rebuild`")
    handler = FlakyHandler(lambda cs: mismatch)
    _, letters, _ = run(handler, records(6))
    assert [letter.code for letter in letters] == ["projection_mismatch"] * 6
    assert handler.calls == 1 and "lore rebuild" in letters[0].reason


def test_a_transient_failure_is_retried_with_backoff_until_it_passes() -> None:
    failures = iter([ServiceUnavailable("Neo4j is away")] * 3)
    handler = FlakyHandler(lambda cs: next(failures, None))
    worker, letters, slept = run(handler, records(4))
    assert letters == [] and len(handler.applied) == 4
    assert slept == [0.5, 1.0, 2.0] and worker.stalled is None


def test_a_command_on_another_partition_is_forwarded_not_applied() -> None:
    worker = CommandWorker(FlakyHandler(lambda cs: None), Settings(), PARTITIONS)  # type: ignore[arg-type]
    misplaced = records(1)
    home = misplaced[0].partition
    misplaced[0] = dataclasses.replace(misplaced[0], partition=(home + 1) % PARTITIONS)
    batch = worker.sort(misplaced)
    assert batch.valid == [] and [(r.offset, p) for r, p, _ in batch.misrouted] == [(0, home)]


def json_id(letter: DeadLetter) -> str:
    return str(json.loads(letter.record.value)["command_id"])
