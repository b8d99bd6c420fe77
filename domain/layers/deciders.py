"""Deciders of the layers above single facts: a session's summary, the profile's next version, and
when a new profile version becomes due after what a command changed (profile.py says when)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import RecordProfile, RecordSummary
from domain.conversations.deciders import require_episodes
from domain.envelope import Envelope
from domain.errors import ProfileVersionConflict, SummaryNotDue
from domain.events import (
    Embedding,
    Event,
    MemoryRecorded,
    MemorySuperseded,
    ProfileDue,
    ProfileRevised,
    SessionSummarized,
)
from domain.layers import profile
from domain.state import UserState, counts_for_profile


def summary_texts(command: RecordSummary) -> list[str]:
    """What a RecordSummary embeds: the summary's text, if it made one."""
    return [command.summary.text()] if command.summary is not None else []


def decide_record_summary(command: RecordSummary, state: UserState, envelope: Envelope,
                          embeddings: Sequence[Embedding]) -> list[Event]:
    found = state.summaries.get(command.summary_id)
    if found is None:
        raise SummaryNotDue(command.summary_id, "no summary of this session was asked for")
    if found.due_id != command.due_id:
        raise SummaryNotDue(command.summary_id, "a later request replaced the one it answers")
    if found.status in ("done", "skipped"):
        raise SummaryNotDue(command.summary_id, "it is answered already")
    if command.summary is not None:
        require_episodes(state, command.window)  # erased while it was being summarized
    return [SessionSummarized(
        **envelope(), summary_id=command.summary_id, due_id=command.due_id, session_id=command.session_id,
        window=command.window, summarizer=command.summarizer, prompt_version=command.prompt_version,
        raw_output=command.raw_output, prompt_tokens=command.prompt_tokens,
        completion_tokens=command.completion_tokens, skipped=command.skipped, fallback=command.fallback,
        failure=command.failure, summary=command.summary, said_until=command.said_until,
        embedding=embeddings[0] if embeddings and command.summary is not None else None)]


def decide_record_profile(command: RecordProfile, state: UserState, envelope: Envelope,
                          embeddings: Sequence[Embedding]) -> list[Event]:
    if command.version != state.profile.version + 1:
        raise ProfileVersionConflict(command.version, state.profile.version)
    missed: list[Event] = []
    if state.profile.changes > command.changes:
        # Something it should follow came while it was being written: the next one is due now.
        missed = [ProfileDue(**envelope(), reason=f"changed while version {command.version} was written")]
    return [ProfileRevised(
        **envelope(), version=command.version, narrative=command.narrative, basic_info=command.basic_info,
        writer=command.writer, prompt_version=command.prompt_version, raw_output=command.raw_output,
        prompt_tokens=command.prompt_tokens, completion_tokens=command.completion_tokens,
        reason=command.reason, summaries=command.summaries, failure=command.failure), *missed]


def profile_due(state: UserState, events: Sequence[Event], envelope: Envelope) -> list[Event]:
    """A ProfileDue after what a command changed, where it makes a new version due (profile.py)."""
    if state.profile.due or not events:
        return []
    recorded = (e.attribute for e in events if isinstance(e, MemoryRecorded) and e.attribute and e.asserted)
    ended = (m.slot for e in events if isinstance(e, MemorySuperseded)  # "I was laid off": the employer
             and (m := state.memories.get(e.memory_id)) is not None and m.slot and m.asserted)
    slot = next(recorded, None) or next(ended, None)
    new = sum(counts_for_profile(state.summaries.get(e.summary_id), e)
              for e in events if isinstance(e, SessionSummarized))
    reason = profile.due_reason(state.profile.version, state.profile.summaries_since + new,
                                state.profile.revised_at, envelope.now, slot)
    return [ProfileDue(**envelope(), reason=reason)] if reason else []
