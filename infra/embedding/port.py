"""The embedder port and the choice of adapter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from infra.settings import Settings


class Embedder(Protocol):
    model: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text, in order."""


def open_embedder(settings: Settings) -> Embedder | None:
    if settings.embedder == "none":
        return None
    if settings.embedder == "openai":
        from infra.embedding.openai import OpenAIEmbedder

        return OpenAIEmbedder(
            base_url=settings.embedding_base_url, api_key=settings.embedding_api_key,
            model=settings.embedding_model, dimensions=settings.embedding_dimensions,
        )
    from infra.embedding.local import LocalMiniLM

    return LocalMiniLM()
