"""A search overlaps what it can: the text source is asked while the query is still being
embedded, and the vector source once the vector exists; both lists are fused."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from projections.search import Candidate, Counts, Window
from services.search import SearchService

PATIENCE_S = 120.0  # only reached when the text source is never asked: a failure, not a budget


class Queries:
    def __init__(self) -> None:
        self.text_asked = threading.Event()
        self.asked: list[str] = []

    def counts(self, user_id: str) -> Counts:
        return Counts(memory=3, message=0, all_memory=3, all_message=0)

    def named_entities(self, user_id: str, query: str) -> list[dict[str, Any]]:
        return []

    def text(self, kind: str, user_id: str, query: str, window: Window, limit: int,
             owned: int | None = None) -> list[Candidate]:
        self.asked.append("text")
        self.text_asked.set()
        return [Candidate("memory", "tea", 2.0), Candidate("memory", "kettle", 1.0)]

    def vector(self, kind: str, user_id: str, vector: list[float], window: Window, limit: int,
               owned: int, total: int, model: str | None = None) -> list[Candidate]:
        self.asked.append("vector")
        return [Candidate("memory", "tea", 0.9), Candidate("memory", "cup", 0.8)]

    def graph(self, *args: Any) -> list[Candidate]:
        return []


class SlowEmbedder:
    """Answers only once the text source has been asked (or after PATIENCE_S)."""

    model, dimensions = "slow", 2

    def __init__(self, queries: Queries) -> None:
        self.queries = queries
        self.saw_text_first = False

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.saw_text_first = self.queries.text_asked.wait(PATIENCE_S)
        return [[1.0, 0.0] for _ in texts]


def test_the_text_source_is_asked_while_the_query_is_embedded() -> None:
    queries = Queries()
    embedder = SlowEmbedder(queries)
    service = SearchService(queries, embedder)  # type: ignore[arg-type]
    try:
        hits = service.search("ada", "green tea", Window(None, None), limit=5, types=("memory",))
    finally:
        service.close()
    assert embedder.saw_text_first
    assert queries.asked == ["text", "vector"]
    assert [h.id for h in hits][0] == "tea"  # in both lists: first
    assert {h.id for h in hits} == {"tea", "kettle", "cup"}


def test_without_an_embedder_only_the_text_source_is_asked() -> None:
    queries = Queries()
    service = SearchService(queries, None)  # type: ignore[arg-type]
    try:
        hits = service.search("ada", "green tea", Window(None, None), limit=5, types=("memory",))
    finally:
        service.close()
    assert queries.asked == ["text"]
    assert [h.id for h in hits] == ["tea", "kettle"]
