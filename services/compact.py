"""`lore compact`: the graph rebuilt from the log into a fresh Neo4j store.

Neo4j marks a deleted node's records free and overwrites them only when it reuses them, and its
transaction logs keep what was written until they rotate out: after an erasure, bytes of the
person can stay in its files. A store made anew and filled by a replay of the log (where the
erased person's entries no longer open) holds nothing of them.

Only a Neo4j that Lore runs itself (`lore infra up`, LocalStack) can be renewed this way; for
another, the README says how (a new database, or `neo4j-admin database copy`).
"""

from __future__ import annotations

from collections.abc import Callable

from infra.local import LocalStack
from infra.settings import Settings
from projections.graph import ensure_schema
from projections.graph.schema import store_language, vector_dimensions
from services.bootstrap import bootstrap


class NotLocal(RuntimeError):
    pass


def compact(settings: Settings, stack: LocalStack | None = None,
            on_progress: Callable[[str], None] = lambda _: None) -> int:
    """Renew the local Neo4j's store and replay the log into it; how many events were applied."""
    stack = stack or LocalStack.from_settings(settings)
    if settings.neo4j_uri.rstrip("/") != stack.neo4j.bolt_uri:
        raise NotLocal(f"LORE_NEO4J_URI is {settings.neo4j_uri}, not the local Neo4j "
                       f"({stack.neo4j.bolt_uri}): renew that store yourself (README: Erasure and "
                       "encryption), then run `lore rebuild`")
    settings = settings.model_copy(update={"embedder": "none"})
    lore = bootstrap(settings)
    try:
        # The vectors come from the log; the new index must have the old one's dimension, and the
        # new store read text in the old one's language.
        dimensions = vector_dimensions(lore.driver, settings.neo4j_database)
        language = store_language(lore.driver, settings.neo4j_database)
    finally:
        lore.close()
    stack.renew_neo4j_store(on_progress)
    lore = bootstrap(settings)
    try:
        ensure_schema(lore.driver, dimensions, settings.neo4j_database, language)
        on_progress("replaying the log")
        return lore.projector.rebuild(lore.event_log)
    finally:
        lore.close()
