"""The envelope every decider stamps on its events: ids derived from the command, so that deciding the
same command twice names the same events, and the transaction time passed in."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from domain.extraction.policy import ExtractionPolicy
from domain.model import derived_id

DEFAULT_POLICY = ExtractionPolicy()


class Stamped(Protocol):
    """What an envelope reads of a command."""

    @property
    def command_id(self) -> str: ...

    @property
    def user_id(self) -> str: ...

    @property
    def occurred_at(self) -> datetime: ...


class Envelope:
    """Numbers the events of one command, so that ids are the same each time it is decided."""

    def __init__(self, command: Stamped, now: datetime, policy: ExtractionPolicy = DEFAULT_POLICY) -> None:
        self.command = command
        self.now = now
        self.policy = policy
        self._count = 0

    def __call__(self) -> dict[str, Any]:
        self._count += 1
        return {
            "event_id": derived_id("event", self.command.user_id, self.command.command_id, str(self._count)),
            "user_id": self.command.user_id,
            "command_id": self.command.command_id,
            "occurred_at": self.command.occurred_at,
            "recorded_at": self.now,
        }
