"""Extraction by a language model: one prompt, its response model, and what the answer becomes.

The prompt is versioned: a candidate names the model and `PROMPT_VERSION` it came from, so
that a re-extraction with another prompt is a deliberate, visible act. Times are asked for as the
person said them and resolved here, against the message that says them; slot names are mapped
to the canonical vocabulary.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.extraction.rules import resolve
from domain.extraction.slots import SLOTS, canonical_slot
from domain.model import MemoryKind, utc
from infra.llm import LLM, Structured

PROMPT_VERSION = "extract-memories/1"

SYSTEM = f"""You keep the long-term memory of a personal assistant. From a conversation between a
person (role "user") and the assistant, list what is worth remembering about the person: lasting
preferences, facts about their life, lessons about what works for them, goals, events, the people
in their life, and to-dos they asked for. Rules:
- Only what the person said or clearly implied; set "asserted" false when you infer it.
- One memory per thing, in one sentence that keeps names and numbers ("Moved to Lisbon in March").
- A single-valued property (where they live, their employer, job, editor, diet, partner, a
  favourite X) gets "attribute" and "value"; prefer these attribute names:
  {", ".join(SLOTS)}, favorite_<thing>.
- "when": the time as the person said it ("last month", "since 2019"), or null; "due" for a to-do.
- "messages": the positions (from 0) of the messages it comes from.
- Leave out greetings, small talk, thanks, and what the assistant said of itself.
Kinds: {", ".join(k.value for k in MemoryKind)}."""


class ExtractedMemory(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: MemoryKind
    content: str = Field(min_length=1, max_length=1000)
    attribute: str | None = None
    value: str | None = None
    when: str | None = None
    due: str | None = None
    entities: list[str] = Field(default_factory=list, max_length=20)
    confidence: float = Field(ge=0.0, le=1.0)
    asserted: bool = True
    messages: list[int] = Field(default_factory=list)


class ExtractedMemories(BaseModel):
    model_config = ConfigDict(extra="forbid")

    memories: list[ExtractedMemory]


def transcript(messages: Sequence[Message]) -> str:
    return "\n".join(f"[{i}] {m.role}: {m.content}" for i, m in enumerate(messages))


def extract_with(llm: LLM, messages: Sequence[Message], at: datetime) -> tuple[list[Candidate],
                                                                               Structured[ExtractedMemories]]:
    """The model's candidates for a conversation, and its answer as it gave it (for the log)."""
    answer = llm.structured(SYSTEM, transcript(messages), ExtractedMemories, "extracted_memories")
    candidates = []
    for found in answer.value.memories:
        positions = tuple(p for p in found.messages if 0 <= p < len(messages))
        said_at = utc(messages[positions[0]].timestamp or at) if positions else utc(at)
        candidates.append(Candidate(
            kind=found.kind, content=found.content,
            attribute=canonical_slot(found.attribute) if found.attribute else None,
            value=found.value if found.attribute else None,
            valid_from=(resolve(found.when, said_at) if found.when else None) or said_at,
            due_at=resolve(found.due, said_at, future=True) if found.due else None,
            entities=tuple(dict.fromkeys(found.entities)), confidence=found.confidence,
            asserted=found.asserted, positions=positions,
            extractor=f"{answer.model}:{PROMPT_VERSION}"))
    return candidates, answer
