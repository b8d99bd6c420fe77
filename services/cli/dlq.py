"""`lore dlq`: what is in the dead-letter topic, and sending letters back once their cause is fixed."""

from __future__ import annotations

from collections import Counter
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from infra.kafka_publish import RECORD_OVERHEAD
from infra.settings import Settings
from services.worker import CODE_HEADER, REASON_HEADER

dlq_app = typer.Typer(
    help="The dead-letter topic (LORE_DEAD_LETTER_TOPIC): commands that could not be applied, "
    "each with its reason.",
    no_args_is_help=True,
)
console = Console()
# Letters whose cause is outside the command: once fixed (`lore rebuild`, a bug mended), they apply.
RETRYABLE = ("projection_mismatch", "projection_outdated", "graph_needs_rebuild", "embedder_changed",
             "language_changed", "internal_error")


def _settings() -> Settings:
    settings = Settings()
    if not settings.kafka_bootstrap:
        console.print("[red]error:[/red] set LORE_KAFKA_BOOTSTRAP (e.g. 127.0.0.1:9092)")
        raise typer.Exit(2)
    return settings


def _consumer(settings: Settings, group: str | None) -> Any:
    from kafka import KafkaConsumer

    return KafkaConsumer(settings.dead_letter_topic, **settings.kafka_access.kafka_python(
        group_id=group, auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=3000))


def _source(letter: object) -> tuple[str, ...]:
    return tuple(_header(letter, f"lore.dlq.source.{key}") for key in ("topic", "partition", "offset"))


def _header(letter: object, name: str) -> str:
    found = dict(getattr(letter, "headers", None) or []).get(name)
    return found.decode(errors="replace") if found else ""


@dlq_app.command("list")
def list_letters(limit: int = typer.Option(50, help="Show at most this many, the newest.")) -> None:
    """Show the dead letters: where each came from, its code and its reason."""
    consumer = _consumer(_settings(), group=None)
    letters = list(consumer)
    consumer.close()
    table = Table("offset", "key", "code", "reason")
    for letter in letters[-limit:]:
        table.add_row(str(letter.offset), (letter.key or b"").decode(errors="replace"),
                      _header(letter, CODE_HEADER), _header(letter, REASON_HEADER)[:120])
    console.print(table)
    counts = Counter(_header(letter, CODE_HEADER) or "?" for letter in letters)
    by_code = ", ".join(f"{c} {n:,}" for c, n in counts.most_common())
    console.print(f"{len(letters):,} dead letters: {by_code}")


@dlq_app.command()
def replay(
    code: list[str] = typer.Option(list(RETRYABLE), "--code",
                                   help="Send back letters with this code (repeatable)."),
    group: str = typer.Option("lore-dlq-replay", help="Consumer group that remembers what was sent back."),
) -> None:
    """Send dead letters back to the command topic, each once, keyed as they came.

    By default only those whose cause lies outside the command (the graph needed a rebuild, an
    internal error): a refused or malformed command would be refused again. Commands applied
    meanwhile are duplicates and take effect once."""
    from kafka import KafkaProducer

    settings = _settings()
    consumer = _consumer(settings, group)
    # A letter may have been sent twice (its batch consumed again): send each source message once.
    chosen = list({_source(letter): letter for letter in consumer
                   if _header(letter, CODE_HEADER) in code}.values())
    producer = KafkaProducer(**settings.kafka_access.kafka_python(
        acks="all", enable_idempotence=True, max_request_size=settings.max_command_bytes + RECORD_OVERHEAD))
    with Progress(TextColumn("sending back"), BarColumn(), MofNCompleteColumn(), console=console) as progress:
        task = progress.add_task("replay", total=len(chosen))
        for letter in chosen:
            producer.send(settings.commands_topic, key=letter.key, value=letter.value)
            progress.advance(task)
        producer.flush()
    producer.close()
    consumer.commit()  # only once they are back on the command topic
    consumer.close()
    console.print(f"sent {len(chosen):,} dead letters back to {settings.commands_topic}")
