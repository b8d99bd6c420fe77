"""The LLM port: a question, and an answer that fits a pydantic model — or a clear failure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class Structured(Generic[T]):
    """An answer that fits its schema, with what it cost and how it was had: kept in the log, so
    that a replay needs no model."""

    value: T
    raw: str                 # the model's own text, as it answered
    model: str
    mode: str                # json_schema | json_object | repaired
    prompt_tokens: int = 0
    completion_tokens: int = 0


class StructuredOutputError(RuntimeError):
    """The model's answer did not fit the schema, also after one round of repair. The tokens the
    answers took are spent all the same, and counted."""

    def __init__(self, message: str, raw: str, prompt_tokens: int = 0, completion_tokens: int = 0) -> None:
        super().__init__(message)
        self.raw = raw
        self.prompt_tokens = prompt_tokens
        self.completion_tokens = completion_tokens


class LLMRefused(RuntimeError):
    """The endpoint refused this request as it is (HTTP 400, 413, 422: too long for its context,
    a parameter it does not take): asked the same way again, it answers the same. Unlike an
    endpoint that is down, slow or rate-limited, which is worth asking again later."""


class LLM(Protocol):
    model: str

    def structured(self, system: str, user: str, schema: type[T], name: str) -> Structured[T]:
        """Ask, and get an answer that validates against `schema` (named `name` to the endpoint)."""
