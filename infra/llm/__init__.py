"""LLMs: structured answers from any OpenAI-compatible chat endpoint."""

from __future__ import annotations

from infra.llm.port import LLM, LLMRefused, Structured, StructuredOutputError
from infra.settings import Settings


def open_llm(settings: Settings) -> LLM | None:
    if settings.llm == "none":
        return None
    from infra.llm.openai import OpenAILLM

    return OpenAILLM(base_url=settings.llm_base_url, api_key=settings.llm_api_key, model=settings.llm_model,
                     timeout_s=settings.llm_timeout_s, max_answer_tokens=settings.llm_max_answer_tokens)


__all__ = ["LLM", "LLMRefused", "Structured", "StructuredOutputError", "open_llm"]
