"""Rebuild rates: the transactional replay and `lore rebuild --bulk`, on the same log.

    python -m bench.bulk --events 100000
    python -m bench.bulk --events 1000000 --keep-log /tmp/log-1m      # write the log once, keep it
    python -m bench.bulk --log /tmp/log-1m                             # and rebuild from it again
    python -m bench.bulk --log /tmp/log-10m --skip-transactional --compare-fold

Runs on a Neo4j of its own (bench/stack.py), which the bulk path restarts on the store it imports:
never the one `make run` serves. The log is bench.history's
commands (1,000 people, each erased now and then, so most of the log is unreadable by the end),
decided by the domain and appended to a fresh SQLite log, sealed (bench/decided_log.py: no
Neo4j while it is written). Prints, for each path, log entries/s, events/s (all the log's events)
and readable events/s (what the graph is made of), each phase's time, and whether the two
fingerprints are equal.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bench import stack
from bench.core import EVENTS_PER_COMMAND
from bench.decided_log import append_decided
from bench.history import history
from infra.eventlog import open_event_log
from infra.keys import open_key_store
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from projections.graph.fold_fingerprint import fold_fingerprint
from services.bootstrap import bootstrap
from services.bulk_rebuild import bulk_rebuild, fold_log

console = Console(width=170)


def write_log(settings: Settings, events: int, users: int) -> None:
    commands = int(events / EVENTS_PER_COMMAND)
    keys = open_key_store(settings)
    event_log = open_event_log(settings, keys)
    try:
        with Progress(TextColumn("writing the log (commands)"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console) as progress:
            task = progress.add_task("log", total=commands)
            append_decided(event_log, history(users, commands), on_batch=lambda n: progress.advance(task, n))
    finally:
        event_log.close()
        if keys is not None:
            keys.close()


def log_events(settings: Settings) -> tuple[int, int]:
    """Entries and events in the log (read from its rows, without opening them)."""
    with sqlite3.connect(settings.sqlite_log_path) as db:
        entries, events = db.execute("SELECT count(*), coalesce(sum(events), 0) FROM entries").fetchone()
    return int(entries), int(events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--log", type=Path, default=None,
                        help="a folder holding a log this benchmark wrote")
    parser.add_argument("--keep-log", type=Path, default=None,
                        help="write the log into this folder and keep it")
    parser.add_argument("--workers", type=int, default=None, help="fold processes (default: one per core)")
    parser.add_argument("--skip-transactional", action="store_true")
    parser.add_argument("--compare-fold", action="store_true",
                        help="also fold the log in one process and compare the bulk graph with it "
                             "(the check left when the replay is too long to wait for)")
    stack.add_arguments(parser)
    args = parser.parse_args()
    if args.neo4j_uri:
        raise SystemExit("bench.bulk stops and starts the Neo4j it loads: it runs on one of its own only")
    with stack.bench_servers(args, "bulk") as servers:
        assert servers.stack is not None
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    assert servers.stack is not None
    local = servers.stack
    home = args.log or args.keep_log or Path(tempfile.mkdtemp(prefix="lore-bench-bulk-"))
    settings = servers.settings(home=home, embedder="none", event_log="sqlite", key_store="sqlite")
    try:
        if args.log is None:
            write_log(settings, args.events, args.users)
        entries, events = log_events(settings)
        rows: list[tuple[str, float, int, str]] = []
        transactional = None
        if not args.skip_transactional:
            lore = bootstrap(settings)
            try:
                console.log(f"transactional rebuild of {entries:,} entries")
                started = time.perf_counter()
                readable = lore.projector.rebuild(lore.event_log)
                rows.append(("transactional rebuild", time.perf_counter() - started, readable, ""))
                transactional = fingerprint(lore.driver)
            finally:
                lore.close()
        console.log("bulk rebuild")
        started = time.perf_counter()
        report = bulk_rebuild(settings, stack=local, workers=args.workers)
        seconds = time.perf_counter() - started
        lore = bootstrap(settings)
        try:
            bulk = fingerprint(lore.driver)
        finally:
            lore.close()
        phases = ", ".join(f"{k} {v:.1f}s" for k, v in report.seconds.items())
        same = "" if transactional is None else ("fingerprint equal" if bulk == transactional else "DIFFERS")
        if args.compare_fold:
            console.log("folding the log in one process, to compare")
            folded = fold_fingerprint(fold_log(settings)[0])
            same = "; ".join(filter(None, [same, "equal to the one-process fold" if bulk == folded
                                           else "DIFFERS from the one-process fold"]))
        rows.append(("bulk rebuild", seconds, report.events, f"{phases}; {same}"))
    finally:
        if args.log is None and args.keep_log is None:
            shutil.rmtree(home, ignore_errors=True)
    table = Table(title=f"rebuild of a log of {entries:,} entries, {events:,} events "
                        f"({args.users:,} people), local Neo4j")
    for column in ("path", "seconds", "entries/s", "events/s", "readable events", "readable events/s",
                   "note"):
        table.add_column(column, justify="left" if column in ("path", "note") else "right")
    for path, took, readable, note in rows:
        table.add_row(path, f"{took:.1f}", f"{entries / took:,.0f}", f"{events / took:,.0f}", f"{readable:,}",
                      f"{readable / took:,.0f}", note)
    console.print(table)
    if len(rows) == 2:
        console.print(f"bulk / transactional: {rows[0][1] / rows[1][1]:.2f}x as fast")
    if "DIFFERS" in same:
        raise SystemExit(f"the bulk rebuild's graph: {same}")


if __name__ == "__main__":
    main()
