"""The front door for HTTP writes: straight to the command handler (embedded mode), or onto
`lore.commands` when Kafka is configured, so that one ordered path serves both doors.

A receipt says what became of the command as far as the caller chose to wait for it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from starlette.concurrency import run_in_threadpool

from domain.commands import Command
from projections.outcomes import CommandOutcome
from services.commands import CommandHandler
from services.failures import Failure, classify
from services.wire import to_message

log = logging.getLogger(__name__)

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
    answer comes once a worker has applied it (or `timeout_s` has passed: then `accepted`).

    The graph is asked first whether the command was applied already (a resend answers
    `duplicate`). While the person's Neo4j is away, the command is taken all the same: Kafka
    keeps it, and the worker applies it (or knows it for a duplicate) once the graph is back."""

    def __init__(self, publish: Publish, outcome: OutcomeOf, max_command_bytes: int,
                 timeout_s: float = 30.0, poll_s: float = 0.02) -> None:
        self._publish = publish
        self._outcome = outcome
        self.max_command_bytes = max_command_bytes
        self.timeout_s = timeout_s
        self.poll_s = poll_s

    async def submit(self, command: Command, wait: bool) -> Receipt:
        found, _ = await self._ask(command)
        if found is not None:
            return _answer(command.command_id, found, "duplicate")
        await self._publish(to_message(command), command.user_id)
        if not wait:
            return Receipt(command.command_id, "accepted")
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            found, answered = await self._ask(command)
            if found is not None:
                return _answer(command.command_id, found, "applied")
            await asyncio.sleep(self.poll_s if answered else 1.0)  # no tight loop while it is away
        return Receipt(command.command_id, "accepted")

    async def _ask(self, command: Command) -> tuple[CommandOutcome | None, bool]:
        """The command's outcome (None: none yet), and whether the graph could say."""
        try:
            return await run_in_threadpool(self._outcome, command.user_id, command.command_id), True
        except Exception as error:
            if classify(error) is not Failure.TRANSIENT:
                raise
            log.warning("the graph cannot say what became of %s now (%s): taken all the same",
                        command.command_id, error)
            return None, False
