"""The timeline picture's two lenses at a moment: what was true then, and what Lore knew then."""

from datetime import UTC, datetime

from projections.views import MemoryView
from services.api.timeline_picture import picture

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def day(month: int, d: int) -> datetime:
    return datetime(2026, month, d, tzinfo=UTC)


def memory(memory_id: str, value: str, since: datetime, until: datetime | None, told: datetime,
           status: str = "active") -> MemoryView:
    return MemoryView(memory_id=memory_id, user_id="u", kind="preference", content=f"drinks {value}",
                      attribute="drink", value=value, status=status, valid_from=since, valid_until=until,
                      recorded_at=told, importance=0.5, confidence=1.0)


# Tea since January (told in January); coffee since March, told only in May.
TEA = memory("tea", "tea", day(1, 1), day(3, 1), day(1, 2), status="superseded")
COFFEE = memory("coffee", "coffee", day(3, 1), None, day(5, 2))


def bars(known_then: set[str] | None) -> dict[str, tuple[bool, bool]]:
    (slot,) = picture([TEA, COFFEE], NOW, day(4, 1), known_then).slots
    return {b.memory_id: (b.true_at_as_of, b.unknown_at_as_of) for b in slot.bars}


def test_what_was_true_then_counts_what_was_told_later() -> None:
    assert bars(None) == {"tea": (False, False), "coffee": (True, False)}


def test_what_lore_knew_then_highlights_what_it_held_and_fades_what_it_was_told_later() -> None:
    # In April Lore held tea in force (the projection's as-known-then query answers {"tea"}).
    assert bars({"tea"}) == {"tea": (True, False), "coffee": (False, True)}


def test_without_a_moment_nothing_is_highlighted_or_faded() -> None:
    (slot,) = picture([TEA, COFFEE], NOW).slots
    assert not any(b.true_at_as_of or b.unknown_at_as_of for b in slot.bars)
