"""The CPU that reading one person's memories costs the process that asks: a listing of what is in
force (the page, GET /memories), what a /context block shows whatever was asked (preferences and
lessons always, to-dos), a search, the whole /context block, and the state a command is decided on.

    python -m bench.reads                                    # 200 preferences, 2,000 facts, 600 turns
    python -m bench.reads --preferences 20 --facts 200 --turns 40 --repeat 5     # smoke (CI)

One person is recorded through the command handler (memories and conversations, with the
embedder's vectors), then each read is made --repeat times in this process, one at a time. CPU is
this process's (every thread: the driver reading rows, Python building what the caller gets);
Neo4j's is not counted. Medians; and the queries each read sends Neo4j (round trips: each costs the
asking process about a millisecond whatever it asks). Runs on a Neo4j of its own
(bench/stack.py), or on --neo4j-uri, which it wipes.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench import stack
from bench.core import chunks
from bench.latency import locomo, questions, sentences
from domain.commands import Message, RecordEpisode, RecordMemory
from domain.model import MemoryKind
from projections.search import Window
from services.bootstrap import Lore, bootstrap

console = Console(width=150)
USER = "reader"
START = datetime(2025, 1, 1, tzinfo=UTC)


def record(lore: Lore, said: list[str], preferences: int, facts: int, todos: int, turns: int) -> None:
    """The person's memories, oldest first: facts, then preferences, then to-dos due in a week; and
    conversations of 20 turns (what the offline rules take from them becomes memories too)."""
    kinds = [MemoryKind.FACT] * facts + [MemoryKind.PREFERENCE] * preferences + [MemoryKind.TODO] * todos
    commands: list[RecordMemory | RecordEpisode] = []
    for i, kind in enumerate(kinds):
        at = START + timedelta(hours=i)
        due = at + timedelta(days=7) if kind is MemoryKind.TODO else None
        commands.append(RecordMemory(command_id=f"read-{i}", user_id=USER, occurred_at=at, kind=kind,
                                     content=said[i % len(said)], importance=(i % 10) / 10, due_at=due))
    for n, first in enumerate(range(0, turns, 20)):
        at = START + timedelta(days=n, hours=12)
        commands.append(RecordEpisode(
            command_id=f"talk-{n}", user_id=USER, occurred_at=at, session_id=f"session-{n}",
            messages=tuple(Message(role="user" if i % 2 == 0 else "assistant",
                                   content=said[(len(kinds) + i) % len(said)],
                                   timestamp=at + timedelta(minutes=i - first))
                           for i in range(first, min(first + 20, turns)))))
    with console.status("recording the person's memories") as status:
        for done, batch in enumerate(chunks(commands, 200), start=1):
            lore.commands.handle(batch)
            status.update(f"recording the person's memories: {min(done * 200, len(commands)):,} of "
                          f"{len(commands):,}")


class Asked:
    """Counts the queries sent through a driver's `execute_query` (every read of Lore's uses it)."""

    def __init__(self, driver: Any) -> None:
        self.count = 0
        ask = driver.execute_query

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return ask(*args, **kwargs)

        driver.execute_query = counted


def measured(read: Callable[[], object], repeat: int, asked: Asked) -> tuple[float, float, int, float]:
    """Median CPU ms and wall ms of `read`, how many things it returned, and the queries it sent."""
    cpu, wall, size = [], [], 0
    read()  # warm: queries planned, caches filled
    before = asked.count
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        found = read()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
        size = _size(found)
    return statistics.median(cpu), statistics.median(wall), size, (asked.count - before) / repeat


def _size(found: object) -> int:
    if isinstance(found, dict):
        return sum(len(s.memories) for s in found.values())
    if hasattr(found, "sections"):
        return sum(len(s.items) for s in found.sections)
    return len(found) if isinstance(found, list) else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preferences", type=int, default=200, help="preferences of the person")
    parser.add_argument("--facts", type=int, default=2_000, help="facts of the person")
    parser.add_argument("--todos", type=int, default=20, help="to-dos of the person")
    parser.add_argument("--turns", type=int, default=600, help="turns of conversation (20 a session)")
    parser.add_argument("--repeat", type=int, default=30, help="times each read is made")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "reads") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    # An event log of this run's own: the handler catches the wiped graph up from the log it is given.
    home = Path(tempfile.mkdtemp(dir=servers.home, prefix="run-"))
    lore = bootstrap(servers.settings(home=home))
    try:
        lore.projector.wipe()
        conversations = locomo()
        record(lore, sentences(conversations), args.preferences, args.facts, args.todos, args.turns)
        lore.driver.execute_query("CALL db.awaitIndexes(600)")
        now = START + timedelta(hours=args.facts + args.preferences + args.todos + 1,
                                days=args.turns // 20 + 1)
        asked = questions(conversations, 1, seed=4)[0]
        reads: dict[str, Callable[[], object]] = {
            "preferences in force (a block's always-on read)":
                lambda: lore.queries.memories(USER, valid_at=now, kind="preference", limit=200),
            "the page's listing, 100 of every memory": lambda: lore.queries.every(USER, limit=100),
            "what a command is decided on (every memory)": lambda: lore.commands.reads.states([USER]),
            "search, 10 hits": lambda: lore.search.search(USER, asked, Window(valid_at=now, known_at=None)),
            "/context block (layers, questions, search)":
                lambda: lore.context.build(USER, asked, [], budget=1_000, now=now),
        }
        table = Table(title=f"Reads of one person ({args.preferences:,} preferences, {args.facts:,} facts, "
                            f"{args.todos:,} to-dos, {args.turns:,} turns): this process's CPU, median of "
                            f"{args.repeat}")
        for column in ("read", "items", "CPU ms", "wall ms", "queries"):
            table.add_column(column, justify="left" if column == "read" else "right")
        asked_neo4j = Asked(lore.driver)
        for name, read in reads.items():
            cpu, wall, size, queries = measured(read, args.repeat, asked_neo4j)
            table.add_row(name, f"{size:,}", f"{cpu:.1f}", f"{wall:.1f}", f"{queries:g}")
        console.print(table)
    finally:
        lore.close()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
