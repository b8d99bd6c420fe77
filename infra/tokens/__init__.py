"""Counting tokens as a model does: OpenAI's cl100k_base (GPT-4, GPT-3.5), offline.

The encodings ship inside the `bpe-openai` wheel (a Rust port with tiktoken's API), so nothing is
downloaded at run time, unlike tiktoken, which fetches its files on first use.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import bpe_openai

ENCODING = "cl100k_base"


class TokenCounter(Protocol):
    name: str

    def count(self, text: str) -> int: ...


class BpeCounter:
    def __init__(self, encoding: str = ENCODING) -> None:
        self.name = encoding
        self._encoding = bpe_openai.get_encoding(encoding)

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text)) if text else 0


@lru_cache(maxsize=1)
def token_counter() -> BpeCounter:
    """The counter, loaded once per process (its tables take a moment to build)."""
    return BpeCounter()
