"""decide(state, command, now) -> events: the one entry to the deciders. Pure; the clock and any
vector come in as arguments.

Each decider lives beside its concern (memories, conversations, extraction, layers, lifecycle) and is
named for its command; `DECIDERS` says which command goes where, and `EMBEDDED_TEXTS` which texts a
command has embedded before it is decided (its decider takes their vectors in that order)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from domain.commands import (
    Command,
    CompleteTodo,
    ConfigureUser,
    EndSession,
    EraseUser,
    ExtractEpisode,
    ForgetMemory,
    ForgetTopic,
    GiveFeedback,
    MaintainMemory,
    PurgeMemory,
    RecordEpisode,
    RecordExtraction,
    RecordMemory,
    RecordProfile,
    RecordSummary,
    RecordUse,
    ReopenTodo,
    ReplaceEmbeddings,
    RestoreMemory,
    ReviseMemories,
)
from domain.conversations.deciders import (
    decide_end_session,
    decide_extract_episode,
    decide_record_episode,
    episode_texts,
)
from domain.envelope import DEFAULT_POLICY, Envelope
from domain.errors import DomainError, MemoryPaused
from domain.events import CommandRejected, Embedding, Event, ExtractionDue, UserErased
from domain.extraction.deciders import decide_record_extraction, extraction_texts
from domain.extraction.policy import ExtractionPolicy
from domain.layers.deciders import decide_record_profile, decide_record_summary, profile_due, summary_texts
from domain.lifecycle.deciders import (
    decide_configure_user,
    decide_maintain_memory,
    decide_replace_embeddings,
    maintenance_texts,
)
from domain.memories.deciders import (
    decide_complete_todo,
    decide_forget_memory,
    decide_give_feedback,
    decide_purge_memory,
    decide_record_memory,
    decide_record_use,
    decide_reopen_todo,
    decide_restore_memory,
    memory_texts,
)
from domain.memories.revisions import decide_revise_memories, revision_texts
from domain.memories.topics import decide_forget_topic
from domain.state import UserState

__all__ = ["DECIDERS", "DEFAULT_POLICY", "EMBEDDED_TEXTS", "decide", "rejected", "texts_to_embed"]

Decider = Callable[[Any, UserState, Envelope, Sequence[Embedding]], list[Event]]


def _erase(command: EraseUser, state: UserState, envelope: Envelope,
           embeddings: Sequence[Embedding]) -> list[Event]:
    """Decided in `decide` itself: it needs the keys of the person's commands."""
    raise AssertionError("an erasure is decided by decide()")


# Which decider decides each command (tests/unit/test_deciders.py: every Command has exactly one).
DECIDERS: dict[type[Command], Decider] = {
    RecordMemory: decide_record_memory,
    ForgetMemory: decide_forget_memory,
    RestoreMemory: decide_restore_memory,
    CompleteTodo: decide_complete_todo,
    ReopenTodo: decide_reopen_todo,
    GiveFeedback: decide_give_feedback,
    RecordUse: decide_record_use,
    PurgeMemory: decide_purge_memory,
    ForgetTopic: decide_forget_topic,
    ReviseMemories: decide_revise_memories,
    RecordEpisode: decide_record_episode,
    EndSession: decide_end_session,
    ExtractEpisode: decide_extract_episode,
    RecordExtraction: decide_record_extraction,
    RecordSummary: decide_record_summary,
    RecordProfile: decide_record_profile,
    MaintainMemory: decide_maintain_memory,
    ConfigureUser: decide_configure_user,
    ReplaceEmbeddings: decide_replace_embeddings,
    EraseUser: _erase,
}

# The texts a command has embedded before it is decided, in the order its decider takes the vectors.
EMBEDDED_TEXTS: dict[type[Command], Callable[[Any], list[str]]] = {
    RecordMemory: memory_texts,
    RecordEpisode: episode_texts,
    RecordExtraction: extraction_texts,
    RecordSummary: summary_texts,
    MaintainMemory: maintenance_texts,
    ReviseMemories: revision_texts,
}

# What would make Lore remember something new: refused while the person's memory is paused.
_REMEMBERING = (RecordMemory, RecordEpisode, EndSession, ExtractEpisode)


def texts_to_embed(command: Command) -> list[str]:
    """What `command` needs embedded (empty: nothing)."""
    texts = EMBEDDED_TEXTS.get(type(command))
    return texts(command) if texts is not None else []


def decide(
    state: UserState, command: Command, now: datetime, embeddings: Sequence[Embedding] = (),
    policy: ExtractionPolicy = DEFAULT_POLICY, command_keys: Sequence[str] = (),
) -> list[Event]:
    """The events that `command` causes in `state`; raises a DomainError to refuse it.

    `embeddings`: the vectors of `texts_to_embed(command)`, in order. `policy`: when conversations
    are due for extraction. `command_keys`: for an erasure, the keys of the person's commands so far
    (the projection's)."""
    envelope = Envelope(command, now, policy)
    if isinstance(command, EraseUser):
        return [UserErased(**envelope(), command_keys=tuple(sorted(set(command_keys))))]
    if isinstance(command, _REMEMBERING) and state.settings.paused:
        raise MemoryPaused("a temporary session is on" if state.settings.temporary else "memory is off")
    decider = DECIDERS.get(type(command))
    if decider is None:
        raise TypeError(f"no decider for {type(command).__name__}")
    events = decider(command, state, envelope, tuple(embeddings))
    if not state.settings.extraction and isinstance(command, RecordEpisode | EndSession):
        # Automatic extraction is off: the conversation is kept, nothing is taken from it unless asked.
        events = [e for e in events if not isinstance(e, ExtractionDue)]
    return events + profile_due(state, events, envelope)


def rejected(command: Command, error: DomainError, now: datetime) -> CommandRejected:
    """The event that records a refusal, so that the command's id keeps its answer."""
    return CommandRejected(**Envelope(command, now)(), command_type=type(command).__name__,
                           code=error.code, reason=str(error))
