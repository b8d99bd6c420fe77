"""`lore keys`: API keys for the HTTP API, the MCP server and the page. A key belongs to one
tenant and has one scope; only its hash is kept, so the key itself is shown once, at creation."""

from __future__ import annotations

from datetime import UTC, datetime

import typer
from rich.console import Console
from rich.table import Table

from domain.access import Scope, issue_key, valid_tenant
from infra.apikeys import open_api_key_store
from infra.settings import Settings

keys_app = typer.Typer(
    help="API keys (LORE_AUTH=keys): each maps to a tenant, whose people it alone can reach.",
    no_args_is_help=True,
)
console = Console()


@keys_app.command()
def create(
    tenant: str = typer.Option(..., help="The tenant the key acts for ('default': the operator's)."),
    scope: str = typer.Option("write", help="read (list, search, context, export), write (also "
                              "remember, forget, erase) or admin (also settings, maintenance)."),
    name: str = typer.Option("", help="A note to tell keys apart (who or what uses it)."),
) -> None:
    """Make a key and print it once: store it where its user keeps secrets."""
    if not valid_tenant(tenant):
        console.print(f"[red]error:[/red] invalid tenant {tenant!r}: lower-case letters, digits, '_' and '-'")
        raise typer.Exit(2)
    try:
        level = Scope.named(scope)
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from error
    token, key = issue_key(tenant, level, datetime.now(UTC), name)
    store = open_api_key_store(Settings())
    try:
        store.add(key)
    finally:
        store.close()
    # The note on stderr, the key alone on stdout: KEY=$(lore keys create --tenant acme)
    Console(stderr=True).print(f"key {key.key_id} for tenant [bold]{tenant}[/bold], scope {scope} "
                               f"({store.name} key store). It is shown this once:", highlight=False)
    typer.echo(token)


@keys_app.command("list")
def list_keys() -> None:
    """The keys there are (never their secrets)."""
    store = open_api_key_store(Settings())
    try:
        keys = store.all()
    finally:
        store.close()
    table = Table("key id", "tenant", "scope", "created", "name")
    for key in keys:
        table.add_row(key.key_id, key.tenant, key.scope.name.lower(),
                      key.created_at.isoformat(timespec="seconds"), key.name)
    console.print(table)


@keys_app.command()
def revoke(key_id: str = typer.Argument(..., help="The key's id (`lore keys list`).")) -> None:
    """Revoke a key: requests with it are refused (401) from now on, on every server."""
    store = open_api_key_store(Settings())
    try:
        found = store.revoke(key_id)
    finally:
        store.close()
    if not found:
        console.print(f"[red]error:[/red] no key {key_id!r}")
        raise typer.Exit(1)
    console.print(f"revoked {key_id}")
