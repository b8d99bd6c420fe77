"""The extractors a deployment can run: the offline rules (the default) or a language model.

Both answer with an `Extraction`: the candidates, what found them, and — for a model — its raw
answer and what it cost, which the log keeps so that a replay never asks again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from domain.commands import Message
from domain.extraction import rules
from domain.extraction.candidate import Candidate
from domain.extraction.taxonomy import Taxonomy
from domain.extraction.zh import rules as zh_rules
from domain.text.parse import Parser
from infra.llm import LLM, LLMRefused, StructuredOutputError
from infra.nlp import english_parser
from services.extraction.llm_extractor import extract_with, extraction_prompt, parts, transcript_budget

RULES_VERSION = rules.RULES_VERSION
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
    """The offline extractor: deterministic rules over the parse of what the person said, no
    model, nothing invented."""

    name = RULES_VERSION
    uses_model = False

    def __init__(self, parser: Parser | None = None, language: str = "en") -> None:
        self.parser = parser or english_parser()
        self.language = language
        if language == "zh":
            # A Chinese store's person may say a line in English: each message is read by its own rules.
            self.name = f"{RULES_VERSION}+{zh_rules.RULES_VERSION}"

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        if self.language != "zh":
            return Extraction(rules.extract(messages, at, self.parser), self.name)
        chinese = [m.role == "user" and zh_rules.is_chinese(m.content) for m in messages]
        # English rules read the others (a Chinese line is passed to them as the assistant's: unread).
        english = [m.model_copy(update={"role": "assistant"}) if zh else m for m, zh in zip(messages, chinese,
                                                                                             strict=True)]
        found = zh_rules.extract(messages, at, lambda m: zh_rules.is_chinese(m.content))
        if not all(chinese[i] for i, m in enumerate(messages) if m.role == "user"):
            found += rules.extract(english, at, self.parser)
        return Extraction(found, self.name)


class LLMExtractor:
    """A language model, asked with the versioned extraction prompt for a structured answer.

    A window longer than the model's context is asked in consecutive parts that fit it; their
    candidates are put together (a thing said in two parts is found twice and consolidation makes
    it one). A part the model cannot answer in the schema, or the endpoint refuses, is recorded
    as such and not asked again: the same question would get the same answer. An endpoint that
    is down raises, and the extraction stays due."""

    uses_model = True

    def __init__(self, llm: LLM, context_tokens: int = 4096, answer_tokens: int = 1024,
                 taxonomy: Taxonomy | None = None) -> None:
        self.llm = llm
        self.name = llm.model
        self.prompt = extraction_prompt(taxonomy)
        self.max_part_tokens = transcript_budget(context_tokens, answer_tokens, self.prompt)

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        candidates: list[Candidate] = []
        raws: list[str] = []
        failures: list[str] = []
        prompt_tokens = completion_tokens = 0
        cut = parts(messages, self.max_part_tokens)
        for offset, part in cut:
            try:
                found, answer = extract_with(self.llm, part, at, self.prompt)
            except StructuredOutputError as error:
                raws.append(error.raw[:100_000])
                failures.append(f"the model's answer did not fit the schema: {error}")
                prompt_tokens += error.prompt_tokens      # spent all the same: the budget counts them
                completion_tokens += error.completion_tokens
                continue
            except LLMRefused as error:
                failures.append(str(error))
                continue
            candidates += [c.model_copy(update={"positions": tuple(p + offset for p in c.positions)})
                           for c in found]
            raws.append(answer.raw)
            prompt_tokens += answer.prompt_tokens
            completion_tokens += answer.completion_tokens
        raw = raws[0] if len(raws) == 1 and len(cut) == 1 else json.dumps(raws) if raws else None
        skipped = "; ".join(failures)[:200] if failures and len(failures) == len(cut) else None
        notes = [f"{len(failures)} of {len(cut)} parts failed: {f}" for f in failures] if not skipped else []
        return Extraction(candidates, self.name, self.prompt.version, raw_output=raw,
                          prompt_tokens=prompt_tokens,
                          completion_tokens=completion_tokens, skipped=skipped, notes=notes)
