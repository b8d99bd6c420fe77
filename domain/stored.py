"""Events as the log keeps them, and the events of one command as they are handed to the log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from domain import codec
from domain.events import Event


@dataclass(frozen=True)
class StoredEvent:
    """An event with its place in the log: all of one user's events share a partition."""

    partition: int
    position: int
    event: Event


@dataclass(frozen=True)
class Decided:
    """The events decided from one command; appended together, as one entry, or not at all.

    `partition`: where the entry goes, the partition its command came from (None: the log
    places it by user)."""

    command_id: str
    user_id: str
    events: Sequence[Event]
    partition: int | None = None

    @cached_property
    def entry(self) -> bytes:
        """The entry as the log stores it, encoded once."""
        return codec.encode_entry(self.events)
