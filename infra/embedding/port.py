"""The embedder port and the choice of adapter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    """An adapter whose model runs in this process says so with `local = True`; one that does not
    say is taken to send the text away (`keeps_text_here`)."""

    model: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text, in order: texts that are searched (memories, turns)."""


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Vectors of what a search asks. A model that reads a query unlike a passage (e5's `query: `,
    bge's instruction) has `embed_queries`; one that reads both alike has only `embed`."""
    asker = getattr(embedder, "embed_queries", None)
    return asker(texts) if asker is not None else embedder.embed(texts)


def keeps_text_here(embedder: Embedder) -> bool:
    """Whether what this embedder is asked stays in this process. Only such an embedder is asked
    for a search's vectors before Lore knows whether the person paused memory (services/search.py):
    a paused person's words must reach no endpoint."""
    return bool(getattr(embedder, "local", False))
