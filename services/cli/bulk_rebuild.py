"""`lore rebuild --bulk`: the phases with a progress bar each, and the rate at the end."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from infra.settings import Settings
from services.bulk_rebuild import BulkProgress, NotLocal, after_import, bulk_rebuild

console = Console()


class _Bars(BulkProgress):
    """One line per phase; the fold's counts log entries (its total is known), the rest spin."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task: int | None = None

    def phase(self, name: str, total: int | None = None) -> None:
        if self.task is not None:
            task = self.progress.tasks[self.task]
            self.progress.update(self.task, total=task.completed or 1, completed=task.completed or 1)
        self.task = self.progress.add_task(name, total=total)

    def advance(self, n: int) -> None:
        if self.task is not None:
            self.progress.advance(self.task, n)

    def close(self) -> None:
        self.phase("done", 1)
        if self.task is not None:
            self.progress.update(self.task, completed=1)


def run_bulk(settings: Settings, batch_size: int, csv_dir: Path | None, after: Path | None) -> None:
    if after is not None:
        after_import(settings, after)
        console.print("indexes made; the graph is ready")
        return
    started = time.monotonic()
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=console) as progress:
            bars = _Bars(progress)
            report = bulk_rebuild(settings, csv_dir=csv_dir, batch_size=batch_size, progress=bars)
            bars.close()
    except NotLocal as not_local:
        console.print(f"[yellow]not loaded:[/yellow] {not_local}")
        raise typer.Exit(2) from not_local
    elapsed = time.monotonic() - started
    phases = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in report.seconds.items())
    console.print(f"rebuilt {report.events:,} events ({report.nodes:,} nodes, {report.relationships:,} "
                  f"relationships) in {elapsed:.1f}s ({report.events / max(elapsed, 1e-9):,.0f} events/s; "
                  f"{phases})")
