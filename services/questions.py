"""Question synthesis: what the memory should answer about a message, asked of it beside the
message itself and fused by reciprocal rank (services/search.py).

"I'm excited for my trip this weekend" is better searched as "What trips does the person have
planned? What are their travel preferences?" than as said. A model writes such questions (at
temperature 0, kept per message, so asking again costs nothing); without one, an offline
expansion does the same job more bluntly: the message with the turns before it (what "it" and
"there" refer to), and its keywords alone (what a keyword search should weigh).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from cachetools import LRUCache
from pydantic import BaseModel, ConfigDict, Field

from domain.layers.summary import keywords
from infra.llm import LLM
from services.degraded import Degradation, note

log = logging.getLogger(__name__)

PROMPT_VERSION = "synthesize-questions/1"
OFFLINE = "offline/1"
CONTEXT_TURNS = 3
MAX_ASKED_CHARS = 4000

SYSTEM = """You help an assistant remember. Given what the person just said (and the turns before
it), write the 3 questions whose answers, in the person's long-term memory, would help most to
reply well: about their plans, preferences, people, places, history and problems that the message
touches. Keep names, places and dates. Each question is short and about the person.
Example: "I'm excited for my trip this weekend" -> {"questions": ["What trips does the person have
planned?", "What are the person's travel preferences?", "Where has the person travelled before?"]}
Answer JSON: {"questions": [three strings]}."""


class Questions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    questions: list[str] = Field(default_factory=list, max_length=5)


class QuestionSynthesizer(Protocol):
    name: str

    def questions(self, message: str, recent: Sequence[str] = ()) -> list[str]:
        """Queries to search beside `message` (not `message` itself)."""


class OfflineExpansion:
    name = OFFLINE

    def questions(self, message: str, recent: Sequence[str] = ()) -> list[str]:
        before = [text for text in recent[-CONTEXT_TURNS:] if text.strip() and text != message]
        found = []
        if before:
            found.append(" ".join([*before, message]))
        words = keywords([message, *before])
        if words:
            found.append(" ".join(words))
        return [q for q in dict.fromkeys(found) if q.strip() and q != message]


class LLMQuestions:
    """Three questions from the model, kept per message and its context; the offline expansion
    when the model does not answer (a search waits for this: it never fails for it)."""

    def __init__(self, llm: LLM, cached: int = 4096) -> None:
        self.llm = llm
        self.name = f"{llm.model}:{PROMPT_VERSION}"
        self._cache: LRUCache[tuple[str, tuple[str, ...]], list[str]] = LRUCache(maxsize=cached)
        self._offline = OfflineExpansion()

    def questions(self, message: str, recent: Sequence[str] = ()) -> list[str]:
        before = tuple(text for text in recent[-CONTEXT_TURNS:] if text.strip())
        key = (message, before)
        if key in self._cache:
            return self._cache[key]
        # A pasted page is asked by its start: the questions are about what the person wants.
        said = "\n".join([*(f"(before) {t[:1000]}" for t in before), f"(now) {message[:MAX_ASKED_CHARS]}"])
        try:
            answer = self.llm.structured(SYSTEM, said, Questions, "questions")
        except Exception as error:  # noqa: BLE001 - an aid: the search goes on without it
            log.warning("question synthesis by %s failed (%s); the offline expansion stands in",
                        self.llm.model, error)
            note(Degradation("questions", "questions_failed",
                             f"the model {self.llm.model} wrote no questions ({type(error).__name__}): the "
                             "offline expansion of the message was searched instead",
                             fix="see LORE_LLM_BASE_URL and the endpoint's log"))
            return self._offline.questions(message, recent)
        found = [q.strip() for q in answer.value.questions if q.strip() and q.strip() != message][:3]
        self._cache[key] = found
        return found
