"""Maintenance night after night: a person's year, and random histories. What is in force or in use
is never lost; what was said once and never used again fades.

The runs are simulated on the rules alone (domain/lifecycle/maintenance.py), the way a nightly run
applies them: a forgotten memory leaves the active set, a demoted one keeps its lowered importance and
the use it was demoted for, compressed ones give way to the memory that holds their words."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.lifecycle.maintenance import RULES, MemoryUse, in_force, plan
from domain.model import MemoryKind

START = datetime(2026, 1, 1, tzinfo=UTC)
NIGHT = timedelta(days=1)


def day(n: float) -> datetime:
    return START + timedelta(days=n)


@dataclass
class Life:
    """A person's active memories as nightly runs leave them, and what each run did."""

    active: dict[str, MemoryUse] = field(default_factory=dict)
    forgotten: dict[str, datetime] = field(default_factory=dict)
    compressed: dict[str, datetime] = field(default_factory=dict)
    demotions: list[tuple[str, datetime, datetime]] = field(default_factory=list)  # id, night, for use
    touched: list[tuple[str, datetime, str]] = field(default_factory=list)          # id, night, what

    def say(self, use: MemoryUse) -> None:
        self.active[use.memory_id] = use

    def supersede(self, memory_id: str) -> None:
        self.active.pop(memory_id)

    def used(self, memory_id: str, at: datetime) -> None:
        m = self.active.get(memory_id)
        if m is not None:
            self.active[memory_id] = replace(m, access_count=m.access_count + 1, last_used_at=at)

    def night(self, as_of: datetime, pinned: tuple[MemoryKind, ...] = ()) -> None:
        found = plan(list(self.active.values()), as_of, pinned)
        for d in found.forget:
            self.touched.append((d.memory_id, as_of, "forgotten"))
            self.forgotten[d.memory_id] = as_of
            del self.active[d.memory_id]
        for d in found.demote:
            m = self.active[d.memory_id]
            self.touched.append((d.memory_id, as_of, "demoted"))
            self.demotions.append((d.memory_id, as_of, m.last_used))
            self.active[d.memory_id] = replace(m, importance=d.importance, demoted_for=d.last_used_at)
        for group in found.compress:
            for memory_id in group.memory_ids:
                self.touched.append((memory_id, as_of, "compressed"))
                self.compressed[memory_id] = as_of
                del self.active[memory_id]
            words = " ".join(group.contents)
            self.say(MemoryUse(f"compressed-{as_of:%j}-{group.memory_ids[0]}", group.kind, words, 0.4, 1.0,
                               as_of, valid_from=as_of))


def fact(memory_id: str, said: float, importance: float = 0.5, kind: MemoryKind = MemoryKind.FACT,
         slot: str | None = None, value: str | None = None) -> MemoryUse:
    return MemoryUse(memory_id, kind, f"{memory_id} said on day {said}", importance, 1.0, day(said),
                     slot=slot, value=value, valid_from=day(said))


def test_a_year_keeps_what_is_true_and_used_and_lets_one_off_remarks_fade() -> None:
    life = Life()
    life.say(fact("home Berlin", 0, 0.7, slot="home_city", value="Berlin"))
    life.say(fact("works at Acme", 0, 0.6, slot="employer", value="Acme"))
    life.say(fact("prefers short answers", 0, 0.5, MemoryKind.PREFERENCE))
    life.say(fact("likes dark roast", 3, 0.5, MemoryKind.PREFERENCE))
    life.say(fact("goal: run a marathon", 10, 0.6, MemoryKind.GOAL))
    life.say(fact("todo: renew passport", 20, 0.5, MemoryKind.TODO))
    life.say(fact("lesson: no coffee after 4pm", 30, 0.4, MemoryKind.LESSON))  # the person pinned lessons
    remarks = [f"remark {n}" for n in range(12)]
    for n, remark in enumerate(remarks):  # said once, on days 5, 35, 65, ..., never used again
        life.say(fact(remark, 5 + 30 * n, importance=0.3 + 0.02 * n))
    for n in range(365):
        at = day(n)
        if n == 150:  # moves: the old city is superseded (no longer active), the new one in force
            life.supersede("home Berlin")
            life.say(fact("home Lisbon", 150, 0.7, slot="home_city", value="Lisbon"))
        if n % 7 == 0:   # an assistant's context cites the answering preference every week
            life.used("prefers short answers", at)
        if n % 30 == 0:  # and the goal comes up once a month
            life.used("goal: run a marathon", at)
        life.night(at + timedelta(hours=3), pinned=(MemoryKind.LESSON,))

    for kept in ("home Lisbon", "works at Acme", "prefers short answers", "goal: run a marathon",
                 "todo: renew passport", "lesson: no coffee after 4pm"):
        assert kept in life.active, f"{kept} was lost"
    # Said once and never used: gone (forgotten, or folded into a compressed memory) within the year,
    # except the ones said in the last months, which are not judged yet or still above the floors.
    faded = [r for r in remarks if r not in life.active]
    old = [r for n, r in enumerate(remarks) if 5 + 30 * n < 365 - 150]
    assert set(old) <= set(faded)
    assert "likes dark roast" not in life.active   # a preference never used again fades too
    _never_touched_in_force_or_in_use(life)
    _demoted_once_per_fading(life)


def _never_touched_in_force_or_in_use(life: Life) -> None:
    """Every memory a run touched was, that night, neither a slot value in force nor used lately."""
    for memory_id, night, _ in life.touched:
        assert not memory_id.startswith(("home", "works", "prefers short", "goal", "todo", "lesson")), \
            (memory_id, night)


def _demoted_once_per_fading(life: Life) -> None:
    seen: set[tuple[str, datetime]] = set()
    for memory_id, _, for_use in life.demotions:
        assert (memory_id, for_use) not in seen, f"{memory_id} demoted twice for the same use"
        seen.add((memory_id, for_use))


_KINDS = [MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.EVENT, MemoryKind.GOAL, MemoryKind.TODO,
          MemoryKind.LESSON]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[MemoryUse], dict[str, list[int]], list[MemoryKind]]:
    count = draw(st.integers(1, 12))
    memories = []
    uses: dict[str, list[int]] = {}
    for i in range(count):
        said = draw(st.integers(0, 200))
        slot = draw(st.sampled_from([None, None, "home_city", "employer"]))
        until = draw(st.sampled_from([None, None, said + draw(st.integers(1, 150))])) if slot else None
        memory = MemoryUse(f"m{i}", draw(st.sampled_from(_KINDS)), f"memory {i}",
                           draw(st.floats(0.0, 1.0)), draw(st.floats(0.0, 1.0)), day(said), slot=slot,
                           value=f"v{i}", valid_from=day(said), valid_until=day(until) if until else None,
                           completed=draw(st.booleans()))
        memories.append(memory)
        uses[memory.memory_id] = sorted(draw(st.lists(st.integers(said, 300), max_size=5)))
    pinned = draw(st.lists(st.sampled_from(_KINDS), max_size=2, unique=True))
    return memories, uses, pinned


@settings(max_examples=150, deadline=None)
@given(histories())
def test_no_run_touches_what_is_in_force_in_use_core_pinned_or_an_open_todo(
        history: tuple[list[MemoryUse], dict[str, list[int]], list[MemoryKind]]) -> None:
    memories, uses, pinned = history
    life = Life()
    said = {m.memory_id: m for m in memories}
    for night in range(0, 320, 5):
        at = day(night)
        for memory in memories:
            if memory.recorded_at <= at and memory.memory_id not in life.active \
                    and memory.memory_id not in life.forgotten and memory.memory_id not in life.compressed:
                life.say(memory)
        for memory_id, days in uses.items():
            for used in days:
                if night - 5 < used <= night:
                    life.used(memory_id, day(used))
        before = dict(life.active)
        life.night(at, tuple(pinned))
        for memory_id, when, what in life.touched:
            if when != at or memory_id not in said:
                continue
            m = before[memory_id]
            assert not in_force(m, at), (memory_id, what)
            assert at - m.last_used > RULES.unused, (memory_id, what)
            assert m.importance < RULES.core and m.kind not in pinned, (memory_id, what)
            assert not (m.kind is MemoryKind.TODO and not m.completed), (memory_id, what)
    _demoted_once_per_fading(life)
