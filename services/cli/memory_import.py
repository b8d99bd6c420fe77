"""`lore import --markdown FILE --user ID`: an edited file of `lore export --markdown` read back as
one revision: new lines recorded, changed lines corrected, removed lines forgotten, to-do boxes
completed or reopened. A dry run (the default) shows the changes; --apply carries them out, all of
them or none."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import typer
from rich.console import Console

from domain.commands import ReviseMemories
from infra.settings import Settings
from services.bootstrap import bootstrap
from services.markdown import MarkdownError
from services.memory_file import revision
from services.shards import person_settings

console = Console(stderr=True)
SIGNS = {"record": "+", "correct": "~", "forget": "-", "complete": "x", "reopen": "o"}


def import_file(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="The edited file."),
    user_id: str = typer.Option(..., "--user", help="The person the file is of."),
    as_markdown: bool = typer.Option(True, "--markdown", help="The file is Markdown (the only format "
                                     "read back)."),
    apply: bool = typer.Option(False, "--apply", help="Carry the changes out (default: only show them)."),
) -> None:
    """Show (or, with --apply, carry out) what an edited Markdown file changes."""
    if not as_markdown:
        raise typer.BadParameter("only --markdown files are read back")
    lore = bootstrap(person_settings(Settings(extractor="off", layers="off", questions="off"), user_id))
    try:
        try:
            _, plan = revision(lore.queries, user_id, path.read_text(encoding="utf-8"))
        except MarkdownError as bad:
            console.print(f"[red]{path}:{bad.line}: {bad}[/red]")
            raise typer.Exit(2) from bad
        for change in plan.changes:
            where = f"line {change.line}" if change.line else "removed"
            was = f"  (was: {change.was})" if change.was else ""
            console.print(f"{SIGNS[change.action]} {change.action:<8} {where:<10} {change.content}{was}")
        console.print(f"{len(plan.record)} new, {len(plan.correct)} corrected, {len(plan.forget)} forgotten, "
                      f"{len(plan.complete)} completed, {len(plan.reopen)} reopened, {plan.kept} unchanged")
        if plan.empty or not apply:
            if not plan.empty:
                console.print("a dry run: nothing changed (--apply carries it out)")
            return
        decision = ReviseMemories(
            command_id=f"import-{uuid.uuid4()}", user_id=user_id, occurred_at=datetime.now(UTC),
            record=tuple(plan.record), correct=tuple(plan.correct), forget=tuple(plan.forget),
            complete=tuple(plan.complete), reopen=tuple(plan.reopen), source="an edited Markdown file")
        lore.outbox.send_and_wait([decision])
        found = lore.outcomes.outcome(user_id, decision.command_id)
        if found is not None and found.outcome == "rejected":
            console.print(f"[red]refused, nothing changed: {found.reason}[/red]")
            raise typer.Exit(1)
        console.print(f"applied as one revision ({decision.command_id})")
    finally:
        lore.close()
