"""Embedders: text -> vectors. A local ONNX model by default, or an OpenAI-compatible endpoint."""

from __future__ import annotations

from infra.embedding.port import Embedder
from infra.settings import Settings


def open_embedder(settings: Settings) -> Embedder | None:
    if settings.embedder == "none":
        return None
    if settings.embedder == "openai":
        from infra.embedding.openai import OpenAIEmbedder

        return OpenAIEmbedder(
            base_url=settings.embedding_base_url, api_key=settings.embedding_api_key,
            model=settings.embedding_model, dimensions=settings.embedding_dimensions,
        )
    if settings.embedder == "local":
        from infra.embedding.local import LocalMiniLM

        return LocalMiniLM()
    from infra.embedding.jar_models import MODELS, JarModelEmbedder

    return JarModelEmbedder(MODELS[settings.embedder], settings.jar_cache)


__all__ = ["Embedder", "open_embedder"]
