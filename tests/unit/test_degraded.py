"""What an answer says it left out: the vector source's states, an embedder that fails and
recovers, and the context block's closing line within its budget."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from infra.embedding.watched import EmbedderUnavailable, WatchedEmbedder
from infra.tokens import token_counter
from projections.search import StoreModels
from services.context import ContextBlock, Item, Renderer, Section
from services.context_note import partial_line, with_partial_note
from services.degraded import Degradation, note, noted, vector_source

MINILM, E5 = "all-MiniLM-L6-v2-int8-onnx", "e5-small-v2-int8-onnx"


def test_the_vector_source_is_whole_when_the_store_holds_no_other_models_vectors() -> None:
    assert vector_source(E5, StoreModels((), own=True)) is None
    assert vector_source(None, StoreModels((), own=False)) is None


def test_each_state_of_the_stores_vectors_names_its_fix_in_lore_embedders_words() -> None:
    changed = vector_source(E5, StoreModels((MINILM,), own=False))
    assert changed is not None and changed.code == "embedder_changed"
    assert changed.fix is not None and "lore reembed --model e5-small-v2" in changed.fix
    assert "LORE_EMBEDDER=local" in changed.fix
    moving = vector_source(E5, StoreModels((MINILM,), own=True))
    assert moving is not None and moving.code == "reembed_in_progress"
    off = vector_source(None, StoreModels((E5,), own=False))
    assert off is not None and off.code == "embedder_off" and "LORE_EMBEDDER=e5-small-v2" in (off.fix or "")


def test_notes_are_kept_once_and_only_inside_a_collection() -> None:
    said = Degradation("vector", "embedder_failed", "down")
    note(said)  # no one collects: nothing to keep
    with noted() as found:
        note(said)
        note(said)
    assert found == [said]


class Flaky:
    model, dimensions = "flaky", 2

    def __init__(self) -> None:
        self.down = True

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.down:
            raise OSError("connection refused")
        return [[1.0, 0.0] for _ in texts]


def test_a_watched_embedder_says_it_fails_until_a_probe_finds_it_back() -> None:
    inner = Flaky()
    watched = WatchedEmbedder(inner, probe_every_s=0)
    assert watched.failing is None
    with pytest.raises(EmbedderUnavailable, match="flaky gives no vectors"):
        watched.embed(["tea"])
    first = watched.failing
    assert first is not None and "connection refused" in first[1]
    assert watched.probe() is not None and watched.failing[0] == first[0]  # type: ignore[index]
    inner.down = False
    assert watched.probe() is None
    assert watched.embed_queries(["tea"]) == [[1.0, 0.0]]


def test_the_partial_line_ends_the_block_within_its_budget() -> None:
    counter = token_counter()
    now = datetime(2026, 3, 1, tzinfo=UTC)
    renderer = Renderer(counter, "text")
    items = [Item("memory", f"m{i}", f"Ada noted thing number {i} about her tea and her garden")
             for i in range(12)]
    sections = [Section("relevant", "Relevant", items)]
    text = renderer.render(now, sections)
    block = ContextBlock(text=text, tokens=counter.count(text), tokenizer=counter.name, sections=sections,
                         always=[], todos=[], relevant=[], profile_version=0, questions=[], timings_ms={})
    left_out = [Degradation("vector", "embedder_failed", "down")]
    budget = block.tokens
    said = with_partial_note(block, left_out, renderer, now, budget)
    assert said.text.endswith(partial_line(left_out)) and said.tokens <= budget
    assert len(said.sections[0].items) < 12 and len(block.sections[0].items) == 12  # the original kept
    assert with_partial_note(block, [], renderer, now, budget) is block
    assert with_partial_note(block, left_out, Renderer(counter, "json"), now, budget) is block
