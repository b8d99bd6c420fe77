"""Apply stored events to Neo4j, each batch in one transaction with the log position it reaches."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from neo4j import Driver, ManagedTransaction

from lore.domain.stored import StoredEvent
from lore.projections.graph import cypher
from lore.projections.graph.rows import WRITERS
from lore.projections.graph.waves import waves

log = logging.getLogger(__name__)

Progress = Callable[[int], None]


class EventSource(Protocol):
    """The part of the event log a projection reads."""

    def read(self, start: dict[int, int], batch_size: int = ...) -> Iterator[list[StoredEvent]]: ...

    def end(self) -> dict[int, int]: ...


class GraphProjector:
    name = "graph"

    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database

    def _key(self, partition: int) -> str:
        return f"{self.name}:{partition}"

    def checkpoints(self) -> dict[int, int]:
        records, _, _ = self.driver.execute_query(
            cypher.ALL_CHECKPOINTS, projection=self.name, database_=self.database
        )
        return {r["partition"]: r["position"] for r in records}

    def apply(self, batch: Sequence[StoredEvent]) -> int:
        """Apply what the graph has not seen yet; returns how many events that was.

        The checkpoint is read and written inside the transaction, so a batch that is retried,
        replayed or cut short by a crash is applied exactly once.
        """
        if not batch:
            return 0
        with self.driver.session(database=self.database) as session:
            return session.execute_write(self._apply, batch)

    def _apply(self, tx: ManagedTransaction, batch: Sequence[StoredEvent]) -> int:
        partitions = sorted({s.partition for s in batch})
        seen = {
            r["key"]: r["position"]
            for r in tx.run(cypher.READ_CHECKPOINTS, keys=[self._key(p) for p in partitions])
        }
        done = {p: -1 if seen.get(self._key(p)) is None else seen[self._key(p)] for p in partitions}
        fresh = [s for s in batch if s.position > done[s.partition]]
        for wave in waves(fresh):
            by_type: dict[type, list[StoredEvent]] = defaultdict(list)
            for stored in wave:
                by_type[type(stored.event)].append(stored)
            for event_type, (to_row, statement) in WRITERS.items():
                if event_type in by_type:
                    rows = [to_row(s.event, s.position) for s in by_type[event_type]]
                    tx.run(statement, rows=rows).consume()
        reached: dict[int, int] = {}
        for stored in fresh:
            reached[stored.partition] = max(reached.get(stored.partition, -1), stored.position)
        if reached:
            tx.run(cypher.WRITE_CHECKPOINTS, rows=[
                {"key": self._key(p), "projection": self.name, "partition": p, "position": pos}
                for p, pos in reached.items()
            ]).consume()
        return len(fresh)

    def catch_up(self, event_log: EventSource, batch_size: int = 5000,
                 on_progress: Progress | None = None) -> int:
        """Apply everything the log holds beyond the checkpoints."""
        applied = 0
        for batch in event_log.read(self.checkpoints(), batch_size=batch_size):
            applied += self.apply(batch)
            if on_progress:
                on_progress(len(batch))
        return applied

    def lag(self, event_log: EventSource) -> int:
        done = self.checkpoints()
        return sum(max(0, end - done.get(p, -1)) for p, end in event_log.end().items())

    def wipe(self) -> None:
        """Delete the whole projection, checkpoints included (the schema stays)."""
        with self.driver.session(database=self.database) as session:
            session.run(
                "MATCH (n) WHERE n:Memory OR n:User OR n:Entity OR n:Episode "
                "OR n:AppliedCommand OR n:Checkpoint "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 20000 ROWS"
            ).consume()
