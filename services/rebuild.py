"""Rebuild: the projection from nothing, by replaying the log. No decision, no external call."""

from __future__ import annotations

from collections.abc import Callable, Collection

from services.bootstrap import Lore


def rebuild(lore: Lore, batch_size: int = 10_000, on_progress: Callable[[int], None] | None = None,
            partitions: Collection[int] | None = None) -> int:
    """`partitions`: only those of the log (a shard's, with LORE_NEO4J_SHARDS)."""
    return lore.projector.rebuild(lore.event_log, batch_size=batch_size, on_progress=on_progress,
                                  partitions=partitions)
