"""The embedder port and the choice of adapter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from infra.settings import Settings


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


def open_embedder(settings: Settings) -> Embedder | None:
    if settings.embedder == "none":
        return None
    if settings.embedder == "openai":
        from infra.embedding.openai import OpenAIEmbedder

        return OpenAIEmbedder(
            base_url=settings.embedding_base_url, api_key=settings.embedding_api_key,
            model=settings.embedding_model, dimensions=settings.embedding_dimensions,
            timeout_s=settings.embedding_timeout_s,
        )
    if settings.embedder == "local":
        from infra.embedding.local import LocalMiniLM

        return LocalMiniLM()
    from infra.embedding.jar_models import MODELS, JarModelEmbedder

    return JarModelEmbedder(MODELS[settings.embedder], settings.jar_cache)


def setting_for(model: str) -> str:
    """How LORE_EMBEDDER (and `lore reembed --model`) names the embedder whose vectors are marked
    `model`; an OpenAI-compatible endpoint's model is `openai` (with LORE_EMBEDDING_MODEL=model)."""
    from infra.embedding.jar_models import MODELS
    from infra.embedding.local import LocalMiniLM

    if model == LocalMiniLM.model:
        return "local"
    named = [name for name, spec in MODELS.items() if spec.model == model]
    return named[0] if named else f"openai (LORE_EMBEDDING_MODEL={model})"
