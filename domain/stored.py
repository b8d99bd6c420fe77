"""Events as the log keeps them, and the events of one command as they are handed to the log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.events import Event


@dataclass(frozen=True)
class StoredEvent:
    """An event with its place in the log: all of one user's events share a partition."""

    partition: int
    position: int
    event: Event


@dataclass(frozen=True)
class Decided:
    """The events decided from one command; appended together or not at all."""

    command_id: str
    user_id: str
    events: Sequence[Event]
