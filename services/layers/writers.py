"""What writes a session's summary and a profile's next version: a model with a schema, or the
offline fallback. Both answer with what the log keeps (the model's raw answer and cost, or why
it was not taken), so that a rebuild never asks again."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Message
from domain.extraction import rules
from domain.extraction.zh import rules as zh_rules
from domain.layers.model import BasicInfo, SessionSummary
from domain.layers.profile import ProfileInputs, carried_over, compose, current, slot_sentence, timelines
from domain.layers.profile_zh import compose_zh, in_chinese
from domain.layers.summary import narrative_summary
from domain.layers.summary_zh import chinese_summary
from infra.llm import LLM, LLMRefused
from infra.nlp import english_parser
from infra.nlp.tone import tone
from services.extraction.llm_extractor import estimated_tokens

log = logging.getLogger(__name__)

EXTRACTIVE = "narrative/1"  # the offline summarizer (extractive/1 before: the person's own sentences)
EXTRACTIVE_ZH = "narrative-zh/1"
OFFLINE_PROFILE = "profile/1"
OFFLINE_PROFILE_ZH = "profile-zh/1"
SUMMARY_PROMPT = "summarize-session/2"  # 2: in the conversation's language
PROFILE_PROMPT = "write-profile/2"  # 2: in the person's language


@dataclass(frozen=True)
class Written:
    """What a writer answered: the thing written, by what, and at what cost; `fallback`: the
    offline one stands in for a model that failed and may answer later (`failure` says why)."""

    value: object
    by: str
    prompt_version: str | None = None
    raw_output: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    fallback: bool = False
    failure: str | None = None


def offline_summary(messages: Sequence[Message], at: datetime) -> SessionSummary:
    """The narrative summary: the offline rules' memories of the session said of the person, what
    they asked about, topics from the parse of what they said, the tone VADER reads in it."""
    parser = english_parser()
    theirs = [m.content for m in messages if m.role == "user"]
    found = rules.extract(messages, at, parser)
    memories = list(dict.fromkeys((c.kind.value, c.content) for c in found))
    parsed = parser.parse(theirs)
    return narrative_summary(messages, memories, parsed, tone([s.text for p in parsed for s in p]))


def offline_summary_zh(messages: Sequence[Message], at: datetime) -> SessionSummary:
    """The narrative summary of a conversation in Chinese, in Chinese, from the Chinese rules."""
    found = zh_rules.extract(messages, at, lambda m: zh_rules.is_chinese(m.content))
    return chinese_summary(messages, list(dict.fromkeys((c.kind.value, c.content) for c in found)))


def mostly_chinese(messages: Sequence[Message]) -> bool:
    theirs = [m for m in messages if m.role == "user"] or list(messages)
    return sum(zh_rules.is_chinese(m.content) for m in theirs) * 2 > len(theirs)


class OfflineSummarizer:
    name = EXTRACTIVE
    uses_model = False

    def __init__(self, language: str = "en") -> None:
        # A Chinese store summarizes a conversation held in Chinese in Chinese; others as before.
        self.language = language
        if language == "zh":
            self.name = f"{EXTRACTIVE}+{EXTRACTIVE_ZH}"

    def summarize(self, messages: Sequence[Message], at: datetime) -> Written:
        if self.language == "zh" and mostly_chinese(messages):
            return Written(offline_summary_zh(messages, at), self.name)
        return Written(offline_summary(messages, at), self.name)


SUMMARY_SYSTEM = """You keep the long-term memory of a personal assistant. Summarize one conversation
between the person ("user") and the assistant, from the person's side. Answer JSON with:
- "summary": 2 or 3 sentences on what the person talked about, did, decided or asked; keep names,
  places, numbers and dates; write about "the person" (or their name, if they gave it).
- "topics": 3 to 5 topics, a few words each.
- "user_intent": what the person wanted from the conversation, in one short sentence.
- "emotional_tone": one or two words (e.g. "excited", "worried", "neutral").
- "key_facts": up to 5 facts about the person that the conversation made known, one sentence each.
- "unresolved": what was left open or undecided, in one sentence; null if nothing was.
Write every field in the language the person wrote in (Chinese for a conversation in Chinese)."""


class SummaryAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: str = Field(min_length=1, max_length=2000)
    topics: list[str] = Field(default_factory=list, max_length=8)
    user_intent: str | None = Field(default=None, max_length=500)
    emotional_tone: str | None = Field(default=None, max_length=100)
    key_facts: list[str] = Field(default_factory=list, max_length=12)
    unresolved: str | None = Field(default=None, max_length=500)


def _transcript(messages: Sequence[Message], budget_tokens: int) -> str:
    """The conversation as the model reads it; too long for the context, its middle is left out
    (a third of the room for how it started, the rest for how it went on and ended)."""
    lines = [f"{m.role}: {m.content}" for m in messages]
    if estimated_tokens("\n".join(lines)) <= budget_tokens:
        return "\n".join(lines)
    head: list[str] = []
    used = 0
    for line in lines:
        if used + estimated_tokens(line) > budget_tokens // 3:
            break
        head.append(line)
        used += estimated_tokens(line) + 1
    tail: list[str] = []
    for line in reversed(lines[len(head) :]):
        if used + estimated_tokens(line) > budget_tokens:
            break
        tail.append(line)
        used += estimated_tokens(line) + 1
    return "\n".join([*head, "[…]", *reversed(tail)])


class LLMSummarizer:
    uses_model = True

    def __init__(self, llm: LLM, context_tokens: int = 4096, answer_tokens: int = 1024,
                 language: str = "en") -> None:
        self.llm = llm
        self.name = llm.model
        self.offline = OfflineSummarizer(language)  # stands in when the model fails
        self.budget = max(context_tokens - answer_tokens - estimated_tokens(SUMMARY_SYSTEM) - 400, 256)

    def summarize(self, messages: Sequence[Message], at: datetime) -> Written:
        try:
            answer = self.llm.structured(
                SUMMARY_SYSTEM, _transcript(messages, self.budget), SummaryAnswer, "session_summary"
            )
        except Exception as error:  # noqa: BLE001 - any failure: the offline summary stands in
            spent = (getattr(error, "prompt_tokens", 0), getattr(error, "completion_tokens", 0))
            failure = f"{type(error).__name__}: {error}"[:500]
            log.warning("summary by %s failed, the offline one stands in: %s", self.llm.model, failure)
            # Refused as it is (too long, say), the model would refuse again: the offline one stays.
            stand_in = self.offline.summarize(messages, at)
            return Written(
                stand_in.value,
                stand_in.by,
                raw_output=getattr(error, "raw", None),
                prompt_tokens=spent[0],
                completion_tokens=spent[1],
                fallback=not isinstance(error, LLMRefused),
                failure=failure,
            )
        found = answer.value
        made = SessionSummary(
            summary=found.summary,
            topics=tuple(t for t in found.topics if t.strip())[:8],
            user_intent=found.user_intent or None,
            emotional_tone=found.emotional_tone or None,
            key_facts=tuple(found.key_facts)[:12],
            unresolved=found.unresolved or None,
        )
        return Written(
            made, answer.model, SUMMARY_PROMPT, answer.raw, answer.prompt_tokens, answer.completion_tokens
        )


class OfflineProfileWriter:
    name = OFFLINE_PROFILE
    uses_model = False

    def __init__(self, language: str = "en") -> None:
        # A Chinese store writes the profile of a person known in Chinese in Chinese.
        self.language = language
        if language == "zh":
            self.name = f"{OFFLINE_PROFILE}+{OFFLINE_PROFILE_ZH}"

    def write(self, inputs: ProfileInputs) -> Written:
        if self.language == "zh" and in_chinese(inputs):
            return Written(compose_zh(inputs), self.name)
        return Written(compose(inputs), self.name)


PROFILE_SYSTEM = """You keep the long-term memory of a personal assistant, and write the person's
profile: a few short paragraphs (at most 200 words) that tell the assistant who the person is.
You are given the profile as it was, what is known about the person now (each fact with its
dates, and what it was before where it changed) and their latest conversations in brief.
Rules: the newest information wins, but say what changed and when ("moved from Berlin to Lisbon
in February 2026"); keep everything the old profile said that nothing contradicts; invent nothing.
Answer JSON: "narrative" (the paragraphs) and "basic_info": a list of {"key", "value"} for
single facts (home city, employer, ...), keys in snake_case. Write the narrative and the values in
the language of the facts and conversations (Chinese where they are in Chinese)."""


class ProfileAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    narrative: str = Field(min_length=1, max_length=20_000)
    basic_info: list[BasicInfo] = Field(default_factory=list, max_length=100)


def profile_prompt(inputs: ProfileInputs) -> str:
    lines = [
        f"Profile version {inputs.version}:" if inputs.version else "There is no profile yet.",
        inputs.narrative or "",
        "",
        "Known now:",
    ]
    lines += [f"- {slot_sentence(a, v)}" for a, v in timelines(inputs.slots).items()]
    lines += [f"- ({m.kind}) {m.content}" for m in sorted(inputs.memories, key=lambda m: -m.importance)[:40]]
    lines += ["", "Latest conversations, newest first:"]
    lines += [f"- {b.at:%Y-%m-%d}: {b.summary}" for b in inputs.summaries[:5]]
    return "\n".join(lines)


class LLMProfileWriter:
    uses_model = True

    def __init__(self, llm: LLM, language: str = "en") -> None:
        self.llm = llm
        self.name = llm.model
        self.offline = OfflineProfileWriter(language)  # written when the model fails

    def write(self, inputs: ProfileInputs) -> Written:
        try:
            answer = self.llm.structured(PROFILE_SYSTEM, profile_prompt(inputs), ProfileAnswer, "profile")
        except Exception as error:  # noqa: BLE001 - any failure: the offline profile, and why
            failure = f"{type(error).__name__}: {error}"[:500]
            log.warning("profile by %s failed, the offline one is written: %s", self.llm.model, failure)
            stand_in = self.offline.write(inputs)
            return Written(
                stand_in.value,
                stand_in.by,
                raw_output=getattr(error, "raw", None),
                prompt_tokens=getattr(error, "prompt_tokens", 0),
                completion_tokens=getattr(error, "completion_tokens", 0),
                failure=failure,
            )
        found = answer.value
        # What is known now wins over what the model says of the same key; what the version
        # before knew and nothing contradicts stays.
        now = {a: v.value for a, values in timelines(inputs.slots).items() if (v := current(values))}
        said = [b for b in found.basic_info if b.key not in now]
        basic = (*(BasicInfo(key=k, value=v) for k, v in now.items()), *said)
        return Written(
            (found.narrative, carried_over(inputs, basic)),
            answer.model,
            PROFILE_PROMPT,
            answer.raw,
            answer.prompt_tokens,
            answer.completion_tokens,
        )
