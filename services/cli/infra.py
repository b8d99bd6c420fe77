"""`lore infra`: the local Neo4j and Kafka servers, for machines without Docker."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from infra.local import LocalStack, StartError
from infra.local.credentials import ensure_passwords
from infra.local.jars import JarAssemblyError
from infra.settings import Settings

infra_app = typer.Typer(
    help="Run Neo4j 5.26 and Kafka 3.9 as local Java processes (jars from Maven Central).",
    no_args_is_help=True,
)
console = Console()


def _stack() -> LocalStack:
    return LocalStack.from_settings(Settings())


@infra_app.command()
def up(
    secure: bool = typer.Option(
        False, "--secure",
        help="Ask for passwords: Neo4j's user neo4j and Kafka's SASL/PLAIN user (LORE_KAFKA_USERNAME, "
        "default lore). Passwords not already set are made at random and written to ./.env "
        "(LORE_NEO4J_PASSWORD, LORE_KAFKA_PASSWORD), which Lore reads; later starts keep them.",
    ),
) -> None:
    """Fetch the jars (first time only), start Neo4j and Kafka, wait until both answer.

    Without passwords (the default) both servers bind 127.0.0.1 and trust whoever reaches them.
    """
    if secure and (written := ensure_passwords(Path(".env"))):
        console.print(f"wrote {', '.join(written)} to .env (readable by you only)")
    stack = _stack()
    started = time.monotonic()
    try:
        with console.status("starting Neo4j and Kafka…"):
            stack.up(on_progress=lambda msg: console.log(msg))
    except (StartError, JarAssemblyError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    console.print(f"[green]ready[/green] in {time.monotonic() - started:.1f}s")
    _print_status(stack)
    login = "user neo4j, password LORE_NEO4J_PASSWORD" if stack.neo4j.password else "no auth"
    console.print(f"Neo4j Browser: {stack.neo4j.browser_url}  (connect to {stack.neo4j.bolt_uri}, {login})")
    if stack.kafka.password:
        console.print(f"Kafka: {stack.kafka.bootstrap}, SASL_PLAINTEXT with PLAIN, user {stack.kafka.user}, "
                      "password LORE_KAFKA_PASSWORD")


@infra_app.command()
def down() -> None:
    """Stop the local servers (their data stays)."""
    stopped = _stack().down()
    console.print(f"stopped: {', '.join(stopped)}" if stopped else "nothing was running")


@infra_app.command()
def status() -> None:
    """Show whether each server runs and answers. Exit code 1 when one does not."""
    stack = _stack()
    if not _print_status(stack):
        raise typer.Exit(1)


@infra_app.command()
def wipe(yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask.")) -> None:
    """Stop the servers and delete their data and logs (the jar cache stays)."""
    stack = _stack()
    if not yes:
        typer.confirm(f"Delete everything under {stack.neo4j.home} and {stack.kafka.home}?", abort=True)
    stack.wipe()
    console.print("wiped")


def _print_status(stack: LocalStack) -> bool:
    table = Table("server", "pid", "answering", "address", "data and logs")
    statuses = stack.status()
    for s in statuses:
        table.add_row(
            s.name, str(s.pid or "-"), "[green]yes[/green]" if s.answering else "[red]no[/red]",
            s.address, str(s.home),
        )
    console.print(table)
    return all(s.answering for s in statuses)
