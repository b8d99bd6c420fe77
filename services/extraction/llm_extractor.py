"""Extraction by a language model: one prompt, its response model, and what the answer becomes.

The prompt is versioned: a candidate names the model and `PROMPT_VERSION` it came from, so
that a re-extraction with another prompt is a deliberate, visible act. Times are asked for as the
person said them and resolved here, against the message that says them; slot names are mapped
to the canonical vocabulary.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Message
from domain.extraction import rules
from domain.extraction.candidate import Candidate, Relation
from domain.extraction.consolidate import content_words
from domain.extraction.grounding import ungrounded
from domain.extraction.slots import SLOTS, canonical_slot
from domain.extraction.taxonomy import Taxonomy
from domain.extraction.times import resolve
from domain.model import MemoryKind, normalized, utc
from infra.llm import LLM, Structured
from infra.nlp import english_parser

ENTITY_TYPES = frozenset({"person", "place", "organization", "software", "thing"})
_NOT_A_WORD = re.compile(r"[^a-z0-9]+")
# 5: health, plan; 6: memories in the conversation's language; 7: what ended ("ends")
PROMPT_VERSION = "extract-memories/7"
log = logging.getLogger(__name__)

SYSTEM = f"""You keep the long-term memory of a personal assistant. From a conversation between a
person (role "user") and the assistant, list what is worth remembering about the person: lasting
preferences, facts about their life, their health, lessons about what works for them, goals and
plans, events, the people and pets in their life, and to-dos they asked for. Rules:
- Only what the person said about themselves; never what the assistant said. Leave out questions,
  what they deny, what they only suppose ("if", "maybe", "I might", "I'd love to"), what others
  said or did ("my friend says ...", "my brother got engaged"; a doctor's diagnosis is theirs),
  sarcasm, greetings, small talk, passing moods, and "we" that is a company.
- One fact per memory, written so that it is understood without the conversation: a short
  sentence in the third person without a subject ("Works as an architect at a firm in Lyon",
  "Is lactose intolerant", "Has a cat named Pixel"); no "I" or "my", no speaker name, no opener
  ("However, ..."), no hedge. Keep names and numbers.
- Times: each message shows its date. Write a time the person gives as a date in the sentence
  ("last month" said on 2026-03-15 -> "in February 2026"; "in October" -> the coming October),
  and give "when" as the person said it ("last month"), or null; "due" for a to-do.
- A single-valued property (where they live, their employer, job, editor, diet, partner, a pet of
  one kind, a favourite X) gets "attribute" and "value"; prefer these attribute names:
  {", ".join(SLOTS)}, pet_<animal>, favorite_<thing>. A job and an employer are two memories.
- What says such a property ended with nothing in its place (a job lost or left, a break-up, a pet
  or partner who died) gets "ends": the attributes it ends (["employer", "job_title"]), and
  "ended_value" when it names the one that ended (the pet's name); a new value needs no "ends".
- "health": a condition, allergy, medicine, injury, operation ("Takes metformin twice a day");
  "plan": arranged for a date ahead ("Moving to Leeds in May 2026"); "goal": wanted, no date set;
  "person": their people ("Wife is named Ana"; one who died or an ex fills no "partner").
- Write each memory in the language the person wrote in (a conversation in Chinese gives memories
  in Chinese: "在杭州当护士", "对花生过敏"); attribute names, kinds and predicates stay as below.
- "messages": the positions (from 0) of the messages it comes from.
- "relations": how the person (subject null) or a named thing stands to another named thing,
  e.g. {{"subject": null, "predicate": "sister", "object": "Maya", "object_type": "person"}};
  types: person, place, organization, software, thing.
- Set "asserted" false when you infer it rather than the person saying it.
Kinds: {", ".join(k.value for k in MemoryKind)}.

Example. Conversation:
[0] (2026-03-10) user: I started at Acme as a designer two weeks ago, and honestly I'm vegetarian now.
[1] (2026-03-10) assistant: Congratulations on the new job!
[2] (2026-03-10) user: Please remind me to call the dentist tomorrow. My sister thinks I work too much lol
Answer:
{{"memories": [
 {{"kind": "fact", "content": "Works as a designer", "attribute": "job_title", "value": "designer",
  "when": "two weeks ago", "due": null, "entities": [], "confidence": 0.9, "asserted": true,
  "messages": [0], "relations": []}},
 {{"kind": "fact", "content": "Works at Acme since 24 February 2026", "attribute": "employer",
  "value": "Acme", "when": "two weeks ago", "due": null, "entities": ["Acme"], "confidence": 0.9,
  "asserted": true, "messages": [0], "relations": [{{"subject": null, "predicate": "works_at",
  "object": "Acme", "object_type": "organization"}}]}},
 {{"kind": "fact", "content": "Is vegetarian", "attribute": "diet", "value": "vegetarian", "when": null,
  "due": null, "entities": [], "confidence": 0.9, "asserted": true, "messages": [0]}},
 {{"kind": "todo", "content": "Call the dentist on 11 March 2026", "attribute": null, "value": null,
  "when": null, "due": "tomorrow", "entities": [], "confidence": 0.9, "asserted": true,
  "messages": [2]}}]}}"""


# The memories the prompt's example shows: a small model copies them into conversations that never
# said them, and grounding drops such a copy.
EXAMPLES = ("Works as a designer", "Works at Acme since 24 February 2026", "Is vegetarian",
            "Call the dentist on 11 March 2026")


@dataclass(frozen=True)
class ExtractionPrompt:
    system: str
    version: str


def extraction_prompt(taxonomy: Taxonomy | None = None) -> ExtractionPrompt:
    """The prompt, with the deployment's categories when it names them (its version then names
    the taxonomy too, so that memories say which categories they were sorted into)."""
    if taxonomy is None:
        return ExtractionPrompt(SYSTEM, PROMPT_VERSION)
    listed = "\n".join(f"- {c.name} (a {c.kind.value}): {c.description}" for c in taxonomy.categories)
    system = (f"{SYSTEM}\n\nAlso give each memory a \"category\", one of these names:\n{listed}")
    digest = hashlib.sha256(taxonomy.model_dump_json().encode()).hexdigest()[:8]
    return ExtractionPrompt(system, f"{PROMPT_VERSION}+taxonomy-{digest}")


DEFAULT_PROMPT = extraction_prompt()


class ExtractedRelation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subject: str | None = Field(default=None, max_length=200)
    predicate: str = Field(min_length=1, max_length=100)
    object: str = Field(min_length=1, max_length=200)
    object_type: str | None = Field(default=None, max_length=50)


class ExtractedMemory(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: MemoryKind
    category: str | None = Field(default=None, max_length=40)
    content: str = Field(min_length=1, max_length=1000)
    attribute: str | None = None
    value: str | None = None
    ends: list[str] = Field(default_factory=list, max_length=5)
    ended_value: str | None = Field(default=None, max_length=200)
    when: str | None = None
    due: str | None = None
    entities: list[str] = Field(default_factory=list, max_length=20)
    confidence: float = Field(ge=0.0, le=1.0)
    asserted: bool = True
    messages: list[int] = Field(default_factory=list)
    relations: list[ExtractedRelation] = Field(default_factory=list, max_length=20)


class ExtractedMemories(BaseModel):
    model_config = ConfigDict(extra="forbid")

    memories: list[ExtractedMemory]


def transcript(messages: Sequence[Message]) -> str:
    """The conversation as the model reads it, each message with its date (times are resolved
    against it)."""
    return "\n".join(_line(i, m) for i, m in enumerate(messages))


def _line(position: int, message: Message) -> str:
    return f"[{position}] {_dated(message)}{message.role}: {message.content}"


def _dated(message: Message) -> str:
    return f"({utc(message.timestamp):%Y-%m-%d}) " if message.timestamp else ""


def estimated_tokens(text: str) -> int:
    """A count of tokens that errs high: English runs near four characters a token in the common
    tokenizers, numbers and other scripts nearer three; three keeps a part inside the context."""
    return len(text) // 3 + 1


def parts(messages: Sequence[Message], max_tokens: int) -> list[tuple[int, list[Message]]]:
    """The conversation cut into consecutive parts whose transcripts fit `max_tokens`, each with
    the position of its first message; a message too long for any part is shortened to fit."""
    limit = max(max_tokens, 64)
    cut: list[tuple[int, list[Message]]] = []
    start, part, size = 0, [], 0
    for position, message in enumerate(messages):
        line = estimated_tokens(_line(position - start, message) + "\n")
        if line > limit:
            keep = max(limit * 3 - 40, 1)
            message = message.model_copy(update={"content": message.content[:keep] + " …"})
            line = estimated_tokens(_line(0, message) + "\n")
        if part and size + line > limit:
            cut.append((start, part))
            start, part, size = position, [], 0
        part.append(message)
        size += line
    if part:
        cut.append((start, part))
    return cut


def transcript_budget(context_tokens: int, answer_tokens: int,
                      prompt: ExtractionPrompt = DEFAULT_PROMPT) -> int:
    """What a part's transcript may take of the model's context: the rest after the instructions
    (with the schema, as JSON mode sends it) and room for the answer."""
    instructions = prompt.system + json.dumps(ExtractedMemories.model_json_schema())
    return context_tokens - estimated_tokens(instructions) - answer_tokens


Extracted = tuple[list[Candidate], Structured[ExtractedMemories]]


def extract_with(llm: LLM, messages: Sequence[Message], at: datetime,
                 prompt: ExtractionPrompt = DEFAULT_PROMPT) -> Extracted:
    """The model's candidates for a conversation, and its answer as it gave it (for the log).
    What it says that the conversation does not (its prompt's example, a name no one said) is
    left out."""
    conversation = transcript(messages)
    answer = llm.structured(prompt.system, conversation, ExtractedMemories, "extracted_memories")
    kept = []
    for found in answer.value.memories:
        why = ungrounded(found.content, found.value, found.entities, conversation, EXAMPLES)
        if why:  # the raw answer is in the log: the drop is seen, and made again, from it
            log.info("left out %r of %s: %s", found.content, answer.model, why)
            continue
        kept.append(_candidate(found, messages, at, f"{answer.model}:{prompt.version}"))
    return kept, answer


def _candidate(found: ExtractedMemory, messages: Sequence[Message], at: datetime,
               extractor: str) -> Candidate:
    """What the model said, made exact by the offline rules where it left something out: a time
    it did not name but its sentence does, and the slot that the rules find in its message when
    the model's sentence names the same value ("I moved to Lisbon" is `home_city`)."""
    positions = tuple(p for p in found.messages if 0 <= p < len(messages))
    said_at = utc(messages[positions[0]].timestamp or at) if positions else utc(at)
    attribute = canonical_slot(found.attribute) if found.attribute else None
    value, kind = (found.value if attribute else None), found.kind
    if attribute is None:
        # The model may point at the wrong message: the one that says the value is looked for,
        # and it must say it the way the model's sentence does (a word beside the value in common).
        content = normalized(found.content)
        slotted = {(c.attribute, c.value): c for c in rules.extract(messages, said_at, english_parser())
                   if c.attribute and c.value and normalized(c.value) in content
                   and (content_words(content) & content_words(c.content)) - content_words(c.value)}
        if len(slotted) == 1:
            (rule,) = slotted.values()
            attribute, value, kind = rule.attribute, rule.value, rule.kind
            if not set(positions) & set(rule.positions):
                positions = rule.positions
    when = resolve(found.when, said_at) if found.when else None
    if when is None and kind is not MemoryKind.TODO:
        when = resolve(found.content, said_at)  # a to-do's time in its sentence is when it is due
    due = None
    if found.due or kind is MemoryKind.TODO:
        due = resolve(found.due or found.content, said_at, future=True)
    relations = tuple(Relation(subject=r.subject, predicate=_snake(r.predicate), object=r.object)
                      for r in found.relations if _snake(r.predicate))
    types = tuple((r.object, r.object_type.lower()) for r in found.relations
                  if r.object_type and r.object_type.lower() in ENTITY_TYPES)
    ends = tuple(dict.fromkeys(canonical_slot(name) for name in found.ends if name.strip()))
    return Candidate(kind=kind, category=found.category, content=found.content, attribute=attribute,
                     value=value, ends=ends, ended_value=found.ended_value if ends else None,
                     valid_from=when or said_at, due_at=due, entities=tuple(dict.fromkeys(found.entities)),
                     entity_types=types, relations=relations,
                     confidence=found.confidence, asserted=found.asserted, positions=positions,
                     extractor=extractor)


def _snake(predicate: str) -> str:
    return _NOT_A_WORD.sub("_", predicate.strip().lower()).strip("_")[:100]
