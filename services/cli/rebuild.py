"""`lore rebuild` and `lore fingerprint`: throw the graph away, replay the log, compare."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from infra.settings import Settings
from services.bootstrap import Lore, bootstrap
from services.rebuild import rebuild as rebuild_graph

console = Console()

SHARD = typer.Option(None, "--shard", min=0, help="With LORE_NEO4J_SHARDS: the shard whose Neo4j this "
                     "works on (0 = the first URI), which follows only its own partitions of the log.")


def _open(shard: int | None) -> tuple[Lore, list[int] | None]:
    """Lore wired to one Neo4j, and the partitions of the log that graph follows (None: all)."""
    settings = Settings(embedder="none")
    try:
        lore = bootstrap(settings.one_shard(shard, "work on"))
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from error
    if not settings.neo4j_shards:
        return lore, None
    from infra.eventlog.kafka import topic_partitions
    from infra.eventlog.shards import shard_partitions

    assert settings.kafka_bootstrap and shard is not None
    count = topic_partitions(settings.kafka_access, settings.events_topic)
    return lore, shard_partitions(shard, settings.shard_count, count)


def rebuild(
    batch_size: int = typer.Option(10_000, help="Events per Neo4j transaction."),
    bulk: bool = typer.Option(
        False, "--bulk",
        help="For big logs, when downtime is accepted: fold the log in memory, write it as CSV and load "
             "it with neo4j-admin's offline import into a fresh database, then build the indexes. "
             "Needs the local stack (`lore infra up`): Neo4j is stopped during the import. For another "
             "Neo4j it writes the CSV files and prints the command to run."),
    csv_dir: Path = typer.Option(None, "--csv-dir", help="With --bulk: where the CSV files go (kept)."),
    after_import: Path = typer.Option(
        None, "--after-import",
        help="After loading --bulk's CSV by hand: make the indexes and finish what CSV cannot say."),
    shard: int = SHARD,
) -> None:
    """Wipe the graph and replay the whole event log into it. Makes no decision, no model call."""
    settings = Settings(embedder="none")
    if bulk or after_import:
        if settings.neo4j_shards:
            console.print("[red]error:[/red] --bulk rebuilds one Neo4j from the whole log; with "
                          "LORE_NEO4J_SHARDS rebuild each shard with `lore rebuild --shard I`")
            raise typer.Exit(2)
        from services.cli.bulk_rebuild import run_bulk

        run_bulk(settings, batch_size, csv_dir, after_import)
        return
    lore, partitions = _open(shard)
    try:
        # A shard's part of the log: its partitions' positions (the log is never trimmed).
        total = lore.event_log.count() if partitions is None else \
            sum(end + 1 for p, end in lore.event_log.end().items() if p in partitions)
        started = time.monotonic()
        with Progress(TextColumn("replaying"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[rate]} log entries/s"), TimeRemainingColumn(),
                      console=console) as progress:
            task = progress.add_task("replay", total=total, rate="-")

            def advance(n: int) -> None:
                progress.advance(task, n)
                done = progress.tasks[0].completed
                progress.update(task, rate=f"{done / max(time.monotonic() - started, 1e-9):,.0f}")

            applied = rebuild_graph(lore, batch_size=batch_size, on_progress=advance, partitions=partitions)
        elapsed = time.monotonic() - started
        console.print(f"rebuilt {applied:,} events in {elapsed:.1f}s "
                      f"({applied / max(elapsed, 1e-9):,.0f} events/s)")
    finally:
        lore.close()


def catch_up(
    batch_size: int = typer.Option(10_000, help="Events per Neo4j transaction."),
    shard: int = SHARD,
) -> None:
    """Apply to the graph whatever the log holds beyond the graph's checkpoint (safe to repeat)."""
    lore, partitions = _open(shard)
    try:
        total = lore.projector.lag(lore.event_log, partitions)
        with Progress(TextColumn("catching up"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console) as progress:
            task = progress.add_task("catch-up", total=total)
            applied = lore.projector.catch_up(
                lore.event_log, batch_size=batch_size, on_progress=lambda n: progress.advance(task, n),
                partitions=partitions)
        console.print(f"applied {applied:,} events")
    finally:
        lore.close()


def fingerprint(
    user: str = typer.Option(None, "--user", help="Only this person's part of the graph."),
    shard: int = SHARD,
) -> None:
    """Print a canonical hash of the graph: equal graphs print equal fingerprints."""
    lore, _ = _open(shard)
    try:
        console.print(lore.projector.fingerprint(user))
    finally:
        lore.close()


def compact() -> None:
    """Rebuild the graph into a fresh store of the local Neo4j (`lore infra up`): after an erasure,
    no byte of the person is left in Neo4j's files. Neo4j restarts: Lore pauses meanwhile."""
    from services.compact import NotLocal
    from services.compact import compact as compact_graph

    started = time.monotonic()
    try:
        applied = compact_graph(Settings(), on_progress=console.log)
    except NotLocal as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from error
    console.print(f"compacted: {applied:,} events replayed into a new store in "
                  f"{time.monotonic() - started:.1f}s")
