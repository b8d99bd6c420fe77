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


class Intake(Protocol):
    async def submit(self, command: Command, wait: bool) -> Receipt: ...


class DirectIntake:
    """Embedded mode: the command is decided, logged and projected before the answer."""

    def __init__(self, handler: CommandHandler) -> None:
        self.handler = handler

    async def submit(self, command: Command, wait: bool) -> Receipt:
        (outcome,) = await run_in_threadpool(self.handler.handle, [command])
        if outcome.error is not None:
            return Receipt(command.command_id, "rejected", code=outcome.error.code,
                           reason=str(outcome.error))
        return Receipt(command.command_id, outcome.status, memory_id=outcome.memory_id)


Publish = Callable[[bytes, str], Awaitable[object]]


class KafkaIntake:
    """Kafka mode: the command is on `lore.commands` when the answer comes; with `wait`, the
    answer comes once a worker has applied it (or `timeout_s` has passed: then `accepted`)."""

    def __init__(self, publish: Publish, outcome: Callable[[str], CommandOutcome | None],
                 timeout_s: float = 30.0, poll_s: float = 0.02) -> None:
        self._publish = publish
        self._outcome = outcome
        self.timeout_s = timeout_s
        self.poll_s = poll_s

    async def submit(self, command: Command, wait: bool) -> Receipt:
        if await run_in_threadpool(self._outcome, command.command_id) is not None:
            return Receipt(command.command_id, "duplicate")
        await self._publish(to_message(command), command.user_id)
        if not wait:
            return Receipt(command.command_id, "accepted")
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            found = await run_in_threadpool(self._outcome, command.command_id)
            if found is not None:
                if found.outcome == "rejected":
                    return Receipt(command.command_id, "rejected", code=found.code, reason=found.reason)
                return Receipt(command.command_id, "applied", memory_id=found.memory_id)
            await asyncio.sleep(self.poll_s)
        return Receipt(command.command_id, "accepted")
