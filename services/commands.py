"""The command handler: decide, append to the log, project — for a batch of commands at a time.

One handler is the single writer for the users it serves (the embedded mode's lock; on Kafka,
the partitions a worker owns). That is what makes its cached states and the projection's
record of applied commands a safe basis for decisions.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from neo4j import Driver

from domain.commands import Command, RecordEpisode, RecordMemory, message_text
from domain.decide import decide, rejected
from domain.errors import DomainError
from domain.events import CommandRejected, Embedding, Event
from domain.state import UserState, evolve
from infra.embedding import Embedder
from infra.eventlog import Decided, EventLog
from projections.graph import GraphProjector
from projections.graph.decision_state import applied_commands, load_states

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Outcome:
    command_id: str
    status: Literal["applied", "duplicate", "rejected"]
    events: int = 0
    error: DomainError | None = None
    memory_id: str | None = None


class CommandHandler:
    def __init__(self, driver: Driver, event_log: EventLog, projector: GraphProjector,
                 embedder: Embedder | None, ensure_schema: Callable[[], None] = lambda: None,
                 clock: Clock = system_clock, database: str = "neo4j") -> None:
        self.driver = driver
        self.event_log = event_log
        self.projector = projector
        self.embedder = embedder
        self.ensure_schema = ensure_schema
        self.clock = clock
        self.database = database
        self._states: dict[str, UserState] = {}
        self._lock = threading.Lock()
        self._caught_up = False
        self._partitions: Collection[int] | None = None

    def serve_partitions(self, partitions: Collection[int] | None) -> None:
        """From now on this handler writes for these partitions of the log only (None: all).

        Another writer may have changed them since: forget the cached states and catch up first.
        """
        with self._lock:
            self._partitions = None if partitions is None else frozenset(partitions)
            self._states.clear()
            self._caught_up = False

    def handle(self, commands: Sequence[Command],
               accepted_at: Sequence[datetime | None] | None = None) -> list[Outcome]:
        """Decide, log and project `commands`, in order. `accepted_at` (one per command) is when
        Lore accepted each, e.g. its Kafka record's time; it is the events' `recorded_at`, so
        that deciding the same command again after a crash records the same time."""
        with self._lock:
            if not self._caught_up:
                self.ensure_schema()
                self.projector.catch_up(self.event_log, partitions=self._partitions)
                self._caught_up = True
            try:
                return self._handle(commands, accepted_at or [None] * len(commands))
            except BaseException:
                # What was decided may or may not be in the log: re-read everything next time.
                self._states.clear()
                self._caught_up = False
                raise

    def _handle(self, commands: Sequence[Command],
                accepted_at: Sequence[datetime | None]) -> list[Outcome]:
        done = applied_commands(self.driver, {c.command_id for c in commands}, self.database)
        missing = {c.user_id for c in commands} - self._states.keys()
        if missing:
            self._states.update(load_states(self.driver, missing, self.database))
        embeddings = self._embed([c for c in commands if c.command_id not in done])
        now = self.clock()
        outcomes: list[Outcome] = []
        decided: list[Decided] = []
        for command, accepted in zip(commands, accepted_at, strict=True):
            if command.command_id in done:
                outcomes.append(Outcome(command.command_id, "duplicate"))
                continue
            done.add(command.command_id)
            state = self._states.setdefault(command.user_id, UserState(command.user_id))
            try:
                events: list[Event] = decide(state, command, accepted or now,
                                             embeddings.get(command.command_id, ()))
            except DomainError as error:
                events = [rejected(command, error, accepted or now)]
                outcomes.append(Outcome(command.command_id, "rejected", 1, error=error))
            else:
                evolve(state, events)
                outcomes.append(Outcome(command.command_id, "applied", len(events),
                                        memory_id=_memory_of(events)))
            decided.append(Decided(command.command_id, command.user_id, events))
        if decided:
            self.projector.apply(self.event_log.append(decided))
        return outcomes

    def _embed(self, commands: Sequence[Command]) -> dict[str, tuple[Embedding, ...]]:
        """The vectors each command records: a memory's content, or each message of an episode.
        One call to the model for the whole batch."""
        if self.embedder is None:
            return {}
        texts: dict[str, list[str]] = {}
        for command in commands:
            if isinstance(command, RecordMemory):
                texts[command.command_id] = [command.content]
            elif isinstance(command, RecordEpisode):
                texts[command.command_id] = [message_text(m) for m in command.messages]
        flat = [text for group in texts.values() for text in group]
        if not flat:
            return {}
        vectors = iter(self.embedder.embed(flat))
        model = self.embedder.model
        return {cid: tuple(Embedding.of(model, next(vectors)) for _ in group) for cid, group in texts.items()}


def _memory_of(events: Sequence[Event]) -> str | None:
    """The memory a command recorded or changed: what a client wants back."""
    for event in events:
        if not isinstance(event, CommandRejected) and (memory_id := getattr(event, "memory_id", None)):
            return str(memory_id)
    return None
