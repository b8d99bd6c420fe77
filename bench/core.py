"""Ingest and rebuild rates of the event-sourced core.

    python -m bench.core --events 1000000          # the issue's size
    python -m bench.core --events 5000 --verify    # smoke size (CI)

Runs, each on an empty graph and a fresh SQLite log:
  1. live path, no embedder                 -> commands/s and events/s (decide + log + project)
  2. rebuild of that log                    -> events/s
  3. live path, vectors precomputed         -> events/s with every memory carrying a real vector
  4. rebuild of that log (HNSW inserts)     -> events/s
  5. live path computing embeddings         -> events/s on a sample, local ONNX embedder
Runs on a Neo4j of its own (bench/stack.py), or on --neo4j-uri, which it wipes.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bench import stack
from bench.history import history
from infra.embedding.local import LocalMiniLM
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.bootstrap import Lore, bootstrap
from services.rebuild import rebuild

console = Console(width=170)
EVENTS_PER_COMMAND = 1.15  # measured on bench.history: slot changes emit 2-3 events, refusals 0


@dataclass
class Row:
    run: str
    embedder: str
    commands: int
    events: int
    seconds: float
    note: str = ""


class CachedEmbedder:
    """The real model, computed once per distinct text: what 'precomputed vectors' means here."""

    def __init__(self, inner: LocalMiniLM) -> None:
        self.inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.local = True
        self.cache: dict[str, list[float]] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            self.cache.update(zip(missing, self.inner.embed(missing), strict=True))
        return [self.cache[t] for t in texts]


def chunks(items: Iterable, size: int) -> Iterable[list]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def _progress(label: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console, transient=True)


def live(lore: Lore, users: int, commands: int, label: str, batch: int = 2000) -> tuple[float, int]:
    """Seconds, and how many events the commands caused (a log entry holds a command's events)."""
    lore.projector.wipe()
    events = 0
    started = time.perf_counter()
    with _progress(label) as progress:
        task = progress.add_task(label, total=commands)
        for part in chunks(history(users, commands), batch):
            events += sum(outcome.events for outcome in lore.commands.handle(part))
            progress.advance(task, len(part))
    return time.perf_counter() - started, events


def replay(lore: Lore, label: str) -> tuple[float, int]:
    started = time.perf_counter()
    with _progress(label) as progress:
        task = progress.add_task(label, total=lore.event_log.count())
        applied = rebuild(lore, on_progress=lambda n: progress.advance(task, n))
    return time.perf_counter() - started, applied


def fresh(embedder: object | None, workdir: Path, name: str, neo4j_uri: str) -> Lore:
    return bootstrap(Settings(home=workdir / name, neo4j_uri=neo4j_uri, kafka_bootstrap=None),
                     embedder=embedder)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=1_000_000, help="size of the history in events")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--vector-events", type=int, default=None,
                        help="size of the runs with vectors (default: --events)")
    parser.add_argument("--embed-sample", type=int, default=5000,
                        help="commands in the run that computes embeddings")
    parser.add_argument("--verify", action="store_true", help="check rebuilt == live fingerprints")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "core") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    commands = int(args.events / EVENTS_PER_COMMAND)
    vector_commands = int((args.vector_events or args.events) / EVENTS_PER_COMMAND)
    model = LocalMiniLM()
    rows: list[Row] = []
    workdir = servers.home

    lore = fresh(None, workdir, "plain", servers.neo4j_uri)
    seconds, events = live(lore, args.users, commands, "live, no embedder")
    rows.append(Row("live", "none", commands, events, seconds))
    live_print = fingerprint(lore.driver) if args.verify else None
    seconds, applied = replay(lore, "rebuild")
    note = ""
    if args.verify:
        note = "fingerprint equal" if fingerprint(lore.driver) == live_print else "FINGERPRINT DIFFERS"
    rows.append(Row("rebuild", "none (no vectors)", 0, applied, seconds, note))
    lore.close()

    cached = CachedEmbedder(model)
    lore = fresh(cached, workdir, "vectors", servers.neo4j_uri)
    seconds, events = live(lore, args.users, vector_commands, "live, vectors precomputed")
    rows.append(Row("live", f"{model.model}, precomputed", vector_commands, events, seconds,
                    f"{len(cached.cache):,} distinct texts embedded"))
    live_print = fingerprint(lore.driver) if args.verify else None
    seconds, applied = replay(lore, "rebuild with vectors")
    note = "vectors replayed from the log"
    if args.verify:
        same = fingerprint(lore.driver) == live_print
        note += ", fingerprint equal" if same else ", FINGERPRINT DIFFERS"
    rows.append(Row("rebuild", f"{model.model} (from log)", 0, applied, seconds, note))
    lore.close()

    lore = fresh(model, workdir, "embedding", servers.neo4j_uri)
    seconds, events = live(lore, args.users, args.embed_sample, "live, computing embeddings")
    rows.append(Row("live", f"{model.model}, computed", args.embed_sample, events, seconds,
                    "sample; bound by the model on 2 cores"))
    lore.close()

    table = Table(title=f"Lore core: {args.events:,} events, {args.users:,} users, local Neo4j")
    for column in ("run", "embedder", "commands", "events", "seconds", "commands/s", "events/s", "note"):
        table.add_column(column, justify="right" if column in {"commands", "events", "seconds",
                                                               "commands/s", "events/s"} else "left")
    for row in rows:
        table.add_row(row.run, row.embedder, f"{row.commands:,}" if row.commands else "-",
                      f"{row.events:,}", f"{row.seconds:.1f}",
                      f"{row.commands / row.seconds:,.0f}" if row.commands else "-",
                      f"{row.events / row.seconds:,.0f}", row.note)
    console.print(table)
    if any("DIFFERS" in r.note for r in rows):
        raise SystemExit("a rebuilt graph differs from the live one")


if __name__ == "__main__":
    main()
