"""Maintenance at scale: people × memories recorded through the command handler (embedded log,
no embedder), of ages spread over 400 days and some use; then a dry run and a real run.

    python -m bench.maintenance --people 1000 --per-person 1000    # 1,000,000 memories

Prints memories evaluated per second for the dry run (read + rules) and the real run (read +
rules + the events written and projected), and what the run decided. Runs on a Neo4j of its own
(bench/stack.py), or on --neo4j-uri, which it wipes.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bench import stack
from domain.commands import Command, RecordMemory
from services.bootstrap import bootstrap, maintenance_service

console = Console(width=150)
AS_OF = datetime(2026, 6, 1, 3, tzinfo=UTC)
KINDS = ["fact", "preference", "event", "goal", "lesson", "context"]
WORDS = ["walked the dog", "booked a table", "read a paper on graphs", "fixed the bike", "called the bank",
         "bought oat milk", "met Priya for lunch", "planned the Lisbon trip", "tried a new ramen place"]


def load(lore: object, people: int, per_person: int, seed: int) -> None:
    rng = random.Random(seed)
    handler = lore.commands  # type: ignore[attr-defined]
    batch: list[Command] = []
    with Progress(TextColumn("recording memories"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console) as bar:
        task = bar.add_task("load", total=people * per_person)
        for p in range(people):
            for i in range(per_person):
                said = AS_OF - timedelta(days=rng.uniform(0, 400))
                batch.append(RecordMemory(
                    command_id=f"m{i}", user_id=f"person-{p:04d}", occurred_at=said, kind=rng.choice(KINDS),
                    content=f"{rng.choice(WORDS)} ({p}-{i})", importance=round(rng.uniform(0.1, 0.95), 2),
                    confidence=round(rng.uniform(0.3, 1.0), 2)))
                if len(batch) == 2000:
                    handler.handle(batch)
                    bar.advance(task, len(batch))
                    batch = []
        if batch:
            handler.handle(batch)
            bar.advance(task, len(batch))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--per-person", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="leave the graph as the run left it")
    stack.add_arguments(parser)
    args = parser.parse_args()
    if args.keep:
        args.keep_stack = True
    with stack.bench_servers(args, "maintenance") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    lore = bootstrap(servers.settings(home=servers.home, event_log="sqlite", embedder="none", extractor="off",
                                      layers="off", questions="off"))
    try:
        lore.commands.ensure_schema()
        lore.projector.wipe()
        started = time.perf_counter()
        load(lore, args.people, args.per_person, args.seed)
        load_s = time.perf_counter() - started
        service = maintenance_service(lore)
        dry = service.run(as_of=AS_OF, dry_run=True)
        real = service.run(as_of=AS_OF, run_id="bench")
        table = Table(title=f"maintenance over {args.people * args.per_person:,} memories "
                      f"({args.people:,} people)")
        for column in ("run", "people", "evaluated", "seconds", "evaluated / s", "forgotten", "demoted",
                       "compressed", "contradictions"):
            table.add_column(column, justify="right")
        for name, report in (("dry run", dry), ("real run", real)):
            table.add_row(name, f"{report.users:,}", f"{report.evaluated:,}", f"{report.duration_s:.1f}",
                          f"{report.evaluated / max(report.duration_s, 1e-9):,.0f}", f"{report.forgotten:,}",
                          f"{report.demoted:,}", f"{report.compressed:,}", f"{report.contradictions:,}")
        console.print(table)
        console.print(f"recorded {args.people * args.per_person:,} memories in {load_s:.0f} s "
                      f"({args.people * args.per_person / load_s:,.0f}/s)")
    finally:
        if not args.keep:
            lore.projector.wipe()
        lore.close()


if __name__ == "__main__":
    main()
