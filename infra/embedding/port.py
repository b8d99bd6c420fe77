"""The embedder port and the choice of adapter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    model: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text, in order: texts that are searched (memories, turns)."""


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Vectors of what a search asks. A model that reads a query unlike a passage (e5's `query: `,
    bge's instruction) has `embed_queries`; one that reads both alike has only `embed`."""
    asker = getattr(embedder, "embed_queries", None)
    return asker(texts) if asker is not None else embedder.embed(texts)
