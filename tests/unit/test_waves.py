"""A batch is cut into waves that keep the order of everything that touches the same thing."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.events import MemoryForgotten, MemoryRecorded, MemoryRestored, MemorySuperseded, UserErased
from domain.stored import StoredEvent
from projections.graph.waves import waves

AT = datetime(2026, 1, 1, tzinfo=UTC)


def env(n: int, user: str = "u") -> dict:
    return {"event_id": f"e{n}", "user_id": user, "command_id": f"c{n}", "occurred_at": AT,
            "recorded_at": AT}


def recorded(n: int, memory: str, user: str = "u") -> MemoryRecorded:
    return MemoryRecorded(**env(n, user), memory_id=memory, kind="fact", content=memory, valid_from=AT)


def positions(batch: list) -> list[list[int]]:
    stored = [StoredEvent(0, i, e) for i, e in enumerate(batch)]
    return [[s.position for s in wave] for wave in waves(stored)]


def test_independent_memories_share_one_wave() -> None:
    assert positions([recorded(1, "a"), recorded(2, "b"), recorded(3, "c", user="v")]) == [[0, 1, 2]]


def test_events_on_one_memory_keep_their_order() -> None:
    batch = [recorded(1, "a"), MemoryForgotten(**env(2), memory_id="a"),
             MemoryRestored(**env(3), memory_id="a"), recorded(4, "b")]
    assert positions(batch) == [[0, 3], [1], [2]]


def test_a_supersession_waits_for_both_memories() -> None:
    batch = [recorded(1, "a"), recorded(2, "b"),
             MemorySuperseded(**env(3), memory_id="a", by_memory_id="b", valid_until=AT)]
    assert positions(batch) == [[0, 1], [2]]


def test_an_erasure_comes_after_everything_before_it_and_before_everything_after() -> None:
    batch = [recorded(1, "a"), MemoryForgotten(**env(2), memory_id="a"), recorded(3, "x", user="v"),
             UserErased(**env(4)), recorded(5, "b")]
    assert positions(batch) == [[0, 2], [1], [3], [4]]
