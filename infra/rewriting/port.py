"""The query-rewriter port: other wordings of a search query, each searched and fused by rank."""

from __future__ import annotations

from typing import Protocol


class QueryRewriter(Protocol):
    def rewrite(self, query: str) -> list[str]:
        """Up to a few rewordings of `query` (not `query` itself); raises when the model fails
        (the search then answers with the query as asked, and names the rewriter in `degraded`)."""
