"""Embedders: text -> vectors. A local ONNX model by default, or an OpenAI-compatible endpoint."""

from infra.embedding.port import Embedder, open_embedder

__all__ = ["Embedder", "open_embedder"]
