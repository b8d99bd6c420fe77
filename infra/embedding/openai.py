"""Any OpenAI-compatible embeddings endpoint (OpenAI, vLLM, Ollama, LiteLLM, ...)."""

from __future__ import annotations

from collections.abc import Sequence

from openai import OpenAI


class OpenAIEmbedder:
    local = False  # the text goes to the endpoint

    def __init__(self, base_url: str | None, api_key: str, model: str, dimensions: int,
                 timeout_s: float = 10.0) -> None:
        # One retry: a search waits for this (and answers without vectors past LORE_EMBEDDING_TIMEOUT_S);
        # a write that fails is answered 503, a worker's is tried again.
        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=1)
        self.model = model
        self.dimensions = dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        response = self._client.embeddings.create(model=self.model, input=list(texts))
        return [item.embedding for item in sorted(response.data, key=lambda d: d.index)]
