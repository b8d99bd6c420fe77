"""Apply stored events to Neo4j, each batch in transactions that also record the log position.

A batch is split by user into shards written by concurrent transactions: one Neo4j
transaction runs on one core, and people share no nodes, so shards never conflict. Each
shard keeps its own checkpoint, written in the same transaction as its changes, so a batch
that is retried, replayed or cut short by a crash is applied exactly once.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Protocol

from neo4j import Driver, ManagedTransaction

from domain.events import MaintenanceApplied, MemoryPurged
from domain.model import command_key
from domain.stored import StoredEvent
from projections.graph import cypher
from projections.graph.fingerprint import fingerprint
from projections.graph.rows import applied_commands, wave_writes
from projections.graph.schema import ensure_schema, vector_dimensions
from projections.graph.waves import waves
from projections.parameters import Rows

log = logging.getLogger(__name__)

Progress = Callable[[int], None]
History = Callable[[str, int, int], list[StoredEvent]]

# Changing the number of shards changes the checkpoint keys: rebuild after changing it.
SHARDS = 3
# The shape of the graph this code projects. A graph projected by an earlier shape is rebuilt
# from the log (`lore rebuild`), never written on: 2 = ids scoped to their person, belief kept
# as intervals of forgetting and restoring.
VERSION = 2


class EventSource(Protocol):
    """The part of the event log a projection reads."""

    def read(self, start: dict[int, int], batch_size: int = ...,
             partitions: Collection[int] | None = ...) -> Iterator[list[StoredEvent]]: ...

    def end(self) -> dict[int, int]: ...


class GraphNeedsRebuild(RuntimeError):
    """The graph cannot be written on as it is: `lore rebuild` projects the log anew."""

    code = "graph_needs_rebuild"


class ProjectionMismatch(GraphNeedsRebuild):
    """The graph was projected from another event log than the one it is asked to follow."""

    code = "projection_mismatch"


class EmbedderChanged(GraphNeedsRebuild):
    """The graph holds vectors of another model than the configured embedder's: two models'
    vectors cannot be compared, so nothing is written beside them (the message says what to do)."""

    code = "embedder_changed"


class LanguageChanged(GraphNeedsRebuild):
    """The store reads text in another language than the configured one: its memories, summaries
    and word indexes are in that language, so nothing is written in another (the message says how
    to move it)."""

    code = "language_changed"


class ProjectionOutdated(GraphNeedsRebuild):
    """The graph was projected by an earlier version of Lore, in a shape this one does not write."""

    code = "projection_outdated"


class ProjectionGap(RuntimeError):
    """A batch does not start where the projection stopped; catch up from the log instead."""


# Every label of a node the projection writes: what a rebuild must remove and make again.
OWNED_LABELS = ("Memory", "User", "Entity", "Episode", "Message", "Session", "Extraction", "Summary",
                "Profile", "MaintenanceRun", "AppliedCommand", "Checkpoint")


def purge_segments(events: Sequence[StoredEvent]) -> list[tuple[list[StoredEvent], StoredEvent | None]]:
    """The events in runs to write in order: each purge's entry starts a run of its own, named by its
    MemoryPurged (the person's part is re-projected before it)."""
    runs: list[tuple[list[StoredEvent], StoredEvent | None]] = [([], None)]
    for stored in events:
        if isinstance(stored.event, MemoryPurged):
            runs.append(([], stored))
        runs[-1][0].append(stored)
    return [run for run in runs if run[0]]


def _write_waves(tx: ManagedTransaction, events: Sequence[StoredEvent]) -> None:
    for wave in waves(events):
        for statement, name, values in wave_writes(wave):
            tx.run(statement, {name: Rows(values)}).consume()


def shard_of(user_id: str) -> int:
    return zlib.crc32(user_id.encode()) % SHARDS


class GraphProjector:
    name = "graph"

    def __init__(self, driver: Driver, database: str = "neo4j", log_id: str | None = None,
                 history: History | None = None) -> None:
        self.driver = driver
        self.database = database
        # Which log the positions refer to: a position in one log means nothing in another.
        self.log_id = log_id
        # A person's entries before a position, as the log reads them now: what a purge re-projects.
        self.history = history
        # Set while the graph is projected from nothing (rebuild): each person's part is then the log
        # as it reads now, and a purge has nothing to re-project.
        self._from_empty = False
        self._writers = ThreadPoolExecutor(max_workers=SHARDS, thread_name_prefix="projector")

    def _key(self, partition: int, shard: int) -> str:
        return f"{self.name}:{partition}:{shard}"

    def _checkpoints(self) -> list[dict[str, object]]:
        records, _, _ = self.driver.execute_query(
            cypher.ALL_CHECKPOINTS, projection=self.name, database_=self.database
        )
        others = {r["log"] for r in records} - {self.log_id}
        if self.log_id is not None and others:
            raise ProjectionMismatch(
                f"the graph in Neo4j was projected from another event log ({', '.join(map(str, others))}), "
                f"not from {self.log_id}. Run `lore rebuild` to project this log instead, or point "
                "Lore at the log the graph came from."
            )
        versions = {r["version"] for r in records} - {VERSION}
        if versions:
            raise ProjectionOutdated(
                f"the graph in Neo4j was projected by an earlier version of Lore (graph shape "
                f"{', '.join(str(v or 1) for v in versions)}, this version writes {VERSION}). "
                "Run `lore rebuild` to project the log in the current shape; the log is unchanged."
            )
        return [dict(r) for r in records]

    def checkpoints(self) -> dict[int, int]:
        """Per partition, the position up to which every shard has applied the log."""
        positions = {(r["partition"], r["shard"]): r["position"] for r in self._checkpoints()}
        partitions = {p for p, _ in positions}
        return {p: min(positions.get((p, s), -1) for s in range(SHARDS)) for p in partitions}  # type: ignore[type-var]

    def recorded_until(self) -> dict[int, datetime]:
        """Per partition, the latest transaction time (`recorded_at`) of the events applied."""
        latest: dict[int, datetime] = {}
        for r in self._checkpoints():
            if r["recorded_at"] is not None:
                at: datetime = r["recorded_at"].to_native()  # type: ignore[attr-defined]
                partition = int(r["partition"])  # type: ignore[call-overload]
                latest[partition] = max(at, latest.get(partition, at))
        return latest

    def apply(self, batch: Sequence[StoredEvent]) -> int:
        """Apply what the graph has not seen yet; returns how many events that was.

        `batch` must continue the log where the projection stands (as `read` and a single
        writer's appends do); otherwise ProjectionGap is raised and nothing is written.
        """
        return self._apply_batch(batch, read_from_checkpoints=False)

    def _apply_batch(self, batch: Sequence[StoredEvent], read_from_checkpoints: bool) -> int:
        """`read_from_checkpoints`: the batch is what the log read from the checkpoints, so a
        position it skips is an entry with nothing readable (an erased person's), not a gap."""
        if not batch:
            return 0
        done = self.checkpoints()
        reach: dict[int, int] = {}
        for stored in batch:
            if not read_from_checkpoints and stored.partition not in reach \
                    and stored.position > done.get(stored.partition, -1) + 1:
                raise ProjectionGap(
                    f"partition {stored.partition}: batch starts at {stored.position}, "
                    f"projection is at {done.get(stored.partition, -1)}"
                )
            reach[stored.partition] = max(reach.get(stored.partition, -1), stored.position)
        by_shard: dict[int, list[StoredEvent]] = {s: [] for s in range(SHARDS)}
        for stored in batch:
            by_shard[shard_of(stored.event.user_id)].append(stored)
        results = self._writers.map(lambda s: self._write_shard(s, by_shard[s], reach), range(SHARDS))
        return sum(results)

    def _write_shard(self, shard: int, events: list[StoredEvent], reach: dict[int, int]) -> int:
        with self.driver.session(database=self.database) as session:
            return session.execute_write(self._apply, shard, events, reach)

    def _apply(self, tx: ManagedTransaction, shard: int, batch: list[StoredEvent],
               reach: dict[int, int]) -> int:
        keys = {p: self._key(p, shard) for p in reach}
        seen = {r["key"]: r["position"] for r in tx.run(cypher.READ_CHECKPOINTS, keys=list(keys.values()))}
        done = {p: -1 if seen.get(k) is None else seen[k] for p, k in keys.items()}
        fresh = self._once_per_command(tx, [s for s in batch if s.position > done[s.partition]])
        for segment, purge in purge_segments(fresh):
            if purge is not None and self.history is not None and not self._from_empty:
                self._reproject(tx, purge)
            _write_waves(tx, segment)
        if fresh:
            tx.run(cypher.APPLIED_COMMANDS, keys=Rows(applied_commands([s.event for s in fresh]))).consume()
        # The shard has now seen the whole batch, including the positions of other shards' users.
        latest = max(s.event.recorded_at for s in batch).isoformat() if batch else None
        tx.run(cypher.WRITE_CHECKPOINTS, rows=[
            {"key": keys[p], "projection": self.name, "partition": p, "shard": shard, "position": pos,
             "log": self.log_id, "version": VERSION, "recorded_at": latest}
            for p, pos in reach.items() if pos > done[p]
        ]).consume()
        return len(fresh)

    def _reproject(self, tx: ManagedTransaction, purge: StoredEvent) -> None:
        """The person's part of the graph made anew from their entries before the purge, as the log
        reads them now that the purged words' keys are destroyed: whatever those words had reached
        (a turn's neighbours, an entity, a summary, an extraction's verdicts) now holds the
        placeholders a replay projects, so the graph is the one a rebuild gives."""
        assert self.history is not None
        user = purge.event.user_id
        tx.run(cypher.PERSON_DELETED, user_id=user).consume()
        # A maintenance run's report is everyone's: the person's part of it is counted already.
        history = [s for s in self.history(user, purge.partition, purge.position)
                   if not isinstance(s.event, MaintenanceApplied)]
        first: dict[str, tuple[int, int]] = {}  # a command logged twice counts once, as on replay
        history = [s for s in history
                   if first.setdefault(command_key(user, s.event.command_id), (s.partition, s.position))
                   == (s.partition, s.position)]
        _write_waves(tx, history)
        if history:
            tx.run(cypher.APPLIED_COMMANDS, keys=Rows(applied_commands([s.event for s in history]))).consume()

    @staticmethod
    def _once_per_command(tx: ManagedTransaction, fresh: list[StoredEvent]) -> list[StoredEvent]:
        """Drop the entries of commands that took effect before: a Kafka log can hold a command
        twice (a worker that lost its partitions mid-batch), and the first entry wins, live and
        on replay alike."""
        if not fresh:
            return fresh
        keys = [command_key(s.event.user_id, s.event.command_id) for s in fresh]
        applied = {r["key"] for r in tx.run(cypher.ALREADY_APPLIED, keys=list(set(keys)))}
        first: dict[str, tuple[int, int]] = {}
        return [
            s for s, key in zip(fresh, keys, strict=True)
            if key not in applied
            and first.setdefault(key, (s.partition, s.position)) == (s.partition, s.position)
        ]

    def catch_up(self, event_log: EventSource, batch_size: int = 10_000,
                 on_progress: Progress | None = None, partitions: Collection[int] | None = None) -> int:
        """Apply everything the log holds beyond the checkpoints (of `partitions`, when given).

        `on_progress` is told how many log entries each batch held."""
        applied = 0
        # Read and decode the next batch while Neo4j writes this one.
        with ThreadPoolExecutor(max_workers=1) as reader:
            batches = event_log.read(self.checkpoints(), batch_size=batch_size, partitions=partitions)
            upcoming = reader.submit(next, batches, None)
            while (batch := upcoming.result()) is not None:
                upcoming = reader.submit(next, batches, None)
                applied += self._apply_batch(batch, read_from_checkpoints=True)
                if on_progress:
                    on_progress(len({(s.partition, s.position) for s in batch}))
        return applied

    def lag(self, event_log: EventSource, partitions: Collection[int] | None = None) -> int:
        """Log entries not applied yet (of `partitions`, when given)."""
        done = self.checkpoints()
        return sum(max(0, end - done.get(p, -1)) for p, end in event_log.end().items()
                   if partitions is None or p in partitions)

    def wipe(self) -> None:
        """Delete the whole projection, checkpoints included (the schema stays)."""
        with self.driver.session(database=self.database) as session:
            session.run(
                "MATCH (n) WHERE any(label IN labels(n) WHERE label IN $owned) "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 20000 ROWS",
                owned=list(OWNED_LABELS),
            ).consume()

    def rebuild(self, event_log: EventSource, batch_size: int = 10_000,
                on_progress: Progress | None = None, partitions: Collection[int] | None = None) -> int:
        """The projection from nothing: wipe it and replay the whole log (its `partitions`, for a
        shard of the graph). No decision is made."""
        self.wipe()
        # The vector index keeps the dimension it was made with: the vectors come from the log.
        ensure_schema(self.driver, vector_dimensions(self.driver, self.database), self.database)
        self._from_empty = True
        try:
            return self.catch_up(event_log, batch_size=batch_size, on_progress=on_progress,
                                 partitions=partitions)
        finally:
            self._from_empty = False

    def ping(self) -> None:
        """Raise unless Neo4j answers."""
        self.driver.verify_connectivity()

    def fingerprint(self, user_id: str | None = None, ignore: frozenset[str] = frozenset()) -> str:
        return fingerprint(self.driver, user_id, self.database, ignore)

    def close(self) -> None:
        self._writers.shutdown(wait=True)
