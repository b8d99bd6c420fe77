"""Deciders of the commands on conversations: recording an episode, ending a session, asking for an
episode to be extracted again. They say when extraction and a summary are due; the extraction and
layers processes answer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Literal

from domain.commands import EndSession, ExtractEpisode, Message, MessageRef, RecordEpisode, message_text
from domain.envelope import Envelope, Stamped
from domain.errors import EpisodeNotFound, SessionNotFound
from domain.events import Embedding, EpisodeRecorded, Event, ExtractionDue, SessionAdvanced, SummaryDue
from domain.extraction.policy import ExtractionPolicy
from domain.layers.summary import MIN_MESSAGES
from domain.model import derived_id
from domain.state import SessionProgress, UserState


def summary_id_for(user_id: str, session_id: str) -> str:
    """One summary per session: a later one replaces it."""
    return derived_id("summary", user_id, session_id)


def episode_texts(command: RecordEpisode) -> list[str]:
    """What a RecordEpisode embeds: each message, in order (one vector per message)."""
    return [message_text(m) for m in command.messages]


def require_episodes(state: UserState, window: Iterable[MessageRef]) -> None:
    """Refuse work on messages of an episode the person no longer has (erased meanwhile, or never
    recorded): nothing of it may come back."""
    missing = sorted({ref.episode_id for ref in window} - state.episodes.keys())
    if missing:
        raise EpisodeNotFound(missing[0])


def decide_record_episode(command: RecordEpisode, state: UserState, envelope: Envelope,
                          embeddings: Sequence[Embedding]) -> list[Event]:
    episode_id = command.episode_id or derived_id("episode", command.user_id, command.command_id)
    if episode_id in state.episodes:
        return []
    vectors = tuple(embeddings) if len(embeddings) == len(command.messages) else ()
    policy = envelope.policy
    events: list[Event] = [EpisodeRecorded(**envelope(), episode_id=episode_id, session_id=command.session_id,
                                           messages=command.messages, embeddings=vectors,
                                           expires_at=expiry(state, policy, envelope.now))]
    progress = state.sessions.get(command.session_id) or SessionProgress()
    pending, turns, recent, windows = _cut_windows(progress, episode_id, command.messages, policy)
    events.append(SessionAdvanced(**envelope(), session_id=command.session_id,
                                  messages=progress.messages + len(command.messages), pending_turns=turns,
                                  pending=tuple(pending), recent=tuple(recent)))
    events.extend(extraction_due(envelope, command, command.session_id, "turns", window, i)
                  for i, window in enumerate(windows))
    return events


def _cut_windows(progress: SessionProgress, episode_id: str, messages: Sequence[Message],
                 policy: ExtractionPolicy) -> tuple[list[MessageRef], int, list[MessageRef],
                                                    list[tuple[MessageRef, ...]]]:
    """The session's pending messages and turns after these messages, its latest ones, and the
    windows that became due for extraction on the way (every `policy.every_turns` turns)."""
    pending, turns, recent = list(progress.pending), progress.pending_turns, list(progress.recent)
    windows: list[tuple[MessageRef, ...]] = []

    def cut() -> None:
        nonlocal pending, turns
        if policy.every_turns and turns >= policy.every_turns:
            windows.append(_window(pending, recent))
            pending, turns = [], 0

    for position, message in enumerate(messages):
        if message.role == "user":
            cut()  # a turn is the person's message and the replies to it: cut before the next one
            turns += 1
        ref = MessageRef(episode_id=episode_id, position=position)
        pending.append(ref)
        recent = [*recent, ref][-policy.window:]
    cut()
    return pending, turns, recent, windows


def expiry(state: UserState, policy: ExtractionPolicy, recorded_at: datetime) -> datetime | None:
    """When an episode's words leave the graph: the person's retention, else the deployment's,
    counted from when Lore took it (an imported history is not erased on arrival)."""
    days = state.settings.episode_retention_days
    days = policy.episode_retention_days if days is None else days
    return recorded_at + timedelta(days=days) if days else None


def _window(pending: Sequence[MessageRef], recent: Sequence[MessageRef]) -> tuple[MessageRef, ...]:
    """What was said since the last extraction, and at least the latest messages: `recent` holds
    the latest `window` of them, `pending` the ones not extracted yet (its tail)."""
    return tuple(pending if len(pending) > len(recent) else recent)


def extraction_due(envelope: Envelope, command: Stamped, session_id: str,
                   trigger: Literal["turns", "session_end", "asked"], window: tuple[MessageRef, ...],
                   number: int) -> ExtractionDue:
    return ExtractionDue(**envelope(), extraction_id=derived_id("extraction", command.user_id,
                                                                 command.command_id, str(number)),
                         session_id=session_id, trigger=trigger, window=window)


def summary_due(envelope: Envelope, command: Stamped, session_id: str,
                trigger: Literal["session_end", "asked", "revised"]) -> SummaryDue:
    # One command revises several sessions' summaries: the session names each request then.
    parts = (session_id,) if trigger == "revised" else ()
    return SummaryDue(**envelope(), summary_id=summary_id_for(command.user_id, session_id),
                      due_id=derived_id("summary-due", command.user_id, command.command_id, *parts),
                      session_id=session_id, trigger=trigger)


def decide_end_session(command: EndSession, state: UserState, envelope: Envelope,
                       embeddings: Sequence[Embedding]) -> list[Event]:
    progress = state.sessions.get(command.session_id)
    if progress is None:
        raise SessionNotFound(command.session_id)
    if progress.ended and not progress.pending:
        return []
    events: list[Event] = [SessionAdvanced(**envelope(), session_id=command.session_id,
                                           messages=progress.messages, pending_turns=0, pending=(),
                                           recent=progress.recent, ended=True)]
    if progress.pending and progress.messages >= envelope.policy.min_messages:
        events.append(extraction_due(envelope, command, command.session_id, "session_end",
                                     _window(progress.pending, progress.recent), 0))
    if progress.messages >= MIN_MESSAGES:
        events.append(summary_due(envelope, command, command.session_id, "session_end"))
    return events


def decide_extract_episode(command: ExtractEpisode, state: UserState, envelope: Envelope,
                           embeddings: Sequence[Embedding]) -> list[Event]:
    found = state.episodes.get(command.episode_id)
    if found is None:
        raise EpisodeNotFound(command.episode_id)
    session_id, size = found
    window = tuple(MessageRef(episode_id=command.episode_id, position=i) for i in range(size))
    due = extraction_due(envelope, command, session_id, "asked", window, 0)
    events: list[Event] = [due.model_copy(update={"model": command.model}) if command.model else due]
    progress = state.sessions.get(session_id)
    if max(size, progress.messages if progress else 0) >= MIN_MESSAGES:
        events.append(summary_due(envelope, command, session_id, "asked"))
    return events
