"""`lore rebuild --bulk`: the projection folded in memory, written as CSV, loaded offline.

Replaying a big log through Cypher transactions is bound by Neo4j's write path; neo4j-admin's
import writes the store files directly. The fold (projections/graph/fold.py) computes what the
replay would leave, checkpoints included, so that `catch_up` goes on from where the log ended.
It runs in one process per core, each over a share of the people (services/bulk_fold.py), each
writing its part of the CSV. neo4j-admin imports them into a staging folder while Neo4j keeps
serving the old store; Neo4j is then restarted once on the new one, and the indexes are built.
Only a Neo4j that Lore runs (`lore infra up`) can be loaded this way. For another, the CSV files
are written and the neo4j-admin command to run is named.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from infra.local import LocalStack
from infra.local.neo4j_import import ImportFiles, admin_command, staged_import
from infra.settings import Settings
from projections.graph.bulk_csv import CsvFiles
from projections.graph.bulk_load import dimensions_now, finish_import, language_now
from projections.graph.fold import Folder, Graph
from projections.graph.projector import SHARDS, VERSION, shard_of
from services.bootstrap import Lore, bootstrap
from services.bulk_fold import fold_to_csv


class NotLocal(RuntimeError):
    """Neo4j is not Lore's own: the CSV files are written, the import is the operator's to run."""


@dataclass
class BulkReport:
    events: int = 0
    entries: int = 0
    nodes: int = 0
    relationships: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def total_s(self) -> float:
        return sum(self.seconds.values())


class BulkProgress:
    """What a caller is told: a phase starts (with how many steps, if known), steps are done."""

    def phase(self, name: str, total: int | None = None) -> None: ...

    def advance(self, n: int) -> None: ...


def fold_log(settings: Settings, batch_size: int = 10_000,
             on_entries: Callable[[int], None] = lambda _: None) -> tuple[Graph, int, int, int | None]:
    """The whole log folded in this process: the graph, events applied, log entries read, and the
    vector index's dimension (what tests compare with the replay, node by node)."""
    lore = bootstrap(settings.model_copy(update={"embedder": "none"}))
    try:
        return _fold(lore, batch_size, on_entries)
    finally:
        lore.close()


def _fold(lore: Lore, batch_size: int,
          on_entries: Callable[[int], None]) -> tuple[Graph, int, int, int | None]:
    dimensions = dimensions_now(lore.driver, lore.settings.neo4j_database)
    projector = lore.projector
    folder = Folder(projector.name, SHARDS, shard_of, projector.log_id, VERSION)
    applied = entries = 0
    for batch in lore.event_log.read_entries(lore.event_log.end(), batch_size=batch_size):
        applied += folder.apply(batch)
        n = len({(s.partition, s.position) for s in batch})
        entries += n
        on_entries(n)
    return folder.graph, applied, entries, dimensions


def default_workers() -> int:
    """One fold per core: the fold is Python, one core each."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def bulk_rebuild(settings: Settings, stack: LocalStack | None = None, csv_dir: Path | None = None,
                 batch_size: int = 10_000, progress: BulkProgress | None = None,
                 workers: int | None = None) -> BulkReport:
    """Replace the local Neo4j's database by the projection of the whole log."""
    progress = progress or BulkProgress()
    settings = settings.model_copy(update={"embedder": "none"})
    stack = stack or LocalStack.from_settings(settings)
    local = settings.neo4j_uri.rstrip("/") == stack.neo4j.bolt_uri
    report = BulkReport()
    keep = csv_dir is not None or not local
    directory = csv_dir or Path(tempfile.mkdtemp(prefix="lore-bulk-", dir=settings.home.resolve()))
    lore = bootstrap(settings)
    try:
        # The new database reads text in the language the old one did (its own indexes say it).
        language = language_now(lore.driver, settings.neo4j_database) or settings.language
        # The vector index keeps the dimension it was made with (the log's vectors say it otherwise).
        dimensions = dimensions_now(lore.driver, settings.neo4j_database)
        progress.phase("reading and folding the log", lore.event_log.count())
    finally:
        lore.close()
    folded = fold_to_csv(settings, directory, workers or default_workers(), progress.advance, batch_size)
    report.events, report.entries = folded.events, folded.entries
    report.seconds.update(folded.seconds)
    dimensions = dimensions or folded.dimensions
    files: CsvFiles = folded.files
    report.nodes, report.relationships = files.node_count, files.relationship_count
    to_import = ImportFiles(files.nodes, files.relationships, files.array_delimiter)
    _save_after_import(directory, dimensions, files, language)
    if not local:
        command = " ".join(admin_command(to_import, directory / "import.report", settings.neo4j_database))
        raise NotLocal(
            f"LORE_NEO4J_URI is {settings.neo4j_uri}, not the Neo4j that Lore runs ({stack.neo4j.bolt_uri}): "
            f"Lore cannot stop it for the offline import. The CSV files are in {directory}. Stop that "
            f"Neo4j, copy the folder to its machine if it is another, and run there\n  {command}\n"
            f"then start it and run `lore rebuild --bulk --after-import {directory}` (indexes, and "
            "what CSV cannot say). Or run `lore rebuild` (transactional, no downtime).")

    started = time.monotonic()
    progress.phase("importing (neo4j-admin, beside the running Neo4j)", None)
    server, jars = stack.neo4j_tools()
    staging = server.home / "import-staging"
    try:
        # Beside the running server, the importer takes what the server was given for its pages.
        staged_import(server, jars, to_import, staging, settings.neo4j_database, memory=server.pagecache)
        report.seconds["import"] = time.monotonic() - started
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)

        started = time.monotonic()
        progress.phase("restarting Neo4j on the new store", None)
        stack.replace_neo4j_database(staging / "data", settings.neo4j_database)
        report.seconds["restart"] = time.monotonic() - started
    finally:
        shutil.rmtree(staging, ignore_errors=True)

    started = time.monotonic()
    progress.phase("building indexes", None)
    lore = bootstrap(settings)
    try:
        finish_import(lore.driver, dimensions, files.empty_lists, settings.neo4j_database, language)
    finally:
        lore.close()
    report.seconds["indexes"] = time.monotonic() - started
    return report


_AFTER_IMPORT = "after-import.json"


def _save_after_import(directory: Path, dimensions: int | None, files: CsvFiles, language: str) -> None:
    (directory / _AFTER_IMPORT).write_text(json.dumps(
        {"dimensions": dimensions, "empty_lists": files.empty_lists, "language": language}))


def after_import(settings: Settings, directory: Path) -> None:
    """What follows an import run by hand: the schema, and the empty lists CSV cannot say."""
    saved = json.loads((directory / _AFTER_IMPORT).read_text())
    lore = bootstrap(settings.model_copy(update={"embedder": "none"}))
    try:
        finish_import(lore.driver, saved["dimensions"], [tuple(e) for e in saved["empty_lists"]],
                      settings.neo4j_database, saved.get("language", "en"))
    finally:
        lore.close()
