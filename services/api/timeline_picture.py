"""The timeline picture of a person's slots: each value a bar over the time it was true, an
arrow where one value superseded another, a hollow bar for a forgotten one, and the moment the
page looks at (the as-of slider) as a line. Geometry only; the template draws it as SVG."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from projections.views import MemoryView

WIDTH, LABEL, ROW = 880, 150, 34
IN_FORCE = ("active", "superseded")  # a superseded value was true in its window; forgotten ones not


def _true_at(memory: MemoryView, as_of: datetime | None) -> bool:
    return (as_of is not None and memory.status in IN_FORCE and memory.valid_from <= as_of
            and (memory.valid_until is None or as_of < memory.valid_until))


@dataclass(frozen=True)
class Bar:
    memory_id: str
    value: str
    x: float
    width: float
    hollow: bool  # forgotten (or otherwise not in force): restorable, drawn as an outline
    true_at_as_of: bool  # highlighted: in force at the moment looked at (as known now, or then)
    unknown_at_as_of: bool = False  # Lore was told it only after that moment (the "knew" lens)


@dataclass(frozen=True)
class Slot:
    attribute: str
    y: float
    bars: list[Bar]
    arrows: list[tuple[float, float]]  # (x where the old value ended, x where the new began)


@dataclass(frozen=True)
class Picture:
    slots: list[Slot]
    height: float
    start: datetime
    end: datetime
    as_of_x: float | None
    ticks: list[tuple[float, str]]


def picture(memories: Iterable[MemoryView], now: datetime, as_of: datetime | None = None,
            known_then: set[str] | None = None) -> Picture:
    """`known_then`: the memories Lore held in force at `as_of` as it knew them then (the "what
    Lore knew" lens); None: what was true at `as_of` as Lore knows it now."""
    by_slot: dict[str, list[MemoryView]] = defaultdict(list)
    for memory in memories:
        if memory.attribute:
            by_slot[memory.attribute].append(memory)
    values = [m for slot in by_slot.values() for m in slot]
    start = min((m.valid_from for m in values), default=now)
    last = max([now, *(m.valid_until for m in values if m.valid_until)])
    # Room after the last change, so that a value set just now still shows as a bar.
    end = last + max((last - start) * 0.15, timedelta(days=7))
    span = max((end - start).total_seconds(), 1.0)

    def x(moment: datetime) -> float:
        return LABEL + (WIDTH - LABEL - 10) * (moment - start).total_seconds() / span

    slots = []
    for row, (attribute, slot) in enumerate(sorted(by_slot.items())):
        slot.sort(key=lambda m: (m.valid_from, m.recorded_at))
        bars = [Bar(m.memory_id, m.value or m.content, x(m.valid_from),
                    max(x(m.valid_until or end) - x(m.valid_from), 3.0),
                    hollow=m.status not in IN_FORCE,
                    true_at_as_of=_true_at(m, as_of) if known_then is None else m.memory_id in known_then,
                    unknown_at_as_of=known_then is not None and as_of is not None and m.recorded_at > as_of)
                for m in slot]
        arrows = [(a.x + a.width, b.x) for a, b, m in zip(bars, bars[1:], slot, strict=False)
                  if m.superseded_by]
        slots.append(Slot(attribute, 30 + row * ROW, bars, arrows))
    ticks = [(x(start + (last - start) * i / 4), (start + (last - start) * i / 4).strftime("%Y-%m-%d"))
             for i in range(4)] + [(x(now), "now")]
    as_of_x = x(min(max(as_of, start), end)) if as_of else None
    return Picture(slots, 40 + len(slots) * ROW, start, end, as_of_x, ticks)
