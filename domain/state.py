"""A person's memory as the deciders see it, and how events change it (the fold)."""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from datetime import datetime
from functools import singledispatch

from domain.commands import MessageRef
from domain.events import (
    CommandRejected,
    EmbeddingsReplaced,
    EpisodeExpired,
    EpisodeRecorded,
    Event,
    ExtractionDue,
    FeedbackGiven,
    MaintenanceApplied,
    MemoriesExtracted,
    MemoriesUsed,
    MemoryCompressed,
    MemoryCorrected,
    MemoryDecayed,
    MemoryForgotten,
    MemoryMerged,
    MemoryPurged,
    MemoryRecorded,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    ProfileDue,
    ProfileRevised,
    SessionAdvanced,
    SessionSummarized,
    SummaryDue,
    TodoCompleted,
    TodoReopened,
    TopicForgotten,
    UserConfigured,
    UserErased,
)
from domain.model import MemoryKind, MemoryStatus, normalized


@dataclass
class MemoryState:
    memory_id: str
    kind: MemoryKind
    content_key: str
    slot: str | None
    value_key: str
    valid_from: datetime
    valid_until: datetime | None
    confidence: float
    sequence: int
    superseded_by: str | None = None
    forgotten: bool = False
    importance: float = 0.5
    asserted: bool = True
    merged_into: str | None = None
    compressed_into: str | None = None
    completed: bool = False
    # The messages it was taken from (episode_id, position): a message read again is not a new source.
    messages: set[tuple[str, int]] = field(default_factory=set)

    @property
    def status(self) -> MemoryStatus:
        if self.forgotten:
            return MemoryStatus.FORGOTTEN
        if self.merged_into:
            return MemoryStatus.MERGED
        if self.compressed_into:
            return MemoryStatus.COMPRESSED
        return MemoryStatus.SUPERSEDED if self.superseded_by else MemoryStatus.ACTIVE

    @property
    def active(self) -> bool:
        return self.status is MemoryStatus.ACTIVE

    def holds_at(self, moment: datetime) -> bool:
        return self.valid_from <= moment and (self.valid_until is None or moment < self.valid_until)


@dataclass
class SessionProgress:
    """Where a session stands for extraction (see SessionAdvanced)."""

    messages: int = 0
    pending_turns: int = 0
    pending: tuple[MessageRef, ...] = ()
    recent: tuple[MessageRef, ...] = ()
    ended: bool = False


@dataclass
class SummaryProgress:
    """Where a session's summary stands: the SummaryDue it answers, and its status (due, done,
    fallback: the offline one stands in for a model that failed, skipped)."""

    due_id: str
    status: str = "due"
    attempts: int = 0


@dataclass
class ProfileProgress:
    """Where the person's profile stands: its version, whether a new one is due, when the last
    was written, and how many session summaries came since."""

    version: int = 0
    due: bool = False
    revised_at: datetime | None = None
    summaries_since: int = 0
    # What a profile follows (slots said, sessions summarized), counted over the person's life:
    # a version written from fewer than there are now missed some, and another is due.
    changes: int = 0


@dataclass
class UserSettings:
    """The person's own settings (None: the deployment's)."""

    episode_retention_days: int | None = None
    pinned_kinds: tuple[MemoryKind, ...] = ()
    memory: bool = True
    extraction: bool = True
    citations: bool = True
    temporary: bool = False

    @property
    def paused(self) -> bool:
        """Nothing is remembered or recalled: memory off, or a temporary session."""
        return self.temporary or not self.memory


@dataclass
class UserState:
    user_id: str
    memories: dict[str, MemoryState] = field(default_factory=dict)
    # slot -> [(valid_from, sequence, memory_id)], kept sorted: the slot's timeline.
    slots: dict[str, list[tuple[datetime, int, str]]] = field(default_factory=dict)
    # (kind, normalized content) -> memory_ids in the order recorded, for memories without a slot:
    # an event said again on another day is another memory with the same words.
    by_content: dict[tuple[MemoryKind, str], list[str]] = field(default_factory=dict)
    # episode_id -> (session_id, how many messages)
    episodes: dict[str, tuple[str, int]] = field(default_factory=dict)
    sessions: dict[str, SessionProgress] = field(default_factory=dict)
    summaries: dict[str, SummaryProgress] = field(default_factory=dict)
    profile: ProfileProgress = field(default_factory=ProfileProgress)
    settings: UserSettings = field(default_factory=UserSettings)
    expired: set[str] = field(default_factory=set)
    _sequence: int = 0

    def timeline(self, slot: str) -> list[MemoryState]:
        return [self.memories[mid] for _, _, mid in self.slots.get(slot, [])]

    def remember(self, memory: MemoryState) -> None:
        self.memories[memory.memory_id] = memory
        if memory.slot is None:
            self.by_content.setdefault((memory.kind, memory.content_key), []).append(memory.memory_id)
        else:
            insort(self.slots.setdefault(memory.slot, []),
                   (memory.valid_from, memory.sequence, memory.memory_id))

    def next_sequence(self) -> int:
        self._sequence += 1
        return self._sequence


def slot_key(attribute: str | None) -> str | None:
    return normalized(attribute) if attribute else None


def evolve(state: UserState, events: list[Event]) -> UserState:
    for event in events:
        _apply(event, state)
    return state


@singledispatch
def _apply(event: Event, state: UserState) -> None:
    raise TypeError(f"no fold for {type(event).__name__}")


@_apply.register
def _(event: MemoryRecorded, state: UserState) -> None:
    memory = MemoryState(
        memory_id=event.memory_id,
        kind=event.kind,
        content_key=normalized(event.content),
        slot=slot_key(event.attribute),
        value_key=normalized(event.value or event.content),
        valid_from=event.valid_from,
        valid_until=event.valid_until,
        confidence=event.confidence,
        sequence=state.next_sequence(),
        importance=event.importance,
        asserted=event.asserted,
        messages={(ref.episode_id, ref.position) for ref in event.messages},
    )
    state.remember(memory)
    if event.attribute and event.asserted:
        state.profile.changes += 1


@_apply.register(MemorySuperseded)
@_apply.register(MemoryCorrected)
def _(event: MemorySuperseded | MemoryCorrected, state: UserState) -> None:
    memory = state.memories[event.memory_id]
    memory.valid_until = event.valid_until
    memory.superseded_by = event.by_memory_id


@_apply.register
def _(event: MemoryReinforced, state: UserState) -> None:
    memory = state.memories[event.memory_id]
    memory.confidence = event.confidence
    if event.importance is not None:
        memory.importance = event.importance
    memory.messages.update((ref.episode_id, ref.position) for ref in event.messages)


@_apply.register
def _(event: MemoryMerged, state: UserState) -> None:
    for original in event.merged_from:
        state.memories[original].merged_into = event.memory_id


@_apply.register
def _(event: SessionAdvanced, state: UserState) -> None:
    state.sessions[event.session_id] = SessionProgress(
        event.messages, event.pending_turns, event.pending, event.recent, event.ended)


@_apply.register
def _(event: ExtractionDue, state: UserState) -> None:
    """The session's progress after it comes in the SessionAdvanced beside it."""


@_apply.register
def _(event: MemoriesExtracted, state: UserState) -> None:
    """Its verdicts are carried out by the memory events after it."""


@_apply.register
def _(event: TodoCompleted, state: UserState) -> None:
    state.memories[event.memory_id].completed = True


@_apply.register
def _(event: TodoReopened, state: UserState) -> None:
    state.memories[event.memory_id].completed = False


@_apply.register
def _(event: FeedbackGiven, state: UserState) -> None:
    state.memories[event.memory_id].confidence = event.confidence


@_apply.register
def _(event: MemoryForgotten, state: UserState) -> None:
    state.memories[event.memory_id].forgotten = True


@_apply.register
def _(event: MemoryPurged, state: UserState) -> None:
    gone = set(event.memory_ids)
    for memory_id in gone:
        state.memories.pop(memory_id, None)
    for slot, timeline in list(state.slots.items()):
        state.slots[slot] = [entry for entry in timeline if entry[2] not in gone]
    for key, ids in list(state.by_content.items()):
        state.by_content[key] = [m for m in ids if m not in gone]


@_apply.register
def _(event: TopicForgotten, state: UserState) -> None:
    """Its turns are hidden in the graph; its memories change by the events beside it."""


@_apply.register
def _(event: MemoryRestored, state: UserState) -> None:
    memory = state.memories[event.memory_id]
    if memory.forgotten:
        memory.forgotten = False
    else:
        memory.compressed_into = None


@_apply.register
def _(event: MemoryDecayed, state: UserState) -> None:
    state.memories[event.memory_id].importance = event.importance


@_apply.register
def _(event: MemoryCompressed, state: UserState) -> None:
    for original in event.compressed_from:
        state.memories[original].compressed_into = event.memory_id


@_apply.register
def _(event: EpisodeExpired, state: UserState) -> None:
    state.expired.add(event.episode_id)


@_apply.register
def _(event: MaintenanceApplied, state: UserState) -> None:
    """The run's counts, for its report."""


@_apply.register
def _(event: MemoriesUsed, state: UserState) -> None:
    """Use is the graph's business (maintenance and the rerank read it); no decision depends on it."""


@_apply.register
def _(event: EmbeddingsReplaced, state: UserState) -> None:
    """Vectors are the graph's business; what a person's commands are decided on is unchanged."""


@_apply.register
def _(event: UserConfigured, state: UserState) -> None:
    state.settings = UserSettings(event.episode_retention_days, event.pinned_kinds, event.memory,
                                  event.extraction, event.citations, event.temporary)


@_apply.register
def _(event: EpisodeRecorded, state: UserState) -> None:
    state.episodes[event.episode_id] = (event.session_id, len(event.messages))


@_apply.register
def _(event: UserErased, state: UserState) -> None:
    state.memories.clear()
    state.slots.clear()
    state.by_content.clear()
    state.episodes.clear()
    state.sessions.clear()
    state.summaries.clear()
    state.profile = ProfileProgress()
    state.settings = UserSettings()
    state.expired.clear()


@_apply.register
def _(event: SummaryDue, state: UserState) -> None:
    state.summaries[event.summary_id] = SummaryProgress(event.due_id)


@_apply.register
def _(event: SessionSummarized, state: UserState) -> None:
    progress = state.summaries.setdefault(event.summary_id, SummaryProgress(event.due_id))
    if counts_for_profile(progress, event):
        state.profile.summaries_since += 1
        state.profile.changes += 1
    progress.status = "skipped" if event.skipped else "fallback" if event.fallback else "done"
    progress.attempts += 1


def counts_for_profile(progress: SummaryProgress | None, event: SessionSummarized) -> bool:
    """A summary counts towards the next profile once: its first answer (not its retries)."""
    return event.summary is not None and (progress is None or progress.status == "due")


@_apply.register
def _(event: ProfileDue, state: UserState) -> None:
    state.profile.due = True


@_apply.register
def _(event: ProfileRevised, state: UserState) -> None:
    state.profile = ProfileProgress(version=event.version, revised_at=event.recorded_at,
                                    changes=state.profile.changes)


@_apply.register
def _(event: CommandRejected, state: UserState) -> None:
    """A refusal changes nothing a decision depends on."""
