"""The embedder that remembers its latest vectors: a text asked again is not computed again, the
order and duplicates of a batch are kept, and it forgets the least recently used first."""

from __future__ import annotations

from collections.abc import Sequence

from infra.embedding.cached import CachedEmbedder


class Counting:
    model = "counting"
    dimensions = 1

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.asked.append(list(texts))
        return [[float(len(t))] for t in texts]


def test_a_text_asked_again_is_not_computed_again_and_a_batch_keeps_its_order() -> None:
    inner = Counting()
    cached = CachedEmbedder(inner)
    assert cached.embed(["tea", "green tea"]) == [[3.0], [9.0]]
    assert cached.embed(["green tea", "coffee", "tea", "coffee"]) == [[9.0], [6.0], [3.0], [6.0]]
    assert inner.asked == [["tea", "green tea"], ["coffee"]]


def test_it_forgets_the_least_recently_used_first() -> None:
    inner = Counting()
    cached = CachedEmbedder(inner, size=2)
    cached.embed(["a", "bb"])
    cached.embed(["a"])          # "a" is recent now
    cached.embed(["ccc"])        # "bb" goes
    cached.embed(["a", "bb"])
    assert inner.asked == [["a", "bb"], ["ccc"], ["bb"]]
