"""The command handler: decide, append to the log, project — for a batch of commands at a time.

One handler is the single writer for the people it serves (the embedded mode's lock; on Kafka,
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

from cachetools import LRUCache

from domain.commands import Command, EraseUser, RecordUse
from domain.decide import DEFAULT_POLICY, decide, rejected, texts_to_embed
from domain.errors import DomainError
from domain.events import CommandRejected, Embedding, Event, MemoryPurged
from domain.extraction.policy import ExtractionPolicy
from domain.model import command_key
from domain.shredding import items_of, purged_items
from domain.state import UserState, evolve
from domain.stored import Decided, StoredEvent
from infra.embedding import Embedder
from infra.eventlog import EventLog
from projections.outcomes import CommandOutcome, CommandRef
from services.ports import DecisionReads, Projection
from services.telemetry import COMMANDS

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
DEFAULT_MAX_ENTRY_BYTES = 16 * 1024 * 1024


def system_clock() -> datetime:
    return datetime.now(UTC)


class EventsTooLarge(DomainError):
    """What a command decided does not fit one entry of the log."""

    code = "events_too_large"

    def __init__(self, size: int, bound: int) -> None:
        super().__init__(f"the events of this command take {size:,} bytes, and one entry of the "
                         f"event log holds at most {bound:,} (LORE_MAX_ENTRY_BYTES): send fewer "
                         "messages per episode")


@dataclass(frozen=True)
class Outcome:
    command_id: str
    status: Literal["applied", "duplicate", "rejected"]
    events: int = 0
    error: DomainError | None = None
    memory_id: str | None = None
    # For a duplicate: what the command came to the first time.
    prior: CommandOutcome | None = None


class CommandHandler:
    def __init__(self, reads: DecisionReads, event_log: EventLog, projection: Projection,
                 embedder: Embedder | None, *, ensure_schema: Callable[[], None] = lambda: None,
                 clock: Clock = system_clock, max_entry_bytes: int = DEFAULT_MAX_ENTRY_BYTES,
                 cached_people: int = 10_000, policy: ExtractionPolicy = DEFAULT_POLICY) -> None:
        self.reads = reads
        self.event_log = event_log
        self.projection = projection
        self.embedder = embedder
        self._ensure_schema = ensure_schema
        # Set once Neo4j's constraints and indexes exist. A schema change waits for the reads in
        # flight, and a read of a label whose index is being made can wait for it: in one process,
        # nothing else reads the graph before this is set (the extraction process waits for it).
        self.schema_ready = threading.Event()
        self._schema_lock = threading.Lock()
        self.clock = clock
        self.max_entry_bytes = max_entry_bytes
        self.policy = policy
        self._states: LRUCache[str, UserState] = LRUCache(maxsize=cached_people)
        self._lock = threading.Lock()
        self._caught_up = False
        self._partitions: Collection[int] | None = None
        # Set by serve_partitions (on the event loop, so never behind the writer lock), taken by
        # the next batch.
        self._assignment: tuple[Collection[int] | None] | None = None
        self._assignment_lock = threading.Lock()
        # The latest transaction time in the log: no event is recorded earlier than it.
        self._recorded_until: datetime | None = None

    def serve_partitions(self, partitions: Collection[int] | None) -> None:
        """From now on this handler writes for these partitions of the log only (None: all).

        Another writer may have changed them since: the next batch forgets the cached states and
        catches up first. Returns at once, also while a batch is being handled."""
        with self._assignment_lock:
            self._assignment = (None if partitions is None else frozenset(partitions),)

    def ensure_schema(self) -> None:
        """Make the graph's constraints and indexes, once per process (they are never dropped)."""
        with self._schema_lock:
            if not self.schema_ready.is_set():
                self._ensure_schema()
                self.schema_ready.set()

    def partitions(self) -> Collection[int] | None:
        """The partitions this handler writes for (None: all), the latest assignment included."""
        with self._assignment_lock:
            if self._assignment is not None:
                return self._assignment[0]
        return self._partitions

    def handle(self, commands: Sequence[Command],
               partitions: Sequence[int | None] | None = None) -> list[Outcome]:
        """Decide, log and project `commands`, in order. `partitions` (one per command) is the
        log partition each command's events go to: the one it came from on Kafka."""
        # The model runs before the writer lock: decisions wait for no one's embedding.
        embeddings = self._embed(commands)
        with self._lock:
            self._take_assignment()
            try:
                if not self._caught_up:
                    self.ensure_schema()
                    self.projection.catch_up(self.event_log, partitions=self._partitions)
                    self._recorded_until = max(self.projection.recorded_until().values(), default=None)
                    self._caught_up = True
                outcomes = self._handle(commands, partitions or [None] * len(commands), embeddings)
            except BaseException:
                # What was decided may or may not be in the log: re-read everything next time.
                self._states.clear()
                self._caught_up = False
                raise
        for outcome in outcomes:
            came_to = "rejected" if outcome.error else "duplicate" if outcome.prior else "applied"
            COMMANDS.labels(came_to).inc()
        return outcomes

    def _take_assignment(self) -> None:
        with self._assignment_lock:
            assignment, self._assignment = self._assignment, None
        if assignment is not None:
            (self._partitions,) = assignment
            self._states.clear()
            self._caught_up = False

    def _now(self) -> datetime:
        """Lore's transaction time: its clock, but never before what the log already holds."""
        now = self.clock()
        if self._recorded_until is not None and now < self._recorded_until:
            now = self._recorded_until
        self._recorded_until = now
        return now

    def _handle(self, commands: Sequence[Command], partitions: Sequence[int | None],
                embeddings: dict[CommandRef, tuple[Embedding, ...]]) -> list[Outcome]:
        done = self.reads.outcomes({_ref(c) for c in commands})
        states, partial = self._states_of(commands)
        now = self._now()
        outcomes: list[Outcome] = []
        decided: list[Decided] = []
        stale: set[str] = set()  # people whose state is to be read again from the graph
        for command, partition in zip(commands, partitions, strict=True):
            ref = _ref(command)
            if ref in done:
                outcomes.append(Outcome(command.command_id, "duplicate", prior=done[ref],
                                        memory_id=done[ref].memory_id))
                continue
            state = states[command.user_id]
            try:
                events = decide(state, command, now, embeddings.get(ref, ()), self.policy,
                                command_keys=self._commands_of(command, decided))
                entry = Decided(command.command_id, command.user_id, events, partition)
                if len(entry.entry) > self.max_entry_bytes:
                    raise EventsTooLarge(len(entry.entry), self.max_entry_bytes)
                purge = next((e for e in events if isinstance(e, MemoryPurged)), None)
                if purge is not None:
                    # What was decided before it goes to the log first (it may hold the words), then
                    # the keys of the words are destroyed, then the purge is logged: a crash between
                    # leaves the words unreadable and the memory there to purge again.
                    stale |= self._write(decided, commands, outcomes)
                    decided = []
                    purged = purged_items(purge)
                    self.event_log.shred(command.user_id, purged, items_of(state) - purged)
            except DomainError as error:
                entry = Decided(command.command_id, command.user_id, [rejected(command, error, now)],
                                partition)
                outcome = Outcome(command.command_id, "rejected", 1, error=error)
                done[ref] = CommandOutcome("rejected", error.code, str(error), None)
            else:
                evolve(state, events)
                outcome = Outcome(command.command_id, "applied", len(events), memory_id=_memory_of(events))
                done[ref] = CommandOutcome("applied", None, None, outcome.memory_id)
                if not events:
                    # Nothing to do (a session ended twice): no entry, since the log's positions
                    # must each carry events for the graph to follow them without a gap.
                    outcomes.append(outcome)
                    continue
            outcomes.append(outcome)
            decided.append(entry)
        stale |= self._write(decided, commands, outcomes)
        self._states.update((u, state) for u, state in states.items() if u not in partial)
        for user_id in stale:
            self._states.pop(user_id, None)
        return outcomes

    def _write(self, decided: Sequence[Decided], commands: Sequence[Command],
               outcomes: list[Outcome]) -> set[str]:
        """Append what was decided and project it; the people whose state is to be read again."""
        if not decided:
            return set()
        stored = self.event_log.append(decided)
        self.projection.apply(stored)
        return self._refused_by_the_log(commands, decided, stored, outcomes)

    def _refused_by_the_log(self, commands: Sequence[Command], decided: Sequence[Decided],
                            stored: Sequence[StoredEvent], outcomes: list[Outcome]) -> set[str]:
        """The SQLite log refuses a command id it holds, which the graph did not know (a graph
        behind its log): it is a duplicate, and the state it was decided on is read again from the
        graph next time."""
        logged = {(s.event.user_id, s.event.command_id) for s in stored}
        refused = {(d.user_id, d.command_id) for d in decided} - logged
        stale = set()
        for index, command in enumerate(commands):
            if _ref(command) in refused and outcomes[index].status != "duplicate":
                outcomes[index] = Outcome(command.command_id, "duplicate")
                stale.add(command.user_id)
        return stale

    def _commands_of(self, command: Command, decided: Sequence[Decided]) -> list[str]:
        """For an erasure: the person's commands so far, in the graph and earlier in this batch."""
        if not isinstance(command, EraseUser):
            return []
        earlier = [command_key(d.user_id, d.command_id) for d in decided if d.user_id == command.user_id]
        return [*self.reads.command_keys(command.user_id), *earlier]

    def _states_of(self, commands: Sequence[Command]) -> tuple[dict[str, UserState], set[str]]:
        """The batch's people, cached or read, kept for the batch whatever the cache evicts; and
        those whose state was read only in part: a person not cached whose commands only record
        use is read for the memories they name (use is noted for every search: reading whole
        states for it took a quarter of a busy server's time, bench/README). A part is never
        cached."""
        user_ids = {c.user_id for c in commands}
        states = {u: self._states[u] for u in user_ids if u in self._states}
        missing = user_ids - states.keys()
        partial = missing - {c.user_id for c in commands if not isinstance(c, RecordUse)}
        named: dict[str, set[str]] = {u: set() for u in partial}
        for command in commands:
            if isinstance(command, RecordUse) and command.user_id in partial:
                named[command.user_id] |= {u.memory_id for u in (*command.found, *command.cited)}
        if missing - partial:
            states.update(self.reads.states(missing - partial))
        if partial:
            states.update(self.reads.memory_states(named))
        return {u: states.get(u) or UserState(u) for u in user_ids}, partial

    def _embed(self, commands: Sequence[Command]) -> dict[CommandRef, tuple[Embedding, ...]]:
        """The vectors each command records (domain.decide.texts_to_embed says which texts, in the
        order its decider takes them). One call to the model for the whole batch."""
        if self.embedder is None:
            return {}
        texts = {_ref(c): found for c in commands if (found := texts_to_embed(c))}
        flat = [text for group in texts.values() for text in group]
        if not flat:
            return {}
        vectors = iter(self.embedder.embed(flat))
        model = self.embedder.model
        return {ref: tuple(Embedding.of(model, next(vectors)) for _ in group) for ref, group in texts.items()}


def _ref(command: Command) -> CommandRef:
    return (command.user_id, command.command_id)


def _memory_of(events: Sequence[Event]) -> str | None:
    """The memory a command recorded or changed: what a client wants back."""
    for event in events:
        if not isinstance(event, CommandRejected) and (memory_id := getattr(event, "memory_id", None)):
            return str(memory_id)
    return None
