"""`lore reembed --model M`: move the store's vectors to another embedding model, as events."""

from __future__ import annotations

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from infra.embedding import open_embedder
from infra.settings import Settings
from services.bootstrap import bootstrap, reembed_service
from services.reembed import ReembedStuck
from services.shards import person_settings

console = Console(stderr=True)


def reembed(
    model: str = typer.Option(..., "--model", help="The embedder to move to, as LORE_EMBEDDER names it: "
                              "local (MiniLM), e5-small-v2, bge-small-en-v1.5, or openai (with "
                              "LORE_EMBEDDING_MODEL and the endpoint's settings)."),
    user: str | None = typer.Option(None, "--user", help="Only this person (default: everyone)."),
    shard: int | None = typer.Option(None, "--shard", min=0, help="With LORE_NEO4J_SHARDS: the shard "
                                     "whose people this runs over (0 = the first URI); run it for each."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say how many items would get a new vector; "
                                 "change nothing."),
) -> None:
    """Give every memory, conversation turn and summary a vector of another model, recorded as
    events (so `lore rebuild` puts the same vectors back, without the model). Resumable: run it
    again after a stop and it goes on where it was. While it runs, searches compare a query only
    with vectors of its own model; once it is done, set LORE_EMBEDDER to the new model and restart
    `lore serve` and the workers. README, "Embedders"."""
    try:
        settings = Settings(embedder=model, extractor="off", layers="off", questions="off")
        if user is not None and shard is None:
            settings = person_settings(settings, user)
        else:
            settings = settings.one_shard(shard, "move the vectors of")
    except (ValueError, ValidationError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from error
    embedder = open_embedder(settings)
    if embedder is None:
        console.print("[red]error:[/red] --model none keeps no vectors: there is nothing to move to")
        raise typer.Exit(2)
    # This process writes no vectors of its own model and refuses none: it only sends the new ones.
    lore = bootstrap(settings, embedder=None)
    try:
        service = reembed_service(lore, embedder)
        total = service.remaining(user)
        if dry_run or total == 0:
            console.print(f"{total:,} items would get a vector of {embedder.model}" if dry_run else
                          f"every item already has a vector of {embedder.model}: nothing to do")
            return
        columns = (TextColumn(f"[bold]reembed → {embedder.model}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("items"), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console) as bar:
            task = bar.add_task("items", total=total)
            report = service.run(user, on_progress=lambda n: bar.advance(task, n))
    except ReembedStuck as stuck:
        console.print(f"[red]error:[/red] {stuck}")
        raise typer.Exit(1) from stuck
    finally:
        lore.close()
    console.print(f"{report.vectors:,} vectors of {report.model} recorded for {report.people:,} people in "
                  f"{report.seconds:.1f} s" + (", the vector indexes made again for their size"
                                                if report.indexes_made_again else ""))
    console.print(f"Now set LORE_EMBEDDER={model} and restart `lore serve` and the workers.")
