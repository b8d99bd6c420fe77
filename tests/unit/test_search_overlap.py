"""A search overlaps what it can: the text source is asked while the query is still being
embedded, and the vector source once the vector exists; both lists are fused."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from projections.search import Candidate, Counts, Opening, Pool, StoreModels, TextAsk, VectorAsk, Window
from services.degraded import noted
from services.search import RecallPaused, SearchService, recall_paused

PATIENCE_S = 120.0  # only reached when the text source is never asked: a failure, not a budget


class Queries:
    def __init__(self, models: StoreModels = StoreModels((), True)) -> None:
        self.text_asked = threading.Event()
        self.asked: list[str] = []
        self.models = models
        self.person: dict[str, Any] = {}

    def store_models(self, model: str | None) -> StoreModels:
        return self.models

    def text_ask(self, kind: str, user_id: str, query: str) -> TextAsk | None:
        return TextAsk(kind, "memories", query, query, chinese=False, lucene_scores=False)  # type: ignore[arg-type]

    def opening(self, user_id: str, asks: list[TextAsk], limit: int, person: bool = False) -> Opening:
        return Opening(Counts(memory=3, message=0, all_memory=3, all_message=0),
                       [Pool([], limit) for _ in asks], self.person if person else None)

    def texts_from(self, asked: list[tuple[TextAsk, Pool, int | None]], user_id: str, window: Window,
                   limit: int) -> list[list[Candidate]]:
        self.asked.append("text")
        self.text_asked.set()
        return [[Candidate("memory", "tea", 2.0), Candidate("memory", "kettle", 1.0)] for _ in asked]

    def nearest(self, asks: list[VectorAsk], user_id: str, window: Window, limit: int,
                model: str | None = None) -> list[list[Candidate]]:
        self.asked.append("vector")
        return [[Candidate("memory", "tea", 0.9), Candidate("memory", "cup", 0.8)] for _ in asks]

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


class FailingEmbedder:
    model, dimensions = "failing", 2

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise ConnectionError("the endpoint refused the connection")


class HangingEmbedder:
    model, dimensions = "hanging", 2

    def __init__(self) -> None:
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.release.wait(PATIENCE_S)
        return [[1.0, 0.0] for _ in texts]


def searched(service: SearchService, then: Any = lambda: None) -> tuple[list[str], list[tuple[str, str]]]:
    """The hits' ids, and what the search said it left out (source, code); `then` runs before the
    service closes (which waits for its threads)."""
    try:
        with noted() as left_out:
            hits = service.search("ada", "green tea", Window(None, None), limit=5, types=("memory",))
    finally:
        then()
        service.close()
    return [h.id for h in hits], [(d.source, d.code) for d in left_out]


def test_a_search_whose_embedder_fails_answers_with_the_text_source_and_says_so() -> None:
    queries = Queries()
    ids, left_out = searched(SearchService(queries, FailingEmbedder()))  # type: ignore[arg-type]
    assert ids == ["tea", "kettle"] and queries.asked == ["text"]
    assert left_out == [("vector", "embedder_failed")]


def test_a_search_does_not_wait_past_its_bound_for_a_vector() -> None:
    queries, embedder = Queries(), HangingEmbedder()
    service = SearchService(queries, embedder, embed_timeout_s=0.2)  # type: ignore[arg-type]
    ids, left_out = searched(service, then=embedder.release.set)
    assert ids == ["tea", "kettle"] and left_out == [("vector", "embedder_failed")]


def test_vectors_of_another_model_leave_the_vector_source_out_and_it_is_said() -> None:
    queries = Queries(StoreModels(("all-MiniLM-L6-v2-int8-onnx",), own=False))
    embedder = SlowEmbedder(queries)
    ids, left_out = searched(SearchService(queries, embedder))  # type: ignore[arg-type]
    assert queries.asked == ["text"] and ids == ["tea", "kettle"]
    assert left_out == [("vector", "embedder_changed")]


def test_a_move_between_models_half_done_runs_the_vector_source_and_says_so() -> None:
    queries = Queries(StoreModels(("all-MiniLM-L6-v2-int8-onnx",), own=True))
    ids, left_out = searched(SearchService(queries, SlowEmbedder(queries)))  # type: ignore[arg-type]
    assert queries.asked == ["text", "vector"] and "cup" in ids
    assert left_out == [("vector", "reembed_in_progress")]


def test_no_embedder_over_a_store_with_vectors_is_said_and_none_over_one_without() -> None:
    queries = Queries(StoreModels(("e5-small-v2-int8-onnx",), own=False))
    assert searched(SearchService(queries, None))[1] == [("vector", "embedder_off")]  # type: ignore[arg-type]
    assert searched(SearchService(Queries(), None))[1] == []  # type: ignore[arg-type]


def test_a_complete_search_says_nothing_left_out() -> None:
    queries = Queries()
    assert searched(SearchService(queries, SlowEmbedder(queries)))[1] == []  # type: ignore[arg-type]


def test_a_person_who_paused_recall_is_told_so_when_the_pause_is_honoured() -> None:
    queries = Queries()
    queries.person = {"memory": False}
    service = SearchService(queries, None)  # type: ignore[arg-type]
    try:
        with pytest.raises(RecallPaused, match="memory is off"):
            service.search("ada", "green tea", Window(None, None), limit=5, honour_pause=True)
        assert queries.asked == []  # nothing was searched
        assert [h.id for h in service.search("ada", "green tea", Window(None, None), limit=5,
                                             types=("memory",))] == ["tea", "kettle"]
    finally:
        service.close()


class RecordingEmbedder:
    """Keeps what it was asked to embed; `local` says whether its model runs in this process."""

    model, dimensions = "recording", 2

    def __init__(self, local: bool | None) -> None:
        if local is not None:
            self.local = local
        self.asked: list[str] = []
        self.started = threading.Event()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.started.set()
        self.asked.extend(texts)
        return [[1.0, 0.0] for _ in texts]


class OpeningWatcher(Queries):
    """Notes whether the query was being embedded while the person's settings were read; `wait`:
    gives the embedding that long to start first (only where it is expected to)."""

    def __init__(self, embedder: RecordingEmbedder, wait: float = 0.0) -> None:
        super().__init__()
        self.embedder, self.wait = embedder, wait
        self.embedding_during_opening: bool | None = None

    def opening(self, user_id: str, asks: list[TextAsk], limit: int, person: bool = False) -> Opening:
        self.embedding_during_opening = self.embedder.started.wait(self.wait)
        return super().opening(user_id, asks, limit, person)


@pytest.mark.parametrize("local", [False, None])
def test_a_paused_persons_query_reaches_no_embedder_that_sends_it_away(local: bool | None) -> None:
    embedder = RecordingEmbedder(local)  # an endpoint, or an adapter that does not say: sends it
    # The settings read gives an embedding started beside it time to reach the embedder (were one
    # started, a slow machine could only hide it, never make this test fail wrongly).
    queries = OpeningWatcher(embedder, wait=0.5)
    queries.person = {"temporary": True}
    service = SearchService(queries, embedder)  # type: ignore[arg-type]
    try:
        with pytest.raises(RecallPaused, match="temporary session"):
            service.search("ada", "my diagnosis", Window(None, None), limit=5, honour_pause=True)
        assert embedder.asked == [] and queries.asked == []
        queries.person = {}
        hits = service.search("ada", "green tea", Window(None, None), limit=5, types=("memory",),
                              honour_pause=True)
    finally:
        service.close()
    assert queries.embedding_during_opening is False  # asked only once the settings were read
    assert embedder.asked == ["green tea"] and queries.asked == ["text", "vector"]
    assert {h.id for h in hits} == {"tea", "kettle", "cup"}


def test_a_model_run_here_embeds_the_query_while_the_settings_are_read() -> None:
    embedder = RecordingEmbedder(local=True)
    queries = OpeningWatcher(embedder, wait=PATIENCE_S)
    service = SearchService(queries, embedder)  # type: ignore[arg-type]
    try:
        hits = service.search("ada", "green tea", Window(None, None), limit=5, types=("memory",),
                              honour_pause=True)
    finally:
        service.close()
    assert queries.embedding_during_opening is True
    assert {h.id for h in hits} == {"tea", "kettle", "cup"}


class Dated(Queries):
    """Two turns the text source finds, the better by its words said in January 2026, the other
    in June 2025."""

    def opening(self, user_id: str, asks: list[TextAsk], limit: int, person: bool = False) -> Opening:
        return Opening(Counts(memory=0, message=2, all_memory=0, all_message=2),
                       [Pool([], limit) for _ in asks], None)

    def texts_from(self, asked: list[tuple[TextAsk, Pool, int | None]], user_id: str, window: Window,
                   limit: int) -> list[list[Candidate]]:
        return [[Candidate("message", "january", 2.0, {"occurred_at": datetime(2026, 1, 10, tzinfo=UTC)}),
                 Candidate("message", "june", 1.0, {"occurred_at": datetime(2025, 6, 5, tzinfo=UTC)})]
                for _ in asked]


@pytest.mark.parametrize(("query", "first"), [("what did I cook in June 2025", "june"),
                                              ("what did I cook", "january")])
def test_a_time_the_query_names_lifts_what_was_said_then(query: str, first: str) -> None:
    service = SearchService(Dated(), None)  # type: ignore[arg-type]
    try:
        hits = service.search("ada", query, Window(datetime(2026, 3, 1, tzinfo=UTC), None), limit=5,
                              types=("message",))
    finally:
        service.close()
    assert [h.id for h in hits][0] == first


def test_why_recall_is_paused() -> None:
    assert recall_paused({}) is None and recall_paused({"memory": True}) is None
    assert "temporary session" in (recall_paused({"temporary": True, "memory": True}) or "")
    assert "memory is off" in (recall_paused({"memory": False}) or "")
