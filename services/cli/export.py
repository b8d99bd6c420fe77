"""`lore export`: everything Lore holds about a person, as JSON Lines (what GET .../export streams),
or (--markdown) as the file a person can read, edit and give back with `lore import --markdown`."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from datetime import UTC, datetime
from pathlib import Path

import typer
from rich.console import Console

from infra.settings import Settings
from services.bootstrap import bootstrap
from services.memory_file import markdown as memory_file
from services.shards import person_settings

console = Console(stderr=True)


def export(
    user_id: str = typer.Argument(..., help="The person."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write here (default: standard output)."),
    as_markdown: bool = typer.Option(False, "--markdown", help="The memories in force as a Markdown file "
                                     "to read and edit (who they are now, then memories by kind with "
                                     "their dates and history), not everything as JSON Lines."),
) -> None:
    """Write a person's memories (with their windows and history), episodes, session summaries and
    profile versions as JSON Lines, one object a line, read from the graph page by page."""
    settings = Settings(embedder="none", extractor="off", layers="off", questions="off")
    lore = bootstrap(person_settings(settings, user_id))
    counts: dict[str, int] = {}
    try:
        with out.open("w", encoding="utf-8") if out else nullcontext(sys.stdout) as sink:
            if as_markdown:
                sink.writelines(memory_file(lore.queries, lore.layer_queries, user_id, datetime.now(UTC)))
                console.print(f"exported {user_id} as Markdown" + (f" to {out}" if out else ""))
                return
            for item in lore.exports.items(user_id):
                counts[item["type"]] = counts.get(item["type"], 0) + 1
                sink.write(json.dumps(item, ensure_ascii=False) + "\n")
    finally:
        lore.close()
    said = ", ".join(f"{n:,} {kind}{'s' if n != 1 else ''}" for kind, n in counts.items()) or "nothing"
    console.print(f"exported {user_id}: {said}" + (f" to {out}" if out else ""))
