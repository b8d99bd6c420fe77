"""`lore export`: everything Lore holds about a person, as JSON Lines (what GET .../export streams)."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext
from pathlib import Path

import typer
from rich.console import Console

from infra.settings import Settings
from services.bootstrap import bootstrap
from services.shards import person_settings

console = Console(stderr=True)


def export(
    user_id: str = typer.Argument(..., help="The person."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write here (default: standard output)."),
) -> None:
    """Write a person's memories (with their windows and history), episodes, session summaries and
    profile versions as JSON Lines, one object a line, read from the graph page by page."""
    settings = Settings(embedder="none", extractor="off", layers="off", questions="off")
    lore = bootstrap(person_settings(settings, user_id))
    counts: dict[str, int] = {}
    try:
        with out.open("w", encoding="utf-8") if out else nullcontext(sys.stdout) as sink:
            for item in lore.exports.items(user_id):
                counts[item["type"]] = counts.get(item["type"], 0) + 1
                sink.write(json.dumps(item, ensure_ascii=False) + "\n")
    finally:
        lore.close()
    said = ", ".join(f"{n:,} {kind}{'s' if n != 1 else ''}" for kind, n in counts.items()) or "nothing"
    console.print(f"exported {user_id}: {said}" + (f" to {out}" if out else ""))
