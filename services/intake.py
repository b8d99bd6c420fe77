"""The front door for HTTP writes: straight to the command handler (embedded mode), or onto
`lore.commands` when Kafka is configured, so that one ordered path serves both doors.

A receipt says what became of the command as far as the caller chose to wait for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from starlette.concurrency import run_in_threadpool

from domain.commands import Command
from projections.outcomes import CommandOutcome
from services.commands import CommandHandler
from services.wire import to_message

Status = Literal["accepted", "applied", "duplicate", "rejected"]


@dataclass(frozen=True)
class Receipt:
    command_id: str
    status: Status
    memory_id: str | None = None
    code: str | None = None
    reason: str | None = None


def _answer(command_id: str, found: CommandOutcome, status: Status) -> Receipt:
    """What a command came to, told the same way each time its id is sent: a refusal stays one."""
    if found.outcome == "rejected":
        return Receipt(command_id, "rejected", code=found.code, reason=found.reason)
    return Receipt(command_id, status, memory_id=found.memory_id)


class Intake(Protocol):
    max_command_bytes: int

    async def submit(self, command: Command, wait: bool) -> Receipt: ...


class DirectIntake:
    """Embedded mode: the command is decided, logged and projected before the answer."""

    def __init__(self, handler: CommandHandler, max_command_bytes: int) -> None:
        self.handler = handler
        self.max_command_bytes = max_command_bytes

    async def submit(self, command: Command, wait: bool) -> Receipt:
        (outcome,) = await run_in_threadpool(self.handler.handle, [command])
        if outcome.prior is not None:
            return _answer(command.command_id, outcome.prior, "duplicate")
        if outcome.error is not None:
            return Receipt(command.command_id, "rejected", code=outcome.error.code,
                           reason=str(outcome.error))
        return Receipt(command.command_id, outcome.status, memory_id=outcome.memory_id)


Publish = Callable[[bytes, str], Awaitable[object]]
OutcomeOf = Callable[[str, str], CommandOutcome | None]


class KafkaIntake:
    """Kafka mode: the command is on `lore.commands` when the answer comes; with `wait`, the
    answer comes once a worker has applied it (or `timeout_s` has passed: then `accepted`)."""

    def __init__(self, publish: Publish, outcome: OutcomeOf, max_command_bytes: int,
                 timeout_s: float = 30.0, poll_s: float = 0.02) -> None:
        self._publish = publish
        self._outcome = outcome
        self.max_command_bytes = max_command_bytes
        self.timeout_s = timeout_s
        self.poll_s = poll_s

    async def submit(self, command: Command, wait: bool) -> Receipt:
        found = await run_in_threadpool(self._outcome, command.user_id, command.command_id)
        if found is not None:
            return _answer(command.command_id, found, "duplicate")
        await self._publish(to_message(command), command.user_id)
        if not wait:
            return Receipt(command.command_id, "accepted")
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            found = await run_in_threadpool(self._outcome, command.user_id, command.command_id)
            if found is not None:
                return _answer(command.command_id, found, "applied")
            await asyncio.sleep(self.poll_s)
        return Receipt(command.command_id, "accepted")
