from __future__ import annotations

from infra.rewriting.port import QueryRewriter
from infra.settings import Settings


def open_rewriter(settings: Settings) -> QueryRewriter | None:
    if settings.rewriter == "none":
        return None
    from infra.rewriting.openai import OpenAIRewriter

    return OpenAIRewriter(base_url=settings.rewriter_base_url, api_key=settings.rewriter_api_key,
                          model=settings.rewriter_model, count=settings.rewriter_count,
                          timeout_s=settings.rewriter_timeout_s)


__all__ = ["QueryRewriter", "open_rewriter"]
