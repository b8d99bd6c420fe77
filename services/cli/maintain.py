"""`lore maintain`: apply the lifecycle rules now, or at a chosen moment, or say what they would do."""

from __future__ import annotations

import json
from datetime import datetime

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from domain.model import utc
from infra.settings import Settings
from services.bootstrap import bootstrap, maintenance_service
from services.lifecycle.maintenance import MaintenanceBusy
from services.shards import person_settings

console = Console(stderr=True)


def maintain(
    user: str | None = typer.Option(None, "--user", help="Only this person (default: everyone)."),
    as_of: datetime | None = typer.Option(None, "--as-of", help="Apply the rules as at this moment "
                                          "(ISO 8601, UTC unless it says; default: now). The same moment "
                                          "gives the same decisions."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say what would change; change nothing."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON on standard output."),
    shard: int | None = typer.Option(None, "--shard", min=0, help="With LORE_NEO4J_SHARDS: the shard "
                                     "whose people this runs over (0 = the first URI); run it for each."),
) -> None:
    """Decay, forget, compress and expire, as README "Maintenance" says: memories unused for long
    lose importance, then are forgotten (restorable); old low-use ones of a kind are compressed into
    one that keeps their words; conversations past their retention lose their words. Every change
    is an event of the run; the report is also at GET /v1/maintenance/runs."""
    settings = Settings(extractor="off", layers="off", questions="off")
    try:
        if user is not None and shard is None:
            settings = person_settings(settings, user)
        else:
            settings = settings.one_shard(shard, "maintain (run it on each)")
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from error
    lore = bootstrap(settings)
    try:
        service = maintenance_service(lore)
        with Progress(TextColumn("[bold]maintenance"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("people"), TimeElapsedColumn(), console=console, transient=True) as bar:
            task = bar.add_task("people", total=None)
            report = service.run(as_of=utc(as_of) if as_of else None, user_id=user, dry_run=dry_run,
                                 on_progress=lambda n: bar.advance(task, n))
    except MaintenanceBusy as busy:
        console.print(f"[red]error:[/red] {busy}")
        raise typer.Exit(1) from busy
    finally:
        lore.close()
    if as_json:
        typer.echo(json.dumps(report.as_dict()))
        return
    table = Table(title=f"maintenance {report.run_id}" + (" (dry run: nothing changed)" if dry_run else ""))
    for name in ("as_of", "users", "evaluated", "forgotten", "demoted", "compressed", "contradictions",
                 "expired", "duration_s"):
        table.add_row(name.replace("_", " "), str(report.as_dict()[name]))
    console.print(table)
