"""`lore page-links rotate`: a new secret for page links, so that every link given so far stops
opening (each server reads the secret file again when it changes)."""

from __future__ import annotations

import typer
from rich.console import Console

from infra.page_secret import PageSecret
from infra.settings import Settings

console = Console(stderr=True)
page_links_app = typer.Typer(help="Page links (POST /v1/users/{id}/page-token): revoke them all.",
                             no_args_is_help=True)


@page_links_app.command()
def rotate() -> None:
    """Sign page links with a new secret: every link given so far stops opening ("revoked")."""
    settings = Settings()
    try:
        PageSecret(settings.page_secret_path, settings.page_secret).rotate()
    except ValueError as refused:
        console.print(f"[red]{refused}[/red]")
        raise typer.Exit(1) from refused
    console.print(f"page links revoked: a new secret in {settings.page_secret_path}")
