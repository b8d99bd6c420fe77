"""Consolidation judged by a language model: one versioned prompt, its response model, and the
proposals it becomes.

The model is shown each new candidate with the person's memories close to it and proposes a
verdict — same, merge (with the sentence of both), update or distinct. A proposal is only that:
the decider takes it where a model may decide (domain/extraction/consolidate.py) and logs it
either way, so a replay needs no model and a bad proposal cannot close a fact it should not.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import ProposedVerdict, Similar
from domain.extraction.candidate import Candidate
from infra.llm import LLM, LLMRefused, StructuredOutputError
from projections.extraction import MemoryShown

log = logging.getLogger(__name__)
PROMPT_VERSION = "consolidate-memories/1"

SYSTEM = """You keep the long-term memory of a personal assistant. New memories about a person were
just taken from a conversation. Each is shown with memories the person already has that are close
to it. For each new memory, judge it against its close memories and answer one verdict:
- "same": it says nothing that one existing memory does not already say (other words, same meaning).
  Give that memory's id.
- "merge": it and one existing memory are about the same thing and each adds a detail; they are best
  kept as one. Give that memory's id and "content": one sentence that keeps every detail of both.
- "update": the same single thing about the person has changed (a new city, a new employer); the
  new memory replaces the old. Give the old memory's id.
- "distinct": it says something different from all of them.
Names, numbers and places that differ make memories different. Give a short "reason".

Example. New memory 0 (preference): "Likes green tea without sugar"
  close: m1 (preference, since 2026-02-01): "Likes green tea"
New memory 1 (fact): "Has a dog named Rufus"
  close: m2 (fact, since 2025-06-01): "Has a cat named Miso"
Answer:
{"verdicts": [
 {"candidate": 0, "verdict": "merge", "memory_id": "m1", "content": "Likes green tea without sugar",
  "reason": "the same tea, with one more detail"},
 {"candidate": 1, "verdict": "distinct", "memory_id": null, "content": null,
  "reason": "a different pet"}]}"""


class JudgedCandidate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    candidate: int = Field(ge=0)
    verdict: Literal["same", "merge", "update", "distinct"]
    memory_id: str | None = None
    content: str | None = Field(default=None, max_length=2000)
    reason: str = Field(default="", max_length=500)


class JudgedCandidates(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdicts: list[JudgedCandidate]


@dataclass(frozen=True)
class Proposals:
    """Per candidate, the model's proposal (None: not asked, or no answer for it), and the cost."""

    proposed: tuple[ProposedVerdict | None, ...]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failed: str | None = None


class LLMConsolidator:
    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.by = f"{llm.model}:{PROMPT_VERSION}"

    def propose(self, candidates: Sequence[Candidate], similar: Sequence[Sequence[Similar]],
                shown: Mapping[str, MemoryShown]) -> Proposals:
        """Ask about the candidates that have close memories; the others are not the model's to judge.
        A refusal or an answer that does not fit leaves it to the rules (said in `failed`); an
        endpoint that is down raises."""
        asked = [i for i, close in enumerate(similar) if any(s.memory_id in shown for s in close)]
        nothing: tuple[ProposedVerdict | None, ...] = (None,) * len(candidates)
        if not asked:
            return Proposals(nothing)
        question = "\n".join(self._shown(i, candidates[i], similar[i], shown) for i in asked)
        try:
            answer = self.llm.structured(SYSTEM, question, JudgedCandidates, "judged_candidates")
        except (LLMRefused, StructuredOutputError) as error:
            log.warning("consolidation by %s failed, left to the rules: %s", self.llm.model, error)
            spent = (error.prompt_tokens, error.completion_tokens) \
                if isinstance(error, StructuredOutputError) else (0, 0)
            return Proposals(nothing, *spent, failed=str(error)[:200])
        proposed = list(nothing)
        for judged in answer.value.verdicts:
            if judged.candidate in asked and proposed[judged.candidate] is None:
                proposed[judged.candidate] = ProposedVerdict(
                    verdict=judged.verdict, memory_id=judged.memory_id or None,
                    content=judged.content if judged.verdict == "merge" else None,
                    reason=judged.reason, by=self.by)
        return Proposals(tuple(proposed), answer.prompt_tokens, answer.completion_tokens)

    @staticmethod
    def _shown(number: int, candidate: Candidate, close: Sequence[Similar],
               shown: Mapping[str, MemoryShown]) -> str:
        lines = [f'New memory {number} ({candidate.kind.value}): "{candidate.content}"']
        for s in close:
            if (memory := shown.get(s.memory_id)) is not None:
                since = f", since {memory.valid_from}" if memory.valid_from else ""
                lines.append(f'  close: {memory.memory_id} ({memory.kind}{since}): "{memory.content}"')
        return "\n".join(lines)
