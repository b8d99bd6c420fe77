"""What the application layer needs from the graph and the log, as ports (Protocols).

The adapters (projections/, infra/) satisfy them structurally and never import this module;
tests hand the services in-memory stand-ins of the same shape.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Protocol

from domain.commands import Message, MessageRef, Similar
from domain.state import UserState
from domain.stored import StoredEvent
from infra.eventlog import EventLog
from projections.extraction import DueExtraction, MemoryShown
from projections.outcomes import CommandOutcome, CommandRef


class DecisionReads(Protocol):
    """The state decisions are made on, and what earlier commands came to."""

    def states(self, user_ids: Collection[str]) -> dict[str, UserState]:
        """The decision state of these people (people without memories may be left out)."""

    def memory_states(self, named: Mapping[str, Collection[str]]) -> dict[str, UserState]:
        """Each person's state held to the memories named for them, those they still have (what
        recording their use decides on: a person's whole state is not read for a statistic)."""

    def outcomes(self, refs: Collection[CommandRef]) -> dict[CommandRef, CommandOutcome]:
        """The outcome of each of these commands that has taken effect."""

    def command_keys(self, user_id: str) -> list[str]:
        """The keys of every command of the person's that has taken effect."""


class Projection(Protocol):
    """The read model the log is projected into: applied exactly once, resumable."""

    def apply(self, batch: Sequence[StoredEvent]) -> int: ...

    def catch_up(self, event_log: EventLog, batch_size: int = ...,
                 on_progress: Callable[[int], None] | None = ...,
                 partitions: Collection[int] | None = ...) -> int: ...

    def recorded_until(self) -> dict[int, datetime]:
        """Per partition, the latest transaction time of the events applied."""


class ExtractionReads(Protocol):
    """The extraction process's queue (extractions due) and what it reads to answer them."""

    def due(self, partitions: Collection[int] | None, limit: int = ...,
            waiting: Collection[str] = ..., later: Collection[str] = ...) -> list[DueExtraction]: ...

    def messages(self, user_id: str, refs: Sequence[MessageRef]) -> list[Message | None]: ...

    def similar(self, user_id: str, vectors: Sequence[Sequence[float]], threshold: float,
                limit: int = ...) -> list[tuple[Similar, ...]]: ...

    def shown(self, user_id: str, ids: Collection[str]) -> dict[str, MemoryShown]: ...

    def tokens_since(self, user_id: str | None, since: datetime) -> int: ...
