"""Rebuild: the projection from nothing, by replaying the log. No decision, no external call."""

from __future__ import annotations

from collections.abc import Callable

from services.bootstrap import Lore


def rebuild(lore: Lore, batch_size: int = 10_000,
            on_progress: Callable[[int], None] | None = None) -> int:
    return lore.projector.rebuild(lore.event_log, batch_size=batch_size, on_progress=on_progress)
