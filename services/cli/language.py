"""`lore language L`: move the store to another language (README, "Chinese")."""

from __future__ import annotations

from typing import Literal

import typer
from pydantic import ValidationError
from rich.console import Console

from infra.settings import Settings
from services.language import move_language

console = Console(stderr=True)


def language(
    to: str = typer.Argument(..., help="en (English) or zh (Chinese), as LORE_LANGUAGE names them."),
    shard: int | None = typer.Option(None, "--shard", min=0, help="With LORE_NEO4J_SHARDS: the shard to "
                                     "move (0 = the first URI); run it for each."),
) -> None:
    """Move the store to another language: its word indexes made for the new one (jieba's words
    for zh) and the old one's dropped. What is written stays as it was. Then set LORE_LANGUAGE,
    restart `lore serve` and the workers, and send again what was refused meanwhile:
    `lore dlq replay --code language_changed`."""
    if to not in ("en", "zh"):
        console.print(f"[red]error:[/red] the language is en or zh, not {to!r}")
        raise typer.Exit(2)
    try:
        settings = Settings().one_shard(shard, "move the language of")
    except (ValueError, ValidationError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from error
    chosen: Literal["en", "zh"] = "zh" if to == "zh" else "en"
    was = move_language(settings, chosen)
    if was == chosen:
        console.print(f"the store already reads text in {chosen}")
    else:
        console.print(f"the store read text in {was or 'nothing yet'}; it reads {chosen} now. "
                      f"Set LORE_LANGUAGE={chosen} and restart.")
