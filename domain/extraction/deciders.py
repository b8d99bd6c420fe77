"""The decider of RecordExtraction: what an extractor found, consolidated into the person's memory.

Each candidate is judged against what the person has (and what this extraction added before it),
in order; the verdicts are logged first (MemoriesExtracted), then the memory events that carry them
out. A model's proposed verdicts are taken only where consolidate.py allows them."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.commands import MessageRef, ProposedVerdict, RecordExtraction, merged_sentences
from domain.confidence import restated
from domain.conversations.deciders import require_episodes
from domain.entity_types import entity_types
from domain.envelope import Envelope
from domain.events import (
    Embedding,
    Event,
    MemoriesExtracted,
    MemoryMerged,
    MemoryRecorded,
    MemoryReinforced,
    MemorySuperseded,
    Verdict,
)
from domain.extraction.candidate import Candidate, importance
from domain.extraction.consolidate import Judgement, judge, slot_around
from domain.extraction.policy import ExtractionPolicy
from domain.memories.deciders import remind_before
from domain.model import MemoryKind, derived_id, normalized
from domain.state import MemoryState, UserState, evolve, slot_key


def extraction_command_id(extraction_id: str) -> str:
    """The id of the RecordExtraction that answers an ExtractionDue: one answer per extraction,
    however often the extraction process sees it."""
    return f"extraction-{extraction_id}"


def extraction_texts(command: RecordExtraction) -> list[str]:
    """What a RecordExtraction embeds: each candidate, in order, then the sentence of each merge a
    model proposed (the vector of the memory that merge makes, if it is taken)."""
    if not command.candidates:
        return []
    return [c.content for c in command.candidates] + merged_sentences(command)


@dataclass
class _Taken:
    """What one candidate came to: its verdict, and the events that carry it out."""

    judgement: Judgement
    memory_id: str | None
    events: list[Event]


def decide_record_extraction(
    command: RecordExtraction, state: UserState, envelope: Envelope, embeddings: Sequence[Embedding]
) -> list[Event]:
    if command.candidates:
        require_episodes(state, command.window)  # erased while it was being extracted
    scratch = copy.deepcopy(state)
    verdicts: list[Verdict] = []
    changes: list[Event] = []
    count = len(command.candidates)
    vectors: Sequence[Embedding | None] = embeddings[:count] if len(embeddings) >= count else [None] * count
    merge_vectors = iter(embeddings[count:])  # one per merge a model proposed with its sentence
    for number, candidate in enumerate(command.candidates):
        proposed = command.proposed[number] if command.proposed else None
        taken = _take(
            command,
            number,
            _categorised(candidate, envelope.policy),
            proposed,
            scratch,
            envelope,
            vectors[number],
            merge_vectors,
        )
        if taken.memory_id is not None and taken.judgement.verdict != "kept_out":
            taken.events.extend(_endings(candidate, taken.memory_id, scratch, envelope,
                                         taken.judgement.decided_by or _decided_by(command)))
        evolve(scratch, taken.events)
        changes.extend(taken.events)
        found = taken.judgement
        verdicts.append(
            Verdict(
                candidate=number,
                verdict=found.verdict,
                memory_id=taken.memory_id,
                other=found.others,
                reason=found.reason,
                decided_by=found.decided_by,
            )
        )
    extracted = MemoriesExtracted(
        **envelope(),
        extraction_id=command.extraction_id,
        session_id=command.session_id,
        window=command.window,
        extractor=command.extractor,
        prompt_version=command.prompt_version,
        raw_output=command.raw_output,
        prompt_tokens=command.prompt_tokens,
        completion_tokens=command.completion_tokens,
        skipped=command.skipped,
        candidates=command.candidates,
        proposed=command.proposed,
        verdicts=tuple(verdicts),
    )
    return [extracted, *changes]


def _take(
    command: RecordExtraction,
    number: int,
    candidate: Candidate,
    proposed: ProposedVerdict | None,
    scratch: UserState,
    envelope: Envelope,
    vector: Embedding | None,
    merge_vectors: Iterator[Embedding],
) -> _Taken:
    """Judge one candidate and say what carries the judgement out."""
    merge_vector = (
        next(merge_vectors, None) if proposed and proposed.verdict == "merge" and proposed.content else None
    )
    found = judge(scratch, candidate, command.similar[number] if command.similar else (), proposed)
    if found.content:
        candidate = candidate.model_copy(update={"content": found.content})
        vector = merge_vector
    by = found.decided_by or _decided_by(command)
    refs = _refs(command, candidate)
    target = found.target
    if (
        target is not None
        and found.verdict == "same"
        and refs
        and {(r.episode_id, r.position) for r in refs} <= target.messages
    ):
        # The same messages read again (windows overlap, an episode extracted again): no new source.
        return _Taken(
            Judgement("same", "already taken from these messages", target, found.others), target.memory_id, []
        )
    if target is not None and found.verdict == "same":
        return _Taken(found, target.memory_id, [_reinforced(envelope, target, candidate, by, refs)])
    if found.verdict == "kept_out":
        return _Taken(found, None, [])
    memory_id = derived_id("memory", command.user_id, command.command_id, str(number))
    base = category.importance if (category := envelope.policy.category(candidate.category)) else None
    return _Taken(
        found, memory_id, _recorded_from(command, candidate, found, envelope, memory_id, by, vector, base)
    )


def _endings(candidate: Candidate, memory_id: str, state: UserState, envelope: Envelope,
             decided_by: str) -> list[Event]:
    """What a memory says has ended ("I was laid off last month": the employer and the job; "our
    dog Bruno died": the dog named Bruno): the value each slot held then is closed at the memory's
    time, superseded by it. A slot that held nothing then, or another value than the one named, is
    left alone, and so is a value that began after it ("I was laid off in 2019" ends no job of now)."""
    events: list[Event] = []
    own = slot_key(candidate.attribute)
    for slot in dict.fromkeys(k for name in candidate.ends if (k := slot_key(name)) is not None and k != own):
        held, _ = slot_around(state, slot, candidate.valid_from)
        if held is None or not held.holds_at(candidate.valid_from) or (
                candidate.ended_value is not None and held.value_key != normalized(candidate.ended_value)):
            continue
        events.append(MemorySuperseded(
            **envelope(), memory_id=held.memory_id, by_memory_id=memory_id, valid_until=candidate.valid_from,
            decided_by=decided_by, reason=f"{slot} ended: {candidate.content}"))
    return events


def _decided_by(command: RecordExtraction) -> str:
    return command.extractor + (f":{command.prompt_version}" if command.prompt_version else "")


def _reinforced(
    envelope: Envelope,
    target: MemoryState,
    candidate: Candidate,
    decided_by: str,
    refs: tuple[MessageRef, ...],
) -> MemoryReinforced:
    """Said again: more certain, more important, one more source."""
    return MemoryReinforced(
        **envelope(),
        memory_id=target.memory_id,
        confidence=restated(target.confidence, candidate.confidence),
        importance=round(min(1.0, target.importance + 0.1), 4),
        decided_by=decided_by,
        messages=refs,
    )


def _categorised(candidate: Candidate, policy: ExtractionPolicy) -> Candidate:
    """The candidate filed under the deployment's taxonomy where it names a known category (whose
    kind it then is); else under none — a category is not guessed from a kind ("has a dog" is a
    fact, and not the body's)."""
    category = policy.category(candidate.category)
    if category is None:
        return candidate.model_copy(update={"category": None})
    return candidate.model_copy(update={"category": category.name, "kind": category.kind})


def _recorded_from(
    command: RecordExtraction,
    candidate: Candidate,
    found: Judgement,
    envelope: Envelope,
    memory_id: str,
    decided_by: str,
    embedding: Embedding | None,
    base: float | None = None,
) -> list[Event]:
    """A new memory (new, distinct, an update, a merge), and what it closes or merges."""
    merged = found.others if found.verdict == "merge" else ()
    after = found.after
    events: list[Event] = [
        _extracted(
            command,
            candidate,
            envelope,
            memory_id,
            after.valid_from if after is not None else None,
            decided_by,
            merged,
            embedding,
            base,
        )
    ]
    if found.verdict == "update" and found.target is not None:
        events.append(
            MemorySuperseded(
                **envelope(),
                memory_id=found.target.memory_id,
                by_memory_id=memory_id,
                valid_until=candidate.valid_from,
                decided_by=decided_by,
                reason=found.reason,
            )
        )
    if after is not None:
        events.append(
            MemorySuperseded(
                **envelope(),
                memory_id=memory_id,
                by_memory_id=after.memory_id,
                valid_until=after.valid_from,
                decided_by=decided_by,
                reason="a later value was known already",
            )
        )
    if merged:
        events.append(
            MemoryMerged(
                **envelope(),
                memory_id=memory_id,
                merged_from=merged,
                decided_by=decided_by,
                reason=found.reason,
            )
        )
    return events


def _refs(command: RecordExtraction, candidate: Candidate) -> tuple[MessageRef, ...]:
    """The messages a candidate comes from, by their place in the person's conversations."""
    return tuple(command.window[p] for p in candidate.positions if 0 <= p < len(command.window))


def _extracted(
    command: RecordExtraction,
    candidate: Candidate,
    envelope: Envelope,
    memory_id: str,
    valid_until: datetime | None,
    decided_by: str,
    merged: tuple[str, ...],
    embedding: Embedding | None,
    base: float | None = None,
) -> MemoryRecorded:
    refs = _refs(command, candidate)
    episode = refs[0].episode_id if refs else (command.window[0].episode_id if command.window else None)
    return MemoryRecorded(
        **envelope(),
        memory_id=memory_id,
        kind=candidate.kind,
        category=candidate.category,
        content=candidate.content,
        attribute=candidate.attribute,
        value=candidate.value,
        valid_from=candidate.valid_from,
        valid_until=valid_until,
        importance=importance(candidate, merges=len(merged), base=base),
        confidence=candidate.confidence,
        source=candidate.extractor,
        entities=tuple(
            dict.fromkeys(
                [*candidate.entities, *(n for r in candidate.relations for n in (r.subject, r.object) if n)]
            )
        ),
        episode_id=episode,
        embedding=embedding,
        decided_by=decided_by,
        due_at=candidate.due_at,
        remind_at=remind_before(candidate.due_at) if candidate.kind is MemoryKind.TODO else None,
        asserted=candidate.asserted,
        messages=refs,
        merged_from=merged,
        entity_types=_typed(candidate),
        relations=candidate.relations,
    )


def _typed(candidate: Candidate) -> tuple[tuple[str, str], ...]:
    """The types the extractor gave, and for the names it left untyped, what the words say."""
    given = dict(candidate.entity_types)
    read = entity_types([n for n in candidate.entities if n not in given], candidate.content)
    return (*candidate.entity_types, *read)
