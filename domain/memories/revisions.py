"""The person's own edits: new memories, corrected wording, memories forgotten, as one decision.

A correction is not a new value of a slot: the old wording was wrong, not true until now. So the
corrected memory is recorded over the old one's whole window, and the old one holds no time any
more (its window closed where it opened). As known before the correction, the old wording stands;
its history (the SUPERSEDES edge) keeps it. Whatever the old memory superseded is superseded by the
corrected one instead.

Every part is checked against the state before anything is decided, and decided on a copy of it:
one refusal refuses the whole revision (an edited file is applied whole or not at all).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from copy import deepcopy

from domain.commands import CompleteTodo, Correction, RecordMemory, ReopenTodo, ReviseMemories
from domain.entity_types import entity_types
from domain.envelope import Envelope
from domain.errors import MemoryAlreadyForgotten, MemoryNotCurrent, MemoryPaused, RevisionInvalid
from domain.events import Embedding, Event, MemoryCorrected, MemoryForgotten, MemoryRecorded, MemorySuperseded
from domain.memories.deciders import (
    decide_complete_todo,
    decide_record_memory,
    decide_reopen_todo,
    existing,
    remind_before,
    revisions,
)
from domain.model import derived_id, normalized
from domain.state import MemoryState, UserState, evolve, slot_key

CORRECTION = "correction"


def revision_texts(command: ReviseMemories) -> list[str]:
    """What a revision embeds: its new memories, then its corrections, in order."""
    return [m.content for m in command.record] + [c.content for c in command.correct]


def corrected_id(user_id: str, command_id: str, memory_id: str) -> str:
    """The id of the memory that holds a correction of `memory_id`."""
    return derived_id("memory", user_id, command_id, CORRECTION, memory_id)


def decide_revise_memories(command: ReviseMemories, state: UserState, envelope: Envelope,
                           embeddings: Sequence[Embedding]) -> list[Event]:
    if (command.record or command.correct) and state.settings.paused:
        raise MemoryPaused("a temporary session is on" if state.settings.temporary else "memory is off")
    _check(command, state)
    vectors: Iterator[Embedding | None] = iter(embeddings) if embeddings else _none()
    scratch = deepcopy(state)
    events: list[Event] = []
    for index, new in enumerate(command.record):
        sub_id = derived_id("revision", command.user_id, command.command_id, str(index))
        said = RecordMemory(command_id=sub_id, user_id=command.user_id, occurred_at=command.occurred_at,
                            content=new.content, kind=new.kind, source=command.source)
        vector = next(vectors)
        decided = decide_record_memory(said, scratch, envelope, [vector] if vector else [])
        evolve(scratch, decided)
        events += decided
    for correction in command.correct:
        decided = _correct(correction, command, scratch, envelope, next(vectors))
        evolve(scratch, decided)
        events += decided
    who, when = command.user_id, command.occurred_at
    for memory_id in command.complete:
        done = CompleteTodo(command_id=command.command_id, user_id=who, occurred_at=when, memory_id=memory_id)
        events += decide_complete_todo(done, scratch, envelope, ())
    for memory_id in command.reopen:
        again = ReopenTodo(command_id=command.command_id, user_id=who, occurred_at=when, memory_id=memory_id)
        events += decide_reopen_todo(again, scratch, envelope, ())
    events += [MemoryForgotten(**envelope(), memory_id=m, reason=command.source) for m in command.forget]
    if command.forget:
        events += revisions(state, list(command.forget), command, envelope, "memories were forgotten",
                            withhold=True)
    return events


def _none() -> Iterator[None]:
    while True:
        yield None


def _check(command: ReviseMemories, state: UserState) -> None:
    named = [c.memory_id for c in command.correct] + list(command.forget)
    ticked = list(command.complete) + list(command.reopen)
    twice = sorted({m for m in named if named.count(m) > 1} | {m for m in ticked if ticked.count(m) > 1})
    if twice:
        raise RevisionInvalid(f"memory {twice[0]!r} is named twice: correct it or forget it, once")
    for memory_id in ticked:
        existing(state, memory_id)  # a to-do's checks come as it is decided, on the copy
    for memory_id in command.forget:
        if existing(state, memory_id).forgotten:
            raise MemoryAlreadyForgotten(memory_id)
    for correction in command.correct:
        memory = existing(state, correction.memory_id)
        if not memory.active:
            raise MemoryNotCurrent(correction.memory_id, memory.status.value)
        if slot_key(correction.attribute) != memory.slot:
            raise RevisionInvalid(f"memory {correction.memory_id!r}: a correction keeps the memory's slot "
                                  f"({memory.slot or 'none'})")
        value = normalized(correction.value or correction.content)
        same_value = memory.slot is None or value == memory.value_key
        if normalized(correction.content) == memory.content_key and same_value:
            raise RevisionInvalid(f"memory {correction.memory_id!r}: the correction says what it says "
                                  "already")


def _correct(correction: Correction, command: ReviseMemories, state: UserState, envelope: Envelope,
             vector: Embedding | None) -> list[Event]:
    old = state.memories[correction.memory_id]
    new_id = corrected_id(command.user_id, command.command_id, old.memory_id)
    recorded = MemoryRecorded(
        **envelope(), memory_id=new_id, kind=old.kind, category=correction.category,
        content=correction.content, attribute=correction.attribute, value=correction.value,
        valid_from=old.valid_from, valid_until=old.valid_until, importance=old.importance,
        confidence=1.0, source=command.source, entities=correction.entities, episode_id=correction.episode_id,
        embedding=vector, due_at=correction.due_at,
        remind_at=correction.remind_at or remind_before(correction.due_at), asserted=True,
        entity_types=entity_types(correction.entities, correction.content))
    corrected = MemoryCorrected(**envelope(), memory_id=old.memory_id, by_memory_id=new_id,
                                valid_until=old.valid_from, decided_by=CORRECTION)
    events: list[Event] = [recorded, corrected]
    # What the old wording had superseded is superseded by the corrected one now.
    events += [MemorySuperseded(**envelope(), memory_id=earlier.memory_id, by_memory_id=new_id,
                                valid_until=earlier.valid_until or old.valid_from)
               for earlier in _superseded_by(state, old.memory_id)]
    return events


def _superseded_by(state: UserState, memory_id: str) -> list[MemoryState]:
    return sorted((m for m in state.memories.values() if m.superseded_by == memory_id),
                  key=lambda m: (m.valid_from, m.sequence))
