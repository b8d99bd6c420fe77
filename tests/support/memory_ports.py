"""In-memory stand-ins for the ports of the application layer, for unit tests of the services.

The graph stand-in folds events with the domain's own `evolve`, so it decides nothing of its own;
integration tests run the same services on the real Neo4j and Kafka.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from datetime import datetime

from domain.access import People
from domain.events import CommandRejected, Event
from domain.model import command_key
from domain.state import UserState, evolve
from domain.stored import Decided, StoredEvent
from infra.eventlog.port import PeopleRead
from projections.outcomes import CommandOutcome, CommandRef


class MemoryLog:
    name = "memory"
    log_id = "memory:test"

    def __init__(self) -> None:
        self.entries: list[tuple[int, int, Decided]] = []
        self._next: dict[int, int] = {}

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        stored = []
        for decided in batch:
            partition = decided.partition or 0
            position = self._next.get(partition, 0)
            self._next[partition] = position + 1
            self.entries.append((partition, position, decided))
            stored += [StoredEvent(partition, position, e) for e in decided.events]
        return stored

    def read(self, start: dict[int, int], batch_size: int = 10_000,
             partitions: Collection[int] | None = None) -> Iterator[list[StoredEvent]]:
        batch = [StoredEvent(p, pos, e) for p, pos, d in self.entries for e in d.events
                 if pos > start.get(p, -1) and (partitions is None or p in partitions)]
        if batch:
            yield batch

    def read_entries(self, until: dict[int, int], people: Callable[[str], bool] | None = None,
                     partitions: Collection[int] | None = None,
                     batch_size: int = 10_000) -> Iterator[list[StoredEvent]]:
        batch = [StoredEvent(p, pos, e) for p, pos, d in self.entries for e in d.events
                 if pos <= until.get(p, -1) and (partitions is None or p in partitions)
                 and (people is None or people(d.user_id))]
        if batch:
            yield batch

    def end(self) -> dict[int, int]:
        return {p: n - 1 for p, n in self._next.items()}

    def history(self, user_id: str, partition: int, before: int) -> list[StoredEvent]:
        return [StoredEvent(p, pos, e) for p, pos, d in self.entries for e in d.events
                if p == partition and pos < before and d.user_id == user_id]

    def shred(self, user_id: str, purged: object, live: object) -> None:
        from domain.errors import PurgeUnavailable

        raise PurgeUnavailable()  # entries are kept plain here

    def people_reader(self, people: People) -> MemoryPeopleReader:
        return MemoryPeopleReader(self, people)

    def count(self) -> int:
        return len(self.entries)

    def events(self) -> list[Event]:
        return [e for _, _, d in self.entries for e in d.events]

    def ping(self) -> None:
        pass

    def close(self) -> None:
        pass


class MemoryPeopleReader:
    def __init__(self, log: MemoryLog, people: People) -> None:
        self.log, self.people = log, people

    def read(self, after: dict[int, int], most: int = 500) -> PeopleRead:
        last = self.end()
        reached = {p: after.get(p, -1) for p in last}
        events: list[StoredEvent] = []
        taken = 0
        for partition, position, decided in self.log.entries:
            if position <= reached.get(partition, -1) or taken >= most:
                continue
            reached[partition] = position
            if self.people.holds(decided.user_id):
                taken += 1
                events += [StoredEvent(partition, position, e) for e in decided.events]
        if taken < most:
            reached = {p: max(reached[p], last[p]) for p in last}
        return PeopleRead(events, reached)

    def end(self) -> dict[int, int]:
        return self.log.end()

    def close(self) -> None:
        pass


class MemoryGraph:
    """The projection and the decision reads over it. `before_apply`, when set, runs first in
    every apply (a test holds a batch there)."""

    def __init__(self) -> None:
        self.states: dict[str, UserState] = {}
        self.done: dict[CommandRef, CommandOutcome] = {}
        self.checkpoint: dict[int, int] = {}
        self.latest: dict[int, datetime] = {}
        self.catch_ups = 0
        self.before_apply: Callable[[], None] | None = None
        self.lock = threading.Lock()

    def apply(self, batch: Sequence[StoredEvent]) -> int:
        if self.before_apply:
            self.before_apply()
        applied = 0
        with self.lock:
            seen = dict(self.checkpoint)
            for stored in batch:
                if stored.position <= seen.get(stored.partition, -1):
                    continue
                event = stored.event
                ref = (event.user_id, event.command_id)
                state = self.states.setdefault(event.user_id, UserState(event.user_id))
                evolve(state, [event])
                if isinstance(event, CommandRejected):
                    self.done[ref] = CommandOutcome("rejected", event.code, event.reason, None)
                else:
                    self.done.setdefault(ref, CommandOutcome("applied", None, None,
                                                             getattr(event, "memory_id", None)))
                at = self.latest.get(stored.partition)
                self.latest[stored.partition] = max(at, event.recorded_at) if at else event.recorded_at
                applied += 1
            for stored in batch:
                self.checkpoint[stored.partition] = max(self.checkpoint.get(stored.partition, -1),
                                                        stored.position)
        return applied

    def catch_up(self, event_log: MemoryLog, batch_size: int = 10_000,
                 on_progress: Callable[[int], None] | None = None,
                 partitions: Collection[int] | None = None) -> int:
        self.catch_ups += 1
        return sum(self.apply(b) for b in event_log.read(dict(self.checkpoint), partitions=partitions))

    def recorded_until(self) -> dict[int, datetime]:
        return dict(self.latest)

    # DecisionReads
    def states_of(self, user_ids: Collection[str]) -> dict[str, UserState]:
        return {u: _copy(self.states[u]) for u in user_ids if u in self.states}

    def outcomes(self, refs: Collection[CommandRef]) -> dict[CommandRef, CommandOutcome]:
        return {r: self.done[r] for r in refs if r in self.done}


class Reads:
    """MemoryGraph as DecisionReads (its `states` name is taken by the folded states)."""

    def __init__(self, graph: MemoryGraph) -> None:
        self.graph = graph
        self.loaded: list[set[str]] = []

    def states(self, user_ids: Collection[str]) -> dict[str, UserState]:
        self.loaded.append(set(user_ids))
        return self.graph.states_of(user_ids)

    def memory_states(self, named: Mapping[str, Collection[str]]) -> dict[str, UserState]:
        self.loaded.append({f"{u}:part" for u in named})
        states = self.graph.states_of(named)
        for user_id, state in states.items():
            state.memories = {m: s for m, s in state.memories.items() if m in named[user_id]}
        return states

    def outcomes(self, refs: Collection[CommandRef]) -> dict[CommandRef, CommandOutcome]:
        return self.graph.outcomes(refs)

    def command_keys(self, user_id: str) -> list[str]:
        return [command_key(u, c) for u, c in self.graph.done if u == user_id]


def _copy(state: UserState) -> UserState:
    """A state as a fresh read of the graph gives it: no object shared with the graph's own."""
    return copy.deepcopy(state)


class StubEmbedder:
    """A model stand-in: a fixed small vector per text; `during` runs inside each call."""

    model = "stub"
    dimensions = 3

    def __init__(self, during: Callable[[], None] | None = None) -> None:
        self.during = during
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.during:
            self.during()
        return [[1.0, float(len(t) % 7), 0.5] for t in texts]
