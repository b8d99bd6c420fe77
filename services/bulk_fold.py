"""`lore rebuild --bulk`'s fold, spread over processes: each folds the entries of a share of the
people and writes its part of the import's CSV files.

People share no node but a maintenance run's report and the projection's checkpoints, so a
share's fold is exactly its people's part of the whole graph. Each process reads the log up to
the same end, only its own people's entries (whole partitions of their own on Kafka when there
are enough of them, else its people's rows; another's entry is never opened), folds them
(projections/graph/fold.py), and writes them as CSV with node ids of its own (interleaved:
IdSpace). The reports and checkpoints come back to the parent, which adds them up into the one
node each of them is (`shared_graph`). The processes agree on the array delimiter between the
fold and the writing: the first that no text of any of them holds.
"""

from __future__ import annotations

import logging
import multiprocessing
import time
import traceback
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from infra.eventlog import open_event_log
from infra.keys import open_key_store
from infra.settings import Settings
from projections.graph.bulk_csv import CsvFiles, IdSpace, pick_delimiter, used_delimiters, write_csv
from projections.graph.fold import Folder, Graph, Node, Vector, later
from projections.graph.projector import SHARDS, VERSION, GraphProjector, shard_of

log = logging.getLogger(__name__)

# Nodes that are no one person's: every share has its part of them, the parent writes the sum.
SHARED = ("MaintenanceRun", "Checkpoint")
_COUNTERS = ("users", "evaluated", "forgotten", "demoted", "compressed", "contradictions", "expired")


def _takes(index: int, count: int, user_id: str) -> bool:
    return zlib.crc32(user_id.encode()) % count == index


@dataclass(frozen=True)
class Share:
    """The `index`th of `count` shares of the log: whole partitions, or people by a hash of their id."""

    index: int
    count: int
    by_partition: bool

    def partitions(self, until: dict[int, int]) -> list[int] | None:
        return [p for p in sorted(until) if p % self.count == self.index] if self.by_partition else None

    def people(self) -> Callable[[str], bool] | None:
        if self.by_partition or self.count == 1:
            return None
        return partial(_takes, self.index, self.count)


def plan(count: int, until: dict[int, int]) -> list[Share]:
    """Partitions go whole to a share when there are as many as shares (a person's entries are all
    in one partition); otherwise people are spread by a hash of their id."""
    by_partition = len(until) >= count
    return [Share(i, count, by_partition) for i in range(count)]


@dataclass
class Folded:
    """What the parent is told of a share's fold."""

    events: int
    entries: int
    delimiters: set[str]
    dimensions: int | None
    seconds: float


@dataclass
class Written:
    files: CsvFiles
    shared: dict[str, list[dict[str, Any]]]
    seconds: float


def _dimensions(graph: Graph) -> int | None:
    for node in graph.nodes.values():
        vector = node.props.get("embedding")
        if isinstance(vector, Vector) and "Memory" in node.labels:
            return len(vector)
    return None


def fold_share(settings: Settings, share: Share, until: dict[int, int], directory: Path,
               conn: Connection, batch_size: int = 10_000) -> None:
    """A worker process: fold the share, report, write its CSV once told the delimiter, report."""
    try:
        started = time.perf_counter()
        keys = open_key_store(settings)
        event_log = open_event_log(settings, keys)
        try:
            folder = Folder(GraphProjector.name, SHARDS, shard_of, event_log.log_id, VERSION)
            events = entries = 0
            for batch in event_log.read_entries(until, share.people(), share.partitions(until), batch_size):
                events += folder.apply(batch)
                n = len({(s.partition, s.position) for s in batch})
                entries += n
                conn.send(("progress", n))
        finally:
            event_log.close()
            if keys is not None:
                keys.close()
        graph = folder.graph
        conn.send(("folded", Folded(events, entries, used_delimiters(graph), _dimensions(graph),
                                    time.perf_counter() - started)))
        _, delimiter = conn.recv()
        started = time.perf_counter()
        shared = {space: [n.props for k, n in graph.nodes.items() if k[0] == space] for space in SHARED}
        files = write_csv(graph, directory, delimiter, IdSpace(share.index, share.count + 1),
                          f"w{share.index}", leave_out=SHARED)
        conn.send(("written", Written(files, shared, time.perf_counter() - started)))
    except BaseException:
        conn.send(("failed", traceback.format_exc()))
        raise
    finally:
        conn.close()


@dataclass
class FoldedLog:
    """The whole log folded and written as CSV by the shares, the shared nodes added."""

    files: CsvFiles
    events: int = 0
    entries: int = 0
    dimensions: int | None = None
    seconds: dict[str, float] = field(default_factory=dict)


class ShareFailed(RuntimeError):
    pass


def _gather(conns: list[Connection], kind: str, on_entries: Callable[[int], None]) -> list[Any]:
    """Each worker's next message of `kind`, passing progress on meanwhile."""
    found: dict[int, Any] = {}
    waiting = {id(c): i for i, c in enumerate(conns)}
    while len(found) < len(conns):
        for conn in wait([c for i, c in enumerate(conns) if i not in found]):
            index = waiting[id(conn)]
            try:
                message = conn.recv()  # type: ignore[union-attr]
            except EOFError as ended:
                raise ShareFailed(f"the process folding share {index} ended without a word") from ended
            if message[0] == "progress":
                on_entries(message[1])
            elif message[0] == "failed":
                raise ShareFailed(f"the process folding share {index} failed:\n{message[1]}")
            else:
                assert message[0] == kind, message[0]
                found[index] = message[1]
    return [found[i] for i in range(len(conns))]


def fold_to_csv(settings: Settings, directory: Path, workers: int, on_entries: Callable[[int], None],
                batch_size: int = 10_000) -> FoldedLog:
    """Fold the log in `workers` processes, each writing its CSV files into `directory`."""
    event_log = open_event_log(settings)
    try:
        until = event_log.end()
    finally:
        event_log.close()
    shares = plan(workers, until)
    context = multiprocessing.get_context("spawn")  # no driver or broker thread inherited
    conns: list[Connection] = []
    processes = []
    for share in shares:
        mine, theirs = context.Pipe()
        process = context.Process(target=fold_share, name=f"lore-bulk-fold-{share.index}", daemon=True,
                                  args=(settings, share, until, directory, theirs, batch_size))
        process.start()
        theirs.close()
        conns.append(mine)
        processes.append(process)
    try:
        started = time.perf_counter()
        folded: list[Folded] = _gather(conns, "folded", on_entries)
        result = FoldedLog(CsvFiles(), sum(f.events for f in folded), sum(f.entries for f in folded),
                           next((f.dimensions for f in folded if f.dimensions), None))
        result.seconds["fold"] = time.perf_counter() - started
        started = time.perf_counter()
        delimiter = pick_delimiter(set().union(*(f.delimiters for f in folded)))
        for conn in conns:
            conn.send(("write", delimiter))
        written: list[Written] = _gather(conns, "written", on_entries)
        shared = write_csv(shared_graph([w.shared for w in written]), directory, delimiter,
                           IdSpace(workers, workers + 1), "shared")
        result.files = _together([w.files for w in written] + [shared], delimiter)
        result.seconds["csv"] = time.perf_counter() - started
        for process in processes:
            process.join()
        return result
    finally:
        for conn in conns:
            conn.close()
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join()


def _together(parts: list[CsvFiles], delimiter: str) -> CsvFiles:
    files = CsvFiles(array_delimiter=delimiter)
    for part in parts:
        files.nodes += part.nodes
        files.relationships += part.relationships
        files.empty_lists += part.empty_lists
        files.node_count += part.node_count
        files.relationship_count += part.relationship_count
    return files


def shared_graph(parts: Collection[dict[str, list[dict[str, Any]]]]) -> Graph:
    """The shares' maintenance reports and checkpoints as the one node each is: counts added up,
    the latest time and the furthest position kept (what the replay's MERGE leaves)."""
    graph = Graph()
    for part in parts:
        for props in part.get("MaintenanceRun", ()):
            run, created = graph.merge("MaintenanceRun", props["run_id"])
            if created:
                run.props.update(props)
                continue
            for name in _COUNTERS:
                run.props[name] += props[name]
            _keep_latest(run, "finished_at", props.get("finished_at"))
        for props in part.get("Checkpoint", ()):
            checkpoint, created = graph.merge("Checkpoint", props["key"])
            if created:
                checkpoint.props.update(props)
                continue
            checkpoint.props["position"] = max(checkpoint.props["position"], props["position"])
            _keep_latest(checkpoint, "recorded_at", props.get("recorded_at"))
    return graph


def _keep_latest(node: Node, name: str, value: Any) -> None:
    if value is not None and (node.props.get(name) is None or later(node.props[name], value)):
        node.props[name] = value
