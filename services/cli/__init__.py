"""The `lore` command."""

from __future__ import annotations

import logging
import sys

import typer
from pythonjsonlogger.json import JsonFormatter
from rich.logging import RichHandler

from services.cli.dlq import dlq_app
from services.cli.export import export
from services.cli.extract import extract, reextract
from services.cli.infra import infra_app
from services.cli.kafka import asyncapi, produce, worker
from services.cli.keys import keys_app
from services.cli.language import language
from services.cli.maintain import maintain
from services.cli.memory_import import import_file
from services.cli.migrate import migrate_log
from services.cli.page_links import page_links_app
from services.cli.rebuild import catch_up, compact, fingerprint, rebuild
from services.cli.reembed import reembed
from services.cli.serve import serve

app = typer.Typer(
    name="lore",
    help="Lore: a temporal, event-sourced memory service for AI assistants.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(infra_app, name="infra")
app.add_typer(dlq_app, name="dlq")
app.add_typer(keys_app, name="keys")
app.add_typer(page_links_app, name="page-links")
app.command()(serve)
app.command()(rebuild)
app.command()(fingerprint)
app.command()(compact)
app.command("migrate-log")(migrate_log)
app.command("catch-up")(catch_up)
app.command()(worker)
app.command()(produce)
app.command()(asyncapi)
app.command()(extract)
app.command()(reextract)
app.command()(export)
app.command("import")(import_file)
app.command()(maintain)
app.command()(reembed)
app.command()(language)


@app.callback()
def _configure(verbose: bool = typer.Option(False, "--verbose", "-v", help="Debug logging.")) -> None:
    if sys.stderr.isatty():
        handler: logging.Handler = RichHandler(show_path=False, rich_tracebacks=True)
        handler.setFormatter(logging.Formatter("%(message)s"))
    else:  # a service's logs go to a collector: one JSON object a line
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                                           rename_fields={"levelname": "level", "asctime": "time"}))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler])
    for noisy in ("kafka", "aiokafka", "neo4j", "httpx", "faststream.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # A round skipped because the one before still runs (a slow start) is no one's concern.
    logging.getLogger("apscheduler").setLevel(logging.ERROR)


def main() -> None:
    app()
