"""A stand-in for an OpenAI-compatible embeddings endpoint: small deterministic vectors made from
a text's words (texts that share words are close), or an HTTP error while `failing` is set."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tests.support.json_server import json_server

DIMENSIONS = 16


def vector(text: str) -> list[float]:
    found = [0.0] * DIMENSIONS
    for word in text.lower().split():
        found[hashlib.sha256(word.strip(".,?!").encode()).digest()[0] % DIMENSIONS] += 1.0
    norm = math.sqrt(sum(x * x for x in found)) or 1.0
    return [x / norm for x in found]


@dataclass
class EmbeddingStub:
    url: str = ""
    failing: bool = False
    asked: int = 0


@contextmanager
def embedding_stub() -> Iterator[EmbeddingStub]:
    stub = EmbeddingStub()

    def reply(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        stub.asked += 1
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        if stub.failing:
            return 500, {"error": {"message": "the model server is down"}}
        return 200, {"object": "list", "model": body["model"],
                     "usage": {"prompt_tokens": 1, "total_tokens": 1},
                     "data": [{"object": "embedding", "index": i, "embedding": vector(t)}
                              for i, t in enumerate(texts)]}

    with json_server(reply) as stub.url:
        yield stub
