"""Rebuild rates: the transactional replay and `lore rebuild --bulk`, on the same log.

    python -m bench.bulk --events 100000
    python -m bench.bulk --events 1000000 --skip-transactional

Runs on a Neo4j of its own (bench/stack.py), which the bulk path stops for neo4j-admin's import:
never the one `make run` serves. The log is bench.history's,
in a fresh SQLite file; the fingerprints of both rebuilds are compared.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from bench import stack
from bench.core import EVENTS_PER_COMMAND, chunks
from bench.history import history
from infra.local import LocalStack
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.bootstrap import bootstrap
from services.bulk_rebuild import bulk_rebuild

console = Console(width=150)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--skip-transactional", action="store_true")
    stack.add_arguments(parser)
    args = parser.parse_args()
    if args.neo4j_uri:
        raise SystemExit("bench.bulk stops and starts the Neo4j it loads: it runs on one of its own only")
    with stack.bench_servers(args, "bulk") as servers:
        assert servers.stack is not None
        run(args, servers.settings(home=servers.home, embedder="none"), servers.stack)


def run(args: argparse.Namespace, settings: Settings, local: LocalStack) -> None:
    lore = bootstrap(settings)
    rows: list[tuple[str, int, float, str]] = []
    try:
        lore.projector.wipe()
        console.log("writing the log (live path)")
        for part in chunks(history(args.users, int(args.events / EVENTS_PER_COMMAND)), 2000):
            lore.commands.handle(part)
        transactional = None
        if not args.skip_transactional:
            started = time.perf_counter()
            applied = lore.projector.rebuild(lore.event_log)
            rows.append(("transactional rebuild", applied, time.perf_counter() - started, ""))
            transactional = fingerprint(lore.driver)
    finally:
        lore.close()
    started = time.perf_counter()
    report = bulk_rebuild(settings, stack=local)
    phases = ", ".join(f"{k} {v:.1f}s" for k, v in report.seconds.items())
    lore = bootstrap(settings)
    try:
        bulk = fingerprint(lore.driver)
    finally:
        lore.close()
    same = "" if transactional is None else ("fingerprint equal" if bulk == transactional else "DIFFERS")
    rows.append(("bulk rebuild", report.events, time.perf_counter() - started, f"{phases}; {same}"))
    table = Table(title=f"rebuild of {args.events:,} events, {args.users:,} users, local Neo4j")
    for column in ("path", "events", "seconds", "events/s", "note"):
        table.add_column(column)
    for path, events, seconds, note in rows:
        table.add_row(path, f"{events:,}", f"{seconds:.1f}", f"{events / seconds:,.0f}", note)
    console.print(table)
    if same == "DIFFERS":
        raise SystemExit("the bulk rebuild differs from the transactional one")


if __name__ == "__main__":
    main()
