"""The query-rewriter port: other wordings of a search query, each searched and fused by rank."""

from __future__ import annotations

from typing import Protocol

from infra.settings import Settings


class QueryRewriter(Protocol):
    def rewrite(self, query: str) -> list[str]:
        """Up to a few rewordings of `query` (not `query` itself); raises when the model fails
        (the search then answers with the query as asked, and names the rewriter in `degraded`)."""


def open_rewriter(settings: Settings) -> QueryRewriter | None:
    if settings.rewriter == "none":
        return None
    from infra.rewriting.openai import OpenAIRewriter

    return OpenAIRewriter(base_url=settings.rewriter_base_url, api_key=settings.rewriter_api_key,
                          model=settings.rewriter_model, count=settings.rewriter_count,
                          timeout_s=settings.rewriter_timeout_s)
