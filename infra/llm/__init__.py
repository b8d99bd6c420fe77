"""LLMs: structured answers from any OpenAI-compatible chat endpoint."""

from infra.llm.port import LLM, LLMRefused, Structured, StructuredOutputError, open_llm

__all__ = ["LLM", "LLMRefused", "Structured", "StructuredOutputError", "open_llm"]
