"""The extractors a deployment can run: the offline rules (the default) or a language model.

Both answer with an `Extraction`: the candidates, what found them, and — for a model — its raw
answer and what it cost, which the log keeps so that a replay never asks again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from domain.commands import Message
from domain.extraction import rules
from domain.extraction.candidate import Candidate
from infra.llm import LLM, StructuredOutputError
from services.extraction.llm_extractor import PROMPT_VERSION, extract_with

RULES_VERSION = "rules/1"
_SMALL_TALK = re.compile(
    r"^\W*(?:(?:hi|hello|hey|yo|hiya|good (?:morning|afternoon|evening|night)|thanks|thank you|thx|ty|"
    r"ok|okay|k|cool|great|nice|awesome|sure|yes|yeah|yep|no|nope|bye|goodbye|see you|cheers|lol|haha|"
    r"sounds good|got it|perfect|alright|all right|you too|welcome|please)(?:\s+(?:so much|a lot|again|"
    r"there|lore|you|all|then|for that))*\W*)+$", re.IGNORECASE)


@dataclass(frozen=True)
class Extraction:
    candidates: list[Candidate]
    extractor: str
    prompt_version: str | None = None
    raw_output: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)


class Extractor(Protocol):
    name: str
    uses_model: bool

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        """The candidates in `messages` (times resolved against each message's, else `at`)."""


def only_small_talk(messages: Sequence[Message]) -> bool:
    """Whether the person said nothing but greetings, thanks and acknowledgements."""
    said = [m.content for m in messages if m.role == "user"]
    return all(_SMALL_TALK.match(text.strip()) for text in said)


class RulesExtractor:
    """The offline extractor: deterministic rules, no model, nothing invented."""

    name = RULES_VERSION
    uses_model = False

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        return Extraction(rules.extract(messages, at), self.name)


class LLMExtractor:
    """A language model, asked with the versioned extraction prompt for a structured answer."""

    uses_model = True

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.name = llm.model

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        try:
            candidates, answer = extract_with(self.llm, messages, at)
        except StructuredOutputError as error:
            # The model will answer the same way again: recorded as a skip, with its answer.
            return Extraction([], self.name, PROMPT_VERSION, raw_output=error.raw[:100_000],
                              skipped=f"the model's answer did not fit the schema: {error}"[:200])
        return Extraction(candidates, self.name, PROMPT_VERSION, raw_output=answer.raw,
                          prompt_tokens=answer.prompt_tokens, completion_tokens=answer.completion_tokens)
