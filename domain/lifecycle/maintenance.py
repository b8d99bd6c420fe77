"""The maintenance rules: which memories fade, which are forgotten, which are compressed together.

A run reads each memory as `MemoryUse` (what the graph says of it and of its use) at a fixed
`as_of`, and `plan` says what to do. The same inputs give the same plan, and the decisions travel
in the command with the usage they were taken on, so a replay needs no usage statistics.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from domain.commands import MAX_MEMORY_CHARS
from domain.model import MemoryKind


@dataclass(frozen=True)
class MaintenanceRules:
    """The seed design's numbers (README, "Maintenance")."""

    decay_per_day: float = 0.01
    forget_below: float = 0.1
    demote_below: float = 0.3
    demotion: float = 0.8          # a demoted memory keeps this share of its importance
    core: float = 0.9              # importance at or above it: never touched
    compress_group: int = 3        # fewest old low-use memories of one kind worth compressing
    compress_outputs: int = 3      # most memories one group becomes
    compress_chunk: int = 10       # most originals one compressed memory holds
    young: timedelta = timedelta(days=7)
    unused: timedelta = timedelta(days=30)


RULES = MaintenanceRules()
OFFLINE_COMPRESSOR = "compress/offline-1"


@dataclass(frozen=True)
class MemoryUse:
    """One of a person's active memories as a run sees it."""

    memory_id: str
    kind: MemoryKind
    content: str
    importance: float
    confidence: float
    recorded_at: datetime           # when it was said (its first recording)
    access_count: int = 0           # times used: found by a search, cited in a context, helpful
    last_used_at: datetime | None = None
    slot: str | None = None
    value: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    completed: bool = False
    demoted_for: datetime | None = None  # the last use a demotion was decided on

    @property
    def last_used(self) -> datetime:
        return max(self.recorded_at, self.last_used_at or self.recorded_at)


@dataclass(frozen=True)
class Decay:
    memory_id: str
    relevance: float
    access_count: int
    last_used_at: datetime
    importance: float               # after the decision (the same when forgotten)


@dataclass(frozen=True)
class Group:
    """Old low-use memories of one kind, to be compressed into one memory."""

    kind: MemoryKind
    memory_ids: tuple[str, ...]
    contents: tuple[str, ...]


@dataclass(frozen=True)
class Contradiction:
    memory_id: str                  # the older value, superseded
    by_memory_id: str
    valid_until: datetime


@dataclass
class Plan:
    evaluated: int = 0
    forget: list[Decay] = field(default_factory=list)
    demote: list[Decay] = field(default_factory=list)
    compress: list[Group] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.forget or self.demote or self.compress or self.contradictions)


def relevance(use: MemoryUse, as_of: datetime, rules: MaintenanceRules = RULES) -> float:
    """exp(-rate · days since last use or record) × (1 + ln(1 + accesses)) × importance."""
    days = max(0.0, (as_of - use.last_used).total_seconds() / 86_400)
    return math.exp(-rules.decay_per_day * days) * (1 + math.log1p(use.access_count)) * use.importance


def in_force(use: MemoryUse, as_of: datetime) -> bool:
    """A slot's value whose window has not closed by `as_of`: what is true of the person now (their
    home city, their employer) is not a memory that fades for being rarely asked about."""
    return use.slot is not None and (use.valid_until is None or use.valid_until > as_of)


def untouchable(use: MemoryUse, pinned: Collection[MemoryKind], as_of: datetime,
                rules: MaintenanceRules = RULES) -> bool:
    """Never decayed, demoted, compressed or forgotten: core memories, kinds the person pinned, open
    to-dos (they are reminders) and slot values in force."""
    return (use.importance >= rules.core or use.kind in pinned
            or (use.kind is MemoryKind.TODO and not use.completed) or in_force(use, as_of))


def in_use(use: MemoryUse, as_of: datetime, rules: MaintenanceRules = RULES) -> bool:
    """Said or used (found, cited, helpful) within `rules.unused`: it is not judged at all yet."""
    return as_of - use.last_used <= rules.unused


def demoted_already(use: MemoryUse) -> bool:
    """Demoted for the same evidence before: no use since the last demotion. Demotion happens once per
    fading, not again each night on the same facts (which would compound into forgetting)."""
    return use.demoted_for is not None and use.demoted_for >= use.last_used


def compressible(use: MemoryUse, as_of: datetime, rules: MaintenanceRules = RULES) -> bool:
    """Old and little used: the seed design's three cases. Slot values stay: they are a timeline."""
    if use.slot is not None or use.kind is MemoryKind.TODO:
        return False
    age = as_of - use.recorded_at
    unused_for = as_of - use.last_used
    return ((use.importance < 0.3 and age > rules.young)
            or (unused_for > rules.unused and use.importance < 0.5)
            or (use.confidence < 0.4 and use.access_count == 0 and age > rules.young))


def plan(uses: Sequence[MemoryUse], as_of: datetime, pinned: Collection[MemoryKind] = (),
         rules: MaintenanceRules = RULES) -> Plan:
    """What a run at `as_of` does to these memories (the person's active ones).

    Untouchable memories and those in use are left as they are. Of the rest, what has faded below
    `forget_below` is forgotten, what is below `demote_below` loses a share of its importance once for
    the same evidence, and the old, little-used ones of a kind are compressed together."""
    result = Plan(evaluated=len(uses))
    kept: list[MemoryUse] = []
    for use in sorted(uses, key=lambda u: (u.recorded_at, u.memory_id)):
        if untouchable(use, pinned, as_of, rules) or in_use(use, as_of, rules):
            continue
        score = relevance(use, as_of, rules)
        if score < rules.forget_below:
            result.forget.append(Decay(use.memory_id, round(score, 6), use.access_count, use.last_used,
                                       use.importance))
            continue
        if score < rules.demote_below and not demoted_already(use):
            lowered = round(use.importance * rules.demotion, 6)
            result.demote.append(Decay(use.memory_id, round(score, 6), use.access_count, use.last_used,
                                       lowered))
            use = MemoryUse(**{**use.__dict__, "importance": lowered})
        kept.append(use)
    result.compress = _groups([u for u in kept if compressible(u, as_of, rules)], rules)
    result.contradictions = contradictions(uses, as_of)
    return result


def _groups(candidates: Iterable[MemoryUse], rules: MaintenanceRules) -> list[Group]:
    by_kind: dict[MemoryKind, list[MemoryUse]] = defaultdict(list)
    for use in candidates:
        by_kind[use.kind].append(use)
    groups: list[Group] = []
    for kind in sorted(by_kind, key=lambda k: k.value):
        members = by_kind[kind]
        if len(members) < rules.compress_group:
            continue
        # The oldest first; what does not fit this run's outputs waits for the next run.
        members = members[: rules.compress_chunk * rules.compress_outputs]
        chunks = math.ceil(len(members) / rules.compress_chunk)
        size = math.ceil(len(members) / chunks)
        for start in range(0, len(members), size):
            chunk = _fitting(members[start:start + size])
            if len(chunk) >= 2:
                groups.append(Group(kind, tuple(u.memory_id for u in chunk), tuple(u.content for u in chunk)))
    return groups


def _fitting(chunk: Sequence[MemoryUse]) -> list[MemoryUse]:
    """As many of the chunk as one memory can hold, word for word."""
    taken: list[MemoryUse] = []
    size = 0
    for use in chunk:
        size += len(use.content) + 2
        if size > MAX_MEMORY_CHARS:
            break
        taken.append(use)
    return taken


def compress_offline(group: Group) -> list[str]:
    """One memory that keeps every detail: the originals' sentences, oldest first, each once."""
    seen: set[str] = set()
    sentences: list[str] = []
    for content in group.contents:
        sentence = content.strip()
        key = sentence.casefold().rstrip(".!? ")
        if key in seen:
            continue
        seen.add(key)
        sentences.append(sentence if sentence[-1:] in ".!?" else sentence + ".")
    return [" ".join(sentences)]


def contradictions(uses: Sequence[MemoryUse], as_of: datetime) -> list[Contradiction]:
    """Two values of one slot both in force at `as_of`: the later-starting one wins, as
    consolidation decides when a value arrives (a slot holds one value at a time)."""
    by_slot: dict[str, list[MemoryUse]] = defaultdict(list)
    for use in uses:
        if use.slot is not None and use.valid_from is not None and use.valid_from <= as_of \
                and (use.valid_until is None or use.valid_until > as_of):
            by_slot[use.slot].append(use)
    found: list[Contradiction] = []
    for slot in sorted(by_slot):
        holding = sorted(by_slot[slot], key=lambda u: (u.valid_from or as_of, u.recorded_at, u.memory_id))
        latest = holding[-1]
        assert latest.valid_from is not None
        found.extend(Contradiction(other.memory_id, latest.memory_id, latest.valid_from)
                     for other in holding[:-1] if _value(other) != _value(latest))
    return found


def _value(use: MemoryUse) -> str:
    return " ".join((use.value or use.content).split()).casefold()
