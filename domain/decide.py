"""Deciders: (state, command, now) -> events. Pure; the clock and any vector come in as arguments."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from datetime import datetime
from functools import singledispatch
from typing import Any

from domain.commands import (
    EraseUser,
    ForgetMemory,
    RecordEpisode,
    RecordMemory,
    RestoreMemory,
)
from domain.errors import (
    DomainError,
    InvalidValidityWindow,
    MemoryAlreadyForgotten,
    MemoryNotForgotten,
    MemoryNotFound,
)
from domain.events import (
    CommandRejected,
    Embedding,
    EpisodeRecorded,
    Event,
    MemoryForgotten,
    MemoryRecorded,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    UserErased,
)
from domain.model import MemoryKind, derived_id, normalized
from domain.state import MemoryState, UserState, slot_key


def decide(
    state: UserState, command: Any, now: datetime, embeddings: Sequence[Embedding] = ()
) -> list[Event]:
    """The events that `command` causes in `state`; raises a DomainError to refuse it.

    `embeddings`: the vector of a memory's content, or one per message of an episode."""
    return _decide(command, state, _Envelope(command, now), tuple(embeddings))


def rejected(command: Any, error: DomainError, now: datetime) -> CommandRejected:
    """The event that records a refusal, so that the command's id keeps its answer."""
    return CommandRejected(**_Envelope(command, now)(), command_type=type(command).__name__,
                           code=error.code, reason=str(error))


class _Envelope:
    """Numbers the events of one command, so that ids are the same each time it is decided."""

    def __init__(self, command: Any, now: datetime) -> None:
        self._command = command
        self._now = now
        self._count = 0

    def __call__(self) -> dict[str, Any]:
        self._count += 1
        return {
            "event_id": derived_id("event", self._command.user_id, self._command.command_id,
                                   str(self._count)),
            "user_id": self._command.user_id,
            "command_id": self._command.command_id,
            "occurred_at": self._command.occurred_at,
            "recorded_at": self._now,
        }


@singledispatch
def _decide(command: Any, state: UserState, envelope: _Envelope,
            embeddings: Sequence[Embedding]) -> list[Event]:
    raise TypeError(f"no decider for {type(command).__name__}")


@_decide.register
def _(command: RecordMemory, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    valid_from = command.valid_from or command.occurred_at
    if command.valid_until is not None and command.valid_until < valid_from:
        raise InvalidValidityWindow(valid_from, command.valid_until)
    # Derived from the user and the command, so ids never collide across people.
    memory_id = memory_id_for(command.user_id, command.command_id)
    slot = slot_key(command.attribute)
    if slot is None:
        same = _same_statement(state, command, valid_from)
        if same is not None:
            return [_reinforce(same, command, envelope)]
        return [_recorded(command, envelope, memory_id, valid_from, command.valid_until, embeddings)]

    timeline = state.timeline(slot)
    at = bisect_right([m.valid_from for m in timeline], valid_from)
    before = timeline[at - 1] if at > 0 else None
    after = timeline[at] if at < len(timeline) else None
    value_key = normalized(command.value or command.content)
    if before is not None and not before.forgotten and before.value_key == value_key \
            and before.holds_at(valid_from):
        return [_reinforce(before, command, envelope)]

    valid_until = command.valid_until
    if after is not None and (valid_until is None or valid_until > after.valid_from):
        valid_until = after.valid_from
    events: list[Event] = [_recorded(command, envelope, memory_id, valid_from, valid_until,
                                      embeddings)]
    if before is not None and (before.valid_until is None or before.valid_until > valid_from):
        events.append(MemorySuperseded(**envelope(), memory_id=before.memory_id,
                                       by_memory_id=memory_id, valid_until=valid_from))
    if after is not None:
        # A late arrival: it slots in before the value that came after it in the person's life.
        events.append(MemorySuperseded(**envelope(), memory_id=memory_id,
                                       by_memory_id=after.memory_id, valid_until=after.valid_from))
    return events


def memory_id_for(user_id: str, command_id: str) -> str:
    """The id of the memory that a RecordMemory command creates."""
    return derived_id("memory", user_id, command_id)


def _same_statement(state: UserState, command: RecordMemory, valid_from: datetime) -> MemoryState | None:
    """The memory that `command` says again, if any: the latest one with the same kind and words
    that the new statement does not contradict in time."""
    for memory_id in reversed(state.by_content.get((command.kind, normalized(command.content)), [])):
        memory = state.memories[memory_id]
        if not memory.forgotten and restates(memory, command.kind, valid_from):
            return memory
    return None


def restates(memory: MemoryState, kind: MemoryKind, valid_from: datetime) -> bool:
    """Whether the same words, true from `valid_from`, are the memory said again.

    An event happens at a time and recurs: a migraine in January and one in June are two
    events, the same one told twice on its day is one. A preference, fact or lesson holds over
    time: said again while it still holds (or of an earlier time) it is the same memory; said
    again after its window closed, it holds anew and is another memory."""
    if kind is MemoryKind.EVENT:
        return memory.valid_from.date() == valid_from.date()
    return memory.valid_until is None or valid_from < memory.valid_until


def _reinforce(memory: MemoryState, command: RecordMemory, envelope: _Envelope) -> MemoryReinforced:
    # Independent confirmations combine like a noisy-or: each makes the memory more certain.
    confidence = 1 - (1 - memory.confidence) * (1 - command.confidence)
    return MemoryReinforced(**envelope(), memory_id=memory.memory_id,
                            confidence=round(confidence, 6), source=command.source)


def _recorded(command: RecordMemory, envelope: _Envelope, memory_id: str, valid_from: datetime,
              valid_until: datetime | None, embeddings: Sequence[Embedding]) -> MemoryRecorded:
    return MemoryRecorded(
        **envelope(), memory_id=memory_id, kind=command.kind, content=command.content,
        attribute=command.attribute, value=command.value, valid_from=valid_from,
        valid_until=valid_until, importance=command.importance, confidence=command.confidence,
        source=command.source, entities=command.entities, episode_id=command.episode_id,
        embedding=embeddings[0] if embeddings else None,
    )


@_decide.register
def _(command: RecordEpisode, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    episode_id = command.episode_id or derived_id("episode", command.user_id, command.command_id)
    if episode_id in state.episodes:
        return []
    vectors = tuple(embeddings) if len(embeddings) == len(command.messages) else ()
    return [EpisodeRecorded(**envelope(), episode_id=episode_id, session_id=command.session_id,
                            messages=command.messages, embeddings=vectors)]


@_decide.register
def _(command: ForgetMemory, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    memory = _existing(state, command.memory_id)
    if memory.forgotten:
        raise MemoryAlreadyForgotten(command.memory_id)
    return [MemoryForgotten(**envelope(), memory_id=command.memory_id, reason=command.reason)]


@_decide.register
def _(command: RestoreMemory, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    memory = _existing(state, command.memory_id)
    if not memory.forgotten:
        raise MemoryNotForgotten(command.memory_id)
    return [MemoryRestored(**envelope(), memory_id=command.memory_id)]


@_decide.register
def _(command: EraseUser, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    return [UserErased(**envelope())]


def _existing(state: UserState, memory_id: str) -> MemoryState:
    memory = state.memories.get(memory_id)
    if memory is None:
        raise MemoryNotFound(memory_id)
    return memory
