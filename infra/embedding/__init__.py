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


__all__ = ["Embedder", "open_embedder", "setting_for"]
