"""`lore extract` and `lore reextract`: the extraction backlog, its cost, and extracting again."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from domain.commands import ExtractEpisode
from domain.model import utc
from infra.settings import Settings
from services.bootstrap import bootstrap
from services.extraction.llm_extractor import estimated_tokens, extraction_prompt, transcript
from services.wire import to_sealed_message

console = Console()
# What a model answers is not known before it answers: a typical extraction's answer.
ANSWER_TOKENS = 150


def extract(
    dry_run: bool = typer.Option(False, "--dry-run", help="Only estimate what the backlog would cost."),
    limit: int = typer.Option(0, help="Answer at most this many (0: the whole backlog)."),
) -> None:
    """Answer the extractions that are due (e.g. after running with LORE_EXTRACTOR=off), here
    and now, with the extractor the settings name. With --dry-run, count them and estimate the
    model tokens they would take. In the embedded mode, stop `lore serve` first: one writer at a time."""
    lore = bootstrap(Settings())
    try:
        due = lore.extractions.due(None, limit=1_000_000)
        if dry_run:
            # The prompt as the model gets it (the deployment's categories too), counted as the
            # context budget counts: three characters a token, which errs high.
            system = extraction_prompt(lore.settings.taxonomy).system
            prompt = sum(estimated_tokens(system) + estimated_tokens(transcript([
                m for m in lore.extractions.messages(d.user_id, d.window) if m is not None])) for d in due)
            table = Table(title="Extraction backlog (estimate: 3 characters a token, "
                                f"{ANSWER_TOKENS} tokens an answer)")
            for column in ("extractions due", "people", "prompt tokens", "answer tokens", "total"):
                table.add_column(column, justify="right")
            table.add_row(f"{len(due):,}", f"{len({d.user_id for d in due}):,}", f"{prompt:,}",
                          f"{ANSWER_TOKENS * len(due):,}", f"{prompt + ANSWER_TOKENS * len(due):,}")
            console.print(table)
            return
        process = lore.extraction
        if process is None:
            console.print("[red]error:[/red] extraction is off (LORE_EXTRACTOR=off)")
            raise typer.Exit(2)
        total = min(len(due), limit) if limit else len(due)
        done = 0
        with Progress(TextColumn("extracting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=console) as progress:
            task = progress.add_task("extract", total=total)
            while done < total and (answered := process.run_once(limit=min(20, total - done))):
                done += answered
                progress.advance(task, answered)
        console.print(f"answered {done:,} extractions with {process.extractor.name}")
    finally:
        lore.close()


def reextract(
    since: datetime = typer.Option(..., help="Episodes that happened since this time (ISO 8601)."),
    user: str = typer.Option(None, "--user", help="Only this person's episodes."),
    model: str = typer.Option(None, "--model", help="Extract with this model of the configured endpoint "
                              "(LORE_LLM_BASE_URL) instead of LORE_LLM_MODEL."),
) -> None:
    """Ask for the episodes since a time to be extracted again, as new events (an ExtractEpisode
    command each). What they say that a memory holds already from the same messages is left as
    it is. The extraction process of `lore serve` / `lore worker` answers them (or `lore extract`),
    with --model's model when one is named."""
    settings = Settings(embedder="none")
    lore = bootstrap(settings)
    try:
        episodes = lore.extractions.episodes_since(utc(since), user)
        now = datetime.now(UTC)
        batch = uuid.uuid4().hex[:12]
        commands = [ExtractEpisode(command_id=f"reextract-{batch}-{i}", user_id=person, occurred_at=now,
                                   episode_id=episode, model=model)
                    for i, (person, episode) in enumerate(episodes)]
        if settings.uses_kafka_log and settings.kafka_bootstrap:
            from kafka import KafkaProducer

            kafka = settings.kafka_access
            producer = KafkaProducer(**kafka.kafka_python(acks="all", enable_idempotence=True))
            for command in commands:
                producer.send(settings.commands_topic, key=command.user_id.encode(),
                              value=to_sealed_message(command, lore.sealer))
            producer.flush()
            producer.close()
        else:
            for start in range(0, len(commands), 500):
                lore.commands.handle(commands[start:start + 500])
        console.print(f"asked for {len(commands):,} episodes to be extracted again")
    finally:
        lore.close()
