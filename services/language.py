"""`lore language L`: move a store to another language (LORE_LANGUAGE).

A store's language is the word indexes it holds (a Chinese store has its own, over the jieba words
the projection writes for any Chinese text in every language): moving makes the new language's and
drops the old one's. Nothing written is rewritten: memories, summaries and profiles stay in the
words they were written in; what comes after is read and written in the new language. The vectors
are the embedder's business (`lore reembed --model bge-small-zh-v1.5`)."""

from __future__ import annotations

from infra.settings import Settings
from projections.graph import ensure_schema
from projections.graph.schema import drop_language_indexes, store_language, vector_dimensions
from services.bootstrap import bootstrap


def move_language(settings: Settings, to: str) -> str | None:
    """Make the store's language `to`; answer the language it had (None: an empty store)."""
    quiet = settings.model_copy(update={"embedder": "none", "extractor": "off", "layers": "off",
                                        "questions": "off", "language": to})
    lore = bootstrap(quiet)
    database = settings.neo4j_database
    try:
        was = store_language(lore.driver, database)
        if was != to:
            dimensions = vector_dimensions(lore.driver, database)
            drop_language_indexes(lore.driver, database)
            ensure_schema(lore.driver, dimensions, database, to)
        return was
    finally:
        lore.close()
