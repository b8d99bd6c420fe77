"""Any OpenAI-compatible embeddings endpoint (OpenAI, vLLM, Ollama, LiteLLM, ...)."""

from __future__ import annotations

from collections.abc import Sequence

from openai import OpenAI


class OpenAIEmbedder:
    def __init__(self, base_url: str | None, api_key: str, model: str, dimensions: int) -> None:
        self._client = OpenAI(base_url=base_url, api_key=api_key)
        self.model = model
        self.dimensions = dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        response = self._client.embeddings.create(model=self.model, input=list(texts))
        return [item.embedding for item in sorted(response.data, key=lambda d: d.index)]
