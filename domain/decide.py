"""Deciders: (state, command, now) -> events. Pure; the clock and any vector come in as arguments."""

from __future__ import annotations

import copy
from bisect import bisect_right
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import singledispatch
from typing import Any

from domain.commands import (
    CompleteTodo,
    ConfigureUser,
    EndSession,
    EraseUser,
    ExtractEpisode,
    ForgetMemory,
    GiveFeedback,
    MaintainMemory,
    MessageRef,
    RecordEpisode,
    RecordExtraction,
    RecordMemory,
    RecordProfile,
    RecordSummary,
    ReopenTodo,
    ReplaceEmbeddings,
    RestoreMemory,
)
from domain.entity_types import entity_types
from domain.errors import (
    DomainError,
    EpisodeNotFound,
    InvalidValidityWindow,
    MemoryAlreadyForgotten,
    MemoryNotForgotten,
    MemoryNotFound,
    MemoryPaused,
    NotATodo,
    ProfileVersionConflict,
    SessionNotFound,
    SummaryNotDue,
    TodoAlreadyCompleted,
    TodoNotCompleted,
)
from domain.events import (
    CommandRejected,
    Embedding,
    EmbeddingsReplaced,
    EpisodeExpired,
    EpisodeRecorded,
    Event,
    ExtractionDue,
    FeedbackGiven,
    MaintenanceApplied,
    MemoriesExtracted,
    MemoryCompressed,
    MemoryDecayed,
    MemoryForgotten,
    MemoryMerged,
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
    UserConfigured,
    UserErased,
    Verdict,
)
from domain.extraction.candidate import Candidate, importance
from domain.extraction.consolidate import Judgement, judge
from domain.extraction.policy import ExtractionPolicy
from domain.feedback import confidence_after
from domain.layers import profile
from domain.layers.summary import MIN_MESSAGES
from domain.lifecycle import maintenance
from domain.model import MemoryKind, derived_id, normalized
from domain.state import MemoryState, SessionProgress, UserState, counts_for_profile, evolve, slot_key

DEFAULT_POLICY = ExtractionPolicy()


def decide(
    state: UserState, command: Any, now: datetime, embeddings: Sequence[Embedding] = (),
    policy: ExtractionPolicy = DEFAULT_POLICY, command_keys: Sequence[str] = (),
) -> list[Event]:
    """The events that `command` causes in `state`; raises a DomainError to refuse it.

    `embeddings`: the vector of a memory's content, one per message of an episode, or one per
    candidate of an extraction. `policy`: when conversations are due for extraction.
    `command_keys`: for an erasure, the keys of the person's commands so far (the projection's)."""
    envelope = _Envelope(command, now, policy)
    if isinstance(command, EraseUser):
        return [UserErased(**envelope(), command_keys=tuple(sorted(set(command_keys))))]
    if isinstance(command, _REMEMBERING) and state.settings.paused:
        raise MemoryPaused("a temporary session is on" if state.settings.temporary else "memory is off")
    events = _decide(command, state, envelope, tuple(embeddings))
    if not state.settings.extraction and isinstance(command, RecordEpisode | EndSession):
        # Automatic extraction is off: the conversation is kept, nothing is taken from it unless asked.
        events = [e for e in events if not isinstance(e, ExtractionDue)]
    return events + _profile_due(state, events, envelope)


# What would make Lore remember something new: refused while the person's memory is paused.
_REMEMBERING = (RecordMemory, RecordEpisode, EndSession, ExtractEpisode)


def _profile_due(state: UserState, events: list[Event], envelope: _Envelope) -> list[Event]:
    """A ProfileDue after what the command changed, where it makes a new version due (profile.py)."""
    if state.profile.due or not events:
        return []
    slot = next((e.attribute for e in events if isinstance(e, MemoryRecorded) and e.attribute and e.asserted),
                None)
    new = sum(counts_for_profile(state.summaries.get(e.summary_id), e)
              for e in events if isinstance(e, SessionSummarized))
    reason = profile.due_reason(state.profile.version, state.profile.summaries_since + new,
                                state.profile.revised_at, envelope.now, slot)
    return [ProfileDue(**envelope(), reason=reason)] if reason else []


def summary_id_for(user_id: str, session_id: str) -> str:
    """One summary per session: a later one replaces it."""
    return derived_id("summary", user_id, session_id)


def extraction_command_id(extraction_id: str) -> str:
    """The id of the RecordExtraction that answers an ExtractionDue: one answer per extraction,
    however often the extraction process sees it."""
    return f"extraction-{extraction_id}"


def rejected(command: Any, error: DomainError, now: datetime) -> CommandRejected:
    """The event that records a refusal, so that the command's id keeps its answer."""
    return CommandRejected(**_Envelope(command, now)(), command_type=type(command).__name__,
                           code=error.code, reason=str(error))


class _Envelope:
    """Numbers the events of one command, so that ids are the same each time it is decided."""

    def __init__(self, command: Any, now: datetime, policy: ExtractionPolicy = DEFAULT_POLICY) -> None:
        self._command = command
        self._now = now
        self._count = 0
        self.policy = policy

    @property
    def now(self) -> datetime:
        return self._now

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
        embedding=embeddings[0] if embeddings else None, due_at=command.due_at,
        remind_at=command.remind_at or remind_before(command.due_at),
        entity_types=entity_types(command.entities, command.content),
    )


REMIND_BEFORE = timedelta(hours=1)


def remind_before(due_at: datetime | None) -> datetime | None:
    """When a to-do is reminded of, unless said: an hour before it is due."""
    return due_at - REMIND_BEFORE if due_at is not None else None


@_decide.register
def _(command: RecordEpisode, state: UserState, envelope: _Envelope,
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
    pending, turns, recent = list(progress.pending), progress.pending_turns, list(progress.recent)
    windows: list[tuple[MessageRef, ...]] = []

    def cut() -> None:
        nonlocal pending, turns
        if policy.every_turns and turns >= policy.every_turns:
            windows.append(_window(pending, recent))
            pending, turns = [], 0

    for position, message in enumerate(command.messages):
        if message.role == "user":
            cut()  # a turn is the person's message and the replies to it: cut before the next one
            turns += 1
        ref = MessageRef(episode_id=episode_id, position=position)
        pending.append(ref)
        recent = [*recent, ref][-policy.window:]
    cut()
    events.append(SessionAdvanced(**envelope(), session_id=command.session_id,
                                  messages=progress.messages + len(command.messages), pending_turns=turns,
                                  pending=tuple(pending), recent=tuple(recent)))
    events.extend(_due(envelope, command, command.session_id, "turns", window, i)
                  for i, window in enumerate(windows))
    return events


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


def _due(envelope: _Envelope, command: Any, session_id: str, trigger: Any, window: tuple[MessageRef, ...],
         number: int) -> ExtractionDue:
    return ExtractionDue(**envelope(), extraction_id=derived_id("extraction", command.user_id,
                                                                 command.command_id, str(number)),
                         session_id=session_id, trigger=trigger, window=window)


@_decide.register
def _(command: EndSession, state: UserState, envelope: _Envelope,
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
        events.append(_due(envelope, command, command.session_id, "session_end",
                           _window(progress.pending, progress.recent), 0))
    if progress.messages >= MIN_MESSAGES:
        events.append(_summary_due(envelope, command, command.session_id, "session_end"))
    return events


def _summary_due(envelope: _Envelope, command: Any, session_id: str, trigger: Any) -> SummaryDue:
    return SummaryDue(**envelope(), summary_id=summary_id_for(command.user_id, session_id),
                      due_id=derived_id("summary-due", command.user_id, command.command_id),
                      session_id=session_id, trigger=trigger)


@_decide.register
def _(command: ExtractEpisode, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    found = state.episodes.get(command.episode_id)
    if found is None:
        raise EpisodeNotFound(command.episode_id)
    session_id, size = found
    window = tuple(MessageRef(episode_id=command.episode_id, position=i) for i in range(size))
    due = _due(envelope, command, session_id, "asked", window, 0)
    events: list[Event] = [due.model_copy(update={"model": command.model}) if command.model else due]
    progress = state.sessions.get(session_id)
    if max(size, progress.messages if progress else 0) >= MIN_MESSAGES:
        events.append(_summary_due(envelope, command, session_id, "asked"))
    return events


@_decide.register
def _(command: RecordSummary, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    found = state.summaries.get(command.summary_id)
    if found is None:
        raise SummaryNotDue(command.summary_id, "no summary of this session was asked for")
    if found.due_id != command.due_id:
        raise SummaryNotDue(command.summary_id, "a later request replaced the one it answers")
    if found.status in ("done", "skipped"):
        raise SummaryNotDue(command.summary_id, "it is answered already")
    missing = sorted({ref.episode_id for ref in command.window} - state.episodes.keys())
    if command.summary is not None and missing:
        raise EpisodeNotFound(missing[0])  # erased while it was being summarized
    return [SessionSummarized(
        **envelope(), summary_id=command.summary_id, due_id=command.due_id, session_id=command.session_id,
        window=command.window, summarizer=command.summarizer, prompt_version=command.prompt_version,
        raw_output=command.raw_output, prompt_tokens=command.prompt_tokens,
        completion_tokens=command.completion_tokens, skipped=command.skipped, fallback=command.fallback,
        failure=command.failure, summary=command.summary, said_until=command.said_until,
        embedding=embeddings[0] if embeddings and command.summary is not None else None)]


@_decide.register
def _(command: RecordProfile, state: UserState, envelope: _Envelope,
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


@_decide.register
def _(command: RecordExtraction, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    """Consolidate each candidate against what the person has (and what this extraction added
    before it), in order; the verdicts are logged first, then the memory events that carry them out."""
    missing = sorted({ref.episode_id for ref in command.window} - state.episodes.keys())
    if command.candidates and missing:
        # Erased (or never recorded) while it was being extracted: nothing of it may come back.
        raise EpisodeNotFound(missing[0])
    scratch = copy.deepcopy(state)
    verdicts: list[Verdict] = []
    changes: list[Event] = []
    decided_by = command.extractor + (f":{command.prompt_version}" if command.prompt_version else "")
    count = len(command.candidates)
    vectors: Sequence[Embedding | None] = embeddings[:count] if len(embeddings) >= count else [None] * count
    merge_vectors = iter(embeddings[count:])  # one per merge a model proposed with its sentence
    for number, candidate in enumerate(command.candidates):
        candidate = _categorised(candidate, envelope.policy)
        proposed = command.proposed[number] if command.proposed else None
        merge_vector = next(merge_vectors, None) if proposed and proposed.verdict == "merge" \
            and proposed.content else None
        found = judge(scratch, candidate, command.similar[number] if command.similar else (), proposed)
        vector = vectors[number]
        if found.content:
            candidate = candidate.model_copy(update={"content": found.content})
            vector = merge_vector
        by = found.decided_by or decided_by
        refs = _refs(command, candidate)
        target = found.target
        if target is not None and found.verdict == "same" and refs \
                and {(r.episode_id, r.position) for r in refs} <= target.messages:
            # The same messages read again (windows overlap, an episode extracted again): no new source.
            found = Judgement("same", "already taken from these messages", target, found.others)
            made: list[Event] = []
            memory_id: str | None = target.memory_id
        elif found.target is not None and found.verdict == "same":
            memory_id = found.target.memory_id
            made = [_reinforced(envelope, found.target, candidate, by, refs)]
        elif found.verdict == "kept_out":
            made, memory_id = [], None
        else:
            memory_id = derived_id("memory", command.user_id, command.command_id, str(number))
            base = category.importance if (category := envelope.policy.category(candidate.category)) else None
            made = _recorded_from(command, candidate, found, envelope, memory_id, by, vector, base)
        evolve(scratch, made)
        changes.extend(made)
        verdicts.append(Verdict(candidate=number, verdict=found.verdict, memory_id=memory_id,
                                other=found.others, reason=found.reason, decided_by=found.decided_by))
    extracted = MemoriesExtracted(
        **envelope(), extraction_id=command.extraction_id, session_id=command.session_id,
        window=command.window, extractor=command.extractor, prompt_version=command.prompt_version,
        raw_output=command.raw_output, prompt_tokens=command.prompt_tokens,
        completion_tokens=command.completion_tokens, skipped=command.skipped,
        candidates=command.candidates, proposed=command.proposed, verdicts=tuple(verdicts))
    return [extracted, *changes]


def _reinforced(envelope: _Envelope, target: MemoryState, candidate: Candidate, decided_by: str,
                refs: tuple[MessageRef, ...]) -> MemoryReinforced:
    """Said again: more certain (a noisy-or of the two), more important, one more source."""
    confidence = 1 - (1 - target.confidence) * (1 - candidate.confidence)
    return MemoryReinforced(**envelope(), memory_id=target.memory_id, confidence=round(confidence, 6),
                            importance=round(min(1.0, target.importance + 0.1), 4),
                            decided_by=decided_by, messages=refs)


def _categorised(candidate: Candidate, policy: ExtractionPolicy) -> Candidate:
    """The candidate filed under the deployment's taxonomy where it names a known category (whose
    kind it then is); else under none — a category is not guessed from a kind ("has a dog" is a
    fact, and not the body's)."""
    category = policy.category(candidate.category)
    if category is None:
        return candidate.model_copy(update={"category": None})
    return candidate.model_copy(update={"category": category.name, "kind": category.kind})


def _recorded_from(command: RecordExtraction, candidate: Candidate, found: Judgement, envelope: _Envelope,
                   memory_id: str, decided_by: str, embedding: Embedding | None,
                   base: float | None = None) -> list[Event]:
    """A new memory (new, distinct, an update, a merge), and what it closes or merges."""
    merged = found.others if found.verdict == "merge" else ()
    after = found.after
    events: list[Event] = [_extracted(command, candidate, envelope, memory_id,
                                      after.valid_from if after is not None else None,
                                      decided_by, merged, embedding, base)]
    if found.verdict == "update" and found.target is not None:
        events.append(MemorySuperseded(**envelope(), memory_id=found.target.memory_id,
                                       by_memory_id=memory_id, valid_until=candidate.valid_from,
                                       decided_by=decided_by, reason=found.reason))
    if after is not None:
        events.append(MemorySuperseded(**envelope(), memory_id=memory_id, by_memory_id=after.memory_id,
                                       valid_until=after.valid_from, decided_by=decided_by,
                                       reason="a later value was known already"))
    if merged:
        events.append(MemoryMerged(**envelope(), memory_id=memory_id, merged_from=merged,
                                   decided_by=decided_by, reason=found.reason))
    return events


def _refs(command: RecordExtraction, candidate: Candidate) -> tuple[MessageRef, ...]:
    """The messages a candidate comes from, by their place in the person's conversations."""
    return tuple(command.window[p] for p in candidate.positions if 0 <= p < len(command.window))


def _extracted(command: RecordExtraction, candidate: Candidate, envelope: _Envelope, memory_id: str,
               valid_until: datetime | None, decided_by: str, merged: tuple[str, ...],
               embedding: Embedding | None, base: float | None = None) -> MemoryRecorded:
    refs = _refs(command, candidate)
    episode = refs[0].episode_id if refs else (command.window[0].episode_id if command.window else None)
    return MemoryRecorded(
        **envelope(), memory_id=memory_id, kind=candidate.kind, category=candidate.category,
        content=candidate.content,
        attribute=candidate.attribute, value=candidate.value, valid_from=candidate.valid_from,
        valid_until=valid_until, importance=importance(candidate, merges=len(merged), base=base),
        confidence=candidate.confidence, source=candidate.extractor,
        entities=tuple(dict.fromkeys([*candidate.entities, *(n for r in candidate.relations
                                                           for n in (r.subject, r.object) if n)])),
        episode_id=episode, embedding=embedding, decided_by=decided_by, due_at=candidate.due_at,
        remind_at=remind_before(candidate.due_at) if candidate.kind is MemoryKind.TODO else None,
        asserted=candidate.asserted, messages=refs, merged_from=merged,
        entity_types=_typed(candidate), relations=candidate.relations)


def _typed(candidate: Candidate) -> tuple[tuple[str, str], ...]:
    """The types the extractor gave, and for the names it left untyped, what the words say."""
    given = dict(candidate.entity_types)
    read = entity_types([n for n in candidate.entities if n not in given], candidate.content)
    return (*candidate.entity_types, *read)


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
    if not memory.forgotten and memory.compressed_into is None:
        raise MemoryNotForgotten(command.memory_id)
    return [MemoryRestored(**envelope(), memory_id=command.memory_id)]


@_decide.register
def _(command: CompleteTodo, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    todo = _todo(state, command.memory_id)
    if todo.completed:
        raise TodoAlreadyCompleted(command.memory_id)
    return [TodoCompleted(**envelope(), memory_id=command.memory_id,
                          completed_at=command.completed_at or command.occurred_at)]


@_decide.register
def _(command: ReopenTodo, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    if not _todo(state, command.memory_id).completed:
        raise TodoNotCompleted(command.memory_id)
    return [TodoReopened(**envelope(), memory_id=command.memory_id)]


@_decide.register
def _(command: GiveFeedback, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    memory = _existing(state, command.memory_id)
    return [FeedbackGiven(**envelope(), memory_id=command.memory_id, verdict=command.verdict,
                          note=command.note, confidence=confidence_after(memory.confidence, command.verdict))]


def _todo(state: UserState, memory_id: str) -> MemoryState:
    memory = _existing(state, memory_id)
    if memory.kind is not MemoryKind.TODO:
        raise NotATodo(memory_id, memory.kind.value)
    return memory



@_decide.register
def _(command: ConfigureUser, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    settings = state.settings
    retention = command.episode_retention_days
    pinned = command.pinned_kinds

    def keep(asked: bool | None, current: bool) -> bool:
        return current if asked is None else asked

    return [UserConfigured(
        **envelope(),
        episode_retention_days=settings.episode_retention_days if retention is None else retention,
        pinned_kinds=settings.pinned_kinds if pinned is None else tuple(sorted(set(pinned), key=str)),
        memory=keep(command.memory, settings.memory),
        extraction=keep(command.extraction, settings.extraction),
        citations=keep(command.citations, settings.citations),
        temporary=keep(command.temporary, settings.temporary))]


@_decide.register
def _(command: MaintainMemory, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    """Carries out a run's decisions on what is still as the run saw it: a memory that changed
    since (forgotten, superseded, compressed by the person's own hand) is left alone, and a core
    memory or a pinned kind is never touched whatever the command says."""
    run = command.run_id
    pinned = set(state.settings.pinned_kinds)

    def fading(memory_id: str) -> MemoryState | None:
        memory = state.memories.get(memory_id)
        if memory is None or not memory.active or memory.importance >= maintenance.RULES.core \
                or memory.kind in pinned:
            return None
        return memory

    events: list[Event] = []
    forgotten: set[str] = set()
    for d in command.forget:
        if fading(d.memory_id) is not None:
            forgotten.add(d.memory_id)
            events.append(MemoryForgotten(**envelope(), memory_id=d.memory_id, reason="decayed", run_id=run,
                                          relevance=d.relevance, access_count=d.access_count,
                                          last_used_at=d.last_used_at))
    demoted = 0
    for d in command.demote:
        memory = fading(d.memory_id)
        if memory is not None and d.memory_id not in forgotten and d.importance < memory.importance:
            demoted += 1
            events.append(MemoryDecayed(
                **envelope(), memory_id=d.memory_id, run_id=run, relevance=d.relevance,
                access_count=d.access_count, last_used_at=d.last_used_at, importance=d.importance,
                previous_importance=memory.importance))
    compressed = 0
    vectors = iter(embeddings)
    for index, group in enumerate(command.compress):
        originals = [fading(m) for m in group.memory_ids]
        texts_vectors = [(text, next(vectors, None)) for text in group.contents]
        if any(m is None or m.memory_id in forgotten for m in originals) \
                or len({m.kind for m in originals if m is not None}) != 1:
            continue
        kept = [m for m in originals if m is not None]
        compressed += len(kept)
        sources = sorted(set().union(*(m.messages for m in kept)))
        said = tuple(MessageRef(episode_id=e, position=p) for e, p in sources)
        for part, (text, vector) in enumerate(texts_vectors):
            memory_id = derived_id("compressed", command.user_id, run, str(index), str(part))
            events.append(MemoryRecorded(
                **envelope(), memory_id=memory_id, kind=kept[0].kind, content=text,
                valid_from=min(m.valid_from for m in kept), importance=max(m.importance for m in kept),
                confidence=max(m.confidence for m in kept), source=f"maintenance:{run}",
                decided_by=group.compressor, embedding=vector, messages=said))
            events.append(MemoryCompressed(**envelope(), memory_id=memory_id,
                                           compressed_from=tuple(m.memory_id for m in kept),
                                           run_id=run, compressor=group.compressor))
    contradicted = 0
    for c in command.contradictions:
        older, newer = state.memories.get(c.memory_id), state.memories.get(c.by_memory_id)
        if older is None or newer is None or not older.active or not newer.active \
                or older.slot is None or older.slot != newer.slot:
            continue
        contradicted += 1
        events.append(MemorySuperseded(**envelope(), memory_id=c.memory_id, by_memory_id=c.by_memory_id,
                                       valid_until=c.valid_until, decided_by="maintenance",
                                       reason=f"contradiction found by maintenance run {run}"))
    expired = [e for e in command.expire_episodes if e in state.episodes and e not in state.expired]
    events.extend(EpisodeExpired(**envelope(), episode_id=e, run_id=run) for e in expired)
    events.append(MaintenanceApplied(
        **envelope(), run_id=run, as_of=command.as_of, started_at=command.started_at,
        evaluated=command.evaluated, forgotten=len(forgotten), demoted=demoted, compressed=compressed,
        contradictions=contradicted, expired=len(expired)))
    return events


def _existing(state: UserState, memory_id: str) -> MemoryState:
    memory = state.memories.get(memory_id)
    if memory is None:
        raise MemoryNotFound(memory_id)
    return memory


@_decide.register
def _(command: ReplaceEmbeddings, state: UserState, envelope: _Envelope,
      embeddings: Sequence[Embedding]) -> list[Event]:
    # Items gone meanwhile (erased, a turn whose words expired) take no vector: the projection
    # matches only what is still there to be read.
    return [EmbeddingsReplaced(**envelope(), model=command.model, vectors=command.vectors)]
