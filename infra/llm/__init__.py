"""LLMs: structured answers from any OpenAI-compatible chat endpoint."""

from infra.llm.port import LLM, Structured, StructuredOutputError, open_llm

__all__ = ["LLM", "Structured", "StructuredOutputError", "open_llm"]
