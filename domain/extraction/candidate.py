"""A candidate memory: what an extractor found in a conversation, before consolidation."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from domain.model import MemoryKind, UtcDatetime


class Relation(BaseModel):
    """`subject` —predicate→ `object`, between named things; no subject: the person themself."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject: str | None = Field(default=None, max_length=200)
    predicate: str = Field(min_length=1, max_length=100, description="snake_case, e.g. works_at, sister")
    object: str = Field(min_length=1, max_length=200)


class Candidate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: MemoryKind
    category: str | None = Field(
        default=None, max_length=40, description="The deployment's category (its taxonomy), if it names them."
    )
    content: str = Field(min_length=1, description="One sentence that keeps the names and numbers.")
    attribute: str | None = Field(
        default=None, description="A canonical slot (slots.py), when single-valued."
    )
    value: str | None = None
    ends: tuple[str, ...] = Field(
        default=(), description="Slots this memory says ended at its valid_from, with no value after "
        "(a job lost ends employer and job_title; a pet that died its pet_ slot)."
    )
    ended_value: str | None = Field(
        default=None, description="The value that ended, where the memory names it (the pet's name): "
        "a slot holding another value is left alone."
    )
    valid_from: UtcDatetime = Field(description="When it became true, resolved against the message's time.")
    due_at: UtcDatetime | None = Field(default=None, description="For a to-do: when it is due.")
    entities: tuple[str, ...] = ()
    entity_types: tuple[tuple[str, str], ...] = Field(
        default=(), description="(name, type) of the entities whose type is known: person, place, ..."
    )
    relations: tuple[Relation, ...] = ()
    confidence: float = Field(ge=0.0, le=1.0)
    asserted: bool = Field(default=True, description="Said by the person (not inferred by a model).")
    positions: tuple[int, ...] = Field(default=(), description="The messages of the episode it comes from.")
    extractor: str = Field(description="What found it: a rule's name, or a model and prompt version.")


# What the kinds are worth to an assistant before anything else is known (issue 10, item 3):
# what works for the person most, then their preferences and health, then facts; a plan (it
# passes once its day comes) below them; passing situations least.
BASE_IMPORTANCE = {
    MemoryKind.LESSON: 0.8,
    MemoryKind.PREFERENCE: 0.7,
    MemoryKind.HEALTH: 0.7,
    MemoryKind.GOAL: 0.6,
    MemoryKind.TODO: 0.6,
    MemoryKind.PERSON: 0.6,
    MemoryKind.FACT: 0.6,
    MemoryKind.PLAN: 0.5,
    MemoryKind.EVENT: 0.4,
    MemoryKind.CONTEXT: 0.4,
}
_CONCRETE = re.compile(r"\d|\b(?:always|never|every time|every day|each time)\b", re.IGNORECASE)


def importance(candidate: Candidate, merges: int = 0, base: float | None = None) -> float:
    """base(kind) + 0.1 when confident (≥ 0.8) + 0.1 for concrete details (numbers, "always",
    "every time") + 0.05 when longer than 100 characters + 0.1 per merge, at most 1. `base`: a
    category's own, where the deployment's taxonomy gives one."""
    score = BASE_IMPORTANCE[candidate.kind] if base is None else base
    score += 0.1 if candidate.confidence >= 0.8 else 0.0
    score += 0.1 if _CONCRETE.search(candidate.content) else 0.0
    score += 0.05 if len(candidate.content) > 100 else 0.0
    score += 0.1 * merges
    return round(min(score, 1.0), 4)
