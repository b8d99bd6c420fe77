"""Deciders of the commands on single memories: (command, state, envelope, vectors) -> events."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from domain.commands import (
    CompleteTodo,
    ForgetMemory,
    GiveFeedback,
    MessageRef,
    PurgeMemory,
    RecordMemory,
    RecordUse,
    ReopenTodo,
    RestoreMemory,
    UseCount,
)
from domain.confidence import confidence_after, restated
from domain.conversations.deciders import summary_due, summary_id_for
from domain.entity_types import entity_types
from domain.envelope import Envelope, Stamped
from domain.errors import (
    InvalidValidityWindow,
    MemoryAlreadyForgotten,
    MemoryNotForgotten,
    MemoryNotFound,
    NotATodo,
    TodoAlreadyCompleted,
    TodoNotCompleted,
)
from domain.events import (
    Embedding,
    Event,
    FeedbackGiven,
    MemoriesUsed,
    MemoryForgotten,
    MemoryPurged,
    MemoryRecorded,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    ProfileDue,
    TodoCompleted,
    TodoReopened,
)
from domain.model import MemoryKind, derived_id, normalized
from domain.state import MemoryState, UserState, slot_key

REMIND_BEFORE = timedelta(hours=1)


def memory_id_for(user_id: str, command_id: str) -> str:
    """The id of the memory that a RecordMemory command creates."""
    return derived_id("memory", user_id, command_id)


def remind_before(due_at: datetime | None) -> datetime | None:
    """When a to-do is reminded of, unless said: an hour before it is due."""
    return due_at - REMIND_BEFORE if due_at is not None else None


def memory_texts(command: RecordMemory) -> list[str]:
    """What a RecordMemory embeds: its content (the vector `decide_record_memory` records)."""
    return [command.content]


def decide_record_memory(command: RecordMemory, state: UserState, envelope: Envelope,
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
    events: list[Event] = [_recorded(command, envelope, memory_id, valid_from, valid_until, embeddings)]
    if before is not None and (before.valid_until is None or before.valid_until > valid_from):
        events.append(MemorySuperseded(**envelope(), memory_id=before.memory_id,
                                       by_memory_id=memory_id, valid_until=valid_from))
    if after is not None:
        # A late arrival: it slots in before the value that came after it in the person's life.
        events.append(MemorySuperseded(**envelope(), memory_id=memory_id,
                                       by_memory_id=after.memory_id, valid_until=after.valid_from))
    return events


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


def _reinforce(memory: MemoryState, command: RecordMemory, envelope: Envelope) -> MemoryReinforced:
    return MemoryReinforced(**envelope(), memory_id=memory.memory_id,
                            confidence=restated(memory.confidence, command.confidence), source=command.source)


def _recorded(command: RecordMemory, envelope: Envelope, memory_id: str, valid_from: datetime,
              valid_until: datetime | None, embeddings: Sequence[Embedding]) -> MemoryRecorded:
    return MemoryRecorded(
        **envelope(), memory_id=memory_id, kind=command.kind, content=command.content,
        attribute=command.attribute, value=command.value, valid_from=valid_from,
        valid_until=valid_until, importance=command.importance, confidence=command.confidence,
        source=command.source, entities=command.entities, episode_id=command.episode_id,
        embedding=embeddings[0] if embeddings else None, due_at=command.due_at,
        remind_at=command.remind_at or remind_before(command.due_at),
        entity_types=entity_types(command.entities, command.content),
    )


def decide_forget_memory(command: ForgetMemory, state: UserState, envelope: Envelope,
                         embeddings: Sequence[Embedding]) -> list[Event]:
    """The person forgets a memory: it is hidden, and so are the turns its words came from (the
    projection does both); the summaries of those sessions and the profile are written anew without
    them, the profile withheld until then."""
    memory = existing(state, command.memory_id)
    if memory.forgotten:
        raise MemoryAlreadyForgotten(command.memory_id)
    forgotten = MemoryForgotten(**envelope(), memory_id=command.memory_id, reason=command.reason)
    return [forgotten, *revisions(state, [command.memory_id], command, envelope, "a memory was forgotten",
                                  withhold=True)]


def decide_restore_memory(command: RestoreMemory, state: UserState, envelope: Envelope,
                          embeddings: Sequence[Embedding]) -> list[Event]:
    memory = existing(state, command.memory_id)
    if not memory.forgotten and memory.compressed_into is None:
        raise MemoryNotForgotten(command.memory_id)
    restored: list[Event] = [MemoryRestored(**envelope(), memory_id=command.memory_id)]
    if memory.forgotten:
        restored += revisions(state, [command.memory_id], command, envelope, "a memory was restored")
    return restored


def decide_purge_memory(command: PurgeMemory, state: UserState, envelope: Envelope,
                        embeddings: Sequence[Embedding]) -> list[Event]:
    """Delete a memory for good, with every memory that holds the same words (merged or compressed
    with it, either way) and the words of the turns they came from; the summaries of those sessions
    and the profile are written anew without them. The handler destroys the keys of those words
    before the purge is logged (domain/shredding.py)."""
    existing(state, command.memory_id)
    family = sorted(merged_with(state, command.memory_id))
    said = sorted(sources(state, family))
    sessions = source_sessions(state, family)
    summaries = [s for s in (summary_id_for(command.user_id, x) for x in sessions) if s in state.summaries]
    purged = MemoryPurged(**envelope(), memory_ids=tuple(family), summaries=tuple(summaries),
                          messages=tuple(MessageRef(episode_id=e, position=p) for e, p in said))
    return [purged, *revisions(state, family, command, envelope, "a memory was purged", withhold=True)]


def merged_with(state: UserState, memory_id: str) -> set[str]:
    """The memory and those it shares words with: what it was merged or compressed into, and what was
    merged or compressed into those, to the whole group."""
    group = {memory_id}
    while True:
        into = {m.merged_into or m.compressed_into for m in (state.memories[i] for i in group)}
        more = (word_family(state, list(group)) | {i for i in into if i and i in state.memories}) - group
        if not more:
            return group
        group |= more


def word_family(state: UserState, memory_ids: Sequence[str]) -> set[str]:
    """The memories that hold the same words: these, and those merged or compressed into them."""
    family = set(memory_ids)
    while True:
        more = {m.memory_id for m in state.memories.values()
                if (m.merged_into in family or m.compressed_into in family) and m.memory_id not in family}
        if not more:
            return family
        family |= more


def sources(state: UserState, memory_ids: Sequence[str]) -> set[tuple[str, int]]:
    """The turns (episode, position) these memories' words came from."""
    return {ref for m in memory_ids for ref in state.memories[m].messages}


def source_sessions(state: UserState, memory_ids: Sequence[str]) -> list[str]:
    """The sessions whose turns the words of these memories came from."""
    said = {episode for episode, _ in sources(state, list(word_family(state, memory_ids)))}
    return sorted({state.episodes[e][0] for e in said if e in state.episodes})


def revisions(state: UserState, memory_ids: Sequence[str], command: Stamped, envelope: Envelope, why: str,
              withhold: bool = False, sessions: Collection[str] = ()) -> list[Event]:
    """What the person's forgetting or restoring makes due again: the summary of each session the
    words came from (and of `sessions`; one that has a summary), and the profile's next version."""
    events: list[Event] = [summary_due(envelope, command, session, "revised")
                           for session in sorted(set(source_sessions(state, memory_ids)) | set(sessions))
                           if summary_id_for(command.user_id, session) in state.summaries]
    if state.profile.version:
        events.append(ProfileDue(**envelope(), reason=why, withhold=withhold))
    return events


def decide_complete_todo(command: CompleteTodo, state: UserState, envelope: Envelope,
                         embeddings: Sequence[Embedding]) -> list[Event]:
    todo = _todo(state, command.memory_id)
    if todo.completed:
        raise TodoAlreadyCompleted(command.memory_id)
    return [TodoCompleted(**envelope(), memory_id=command.memory_id,
                          completed_at=command.completed_at or command.occurred_at)]


def decide_reopen_todo(command: ReopenTodo, state: UserState, envelope: Envelope,
                       embeddings: Sequence[Embedding]) -> list[Event]:
    if not _todo(state, command.memory_id).completed:
        raise TodoNotCompleted(command.memory_id)
    return [TodoReopened(**envelope(), memory_id=command.memory_id)]


def decide_give_feedback(command: GiveFeedback, state: UserState, envelope: Envelope,
                         embeddings: Sequence[Embedding]) -> list[Event]:
    memory = existing(state, command.memory_id)
    return [FeedbackGiven(**envelope(), memory_id=command.memory_id, verdict=command.verdict,
                          note=command.note, confidence=confidence_after(memory.confidence, command.verdict))]


def decide_record_use(command: RecordUse, state: UserState, envelope: Envelope,
                      embeddings: Sequence[Embedding]) -> list[Event]:
    """The uses of memories the person still has; a memory erased or purged meanwhile is passed over
    (use is a statistic: nothing to refuse)."""
    found, cited = _known(state, command.found), _known(state, command.cited)
    if not found and not cited:
        return []
    return [MemoriesUsed(**envelope(), found=found, cited=cited)]


def _known(state: UserState, uses: tuple[UseCount, ...]) -> tuple[UseCount, ...]:
    counts: dict[str, int] = {}
    for use in uses:
        if use.memory_id in state.memories:
            counts[use.memory_id] = counts.get(use.memory_id, 0) + use.count
    return tuple(UseCount(memory_id=m, count=n) for m, n in sorted(counts.items()))


def existing(state: UserState, memory_id: str) -> MemoryState:
    """The person's memory of that id; refused when there is none."""
    memory = state.memories.get(memory_id)
    if memory is None:
        raise MemoryNotFound(memory_id)
    return memory


def _todo(state: UserState, memory_id: str) -> MemoryState:
    memory = existing(state, memory_id)
    if memory.kind is not MemoryKind.TODO:
        raise NotATodo(memory_id, memory.kind.value)
    return memory
