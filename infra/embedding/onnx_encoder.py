"""A sentence encoder: a transformer as an ONNX file and its tokenizer, run with onnxruntime,
pooled (mean over tokens, or the first token's) and L2-normalised. No torch.

The same texts in the same batch give the same vectors, in any process. An int8 model scales
its activations per batch, so a text embedded with others comes out a hair apart from the same
text alone (cosine > 0.99): what is kept is the vector in the log, so a replay is unaffected."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

Pooling = Literal["mean", "cls"]


class ModelFileMismatch(RuntimeError):
    pass


def verified(path: Path, sha256: str) -> Path:
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    if actual != sha256:
        raise ModelFileMismatch(f"{path} has sha256 {actual}, expected {sha256}")
    return path


class OnnxEncoder:
    def __init__(self, model_path: Path, tokenizer_path: Path, pooling: Pooling, max_tokens: int,
                 batch_size: int = 64, threads: int | None = None) -> None:
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        # Idle ONNX threads spin for a while after each run, taking a core from Neo4j, which
        # shares the machine with it: they sleep at once instead.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_tokens)
        self._tokenizer.enable_padding()
        self._pooling = pooling
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            vectors.extend(self._encode_batch(texts[start:start + self._batch_size]))
        return vectors

    def _encode_batch(self, texts: Sequence[str]) -> list[list[float]]:
        with self._lock:  # the tokenizer's padding settings are shared state
            encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        if self._pooling == "cls":
            pooled = hidden[:, 0, :]
        else:
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        pooled = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return [row.tolist() for row in pooled.astype(np.float32)]
