"""Rebuild: the projection from nothing, by replaying the log. No decision, no external call."""

from __future__ import annotations

from collections.abc import Callable

from projections.graph import ensure_schema
from services.bootstrap import Lore


def rebuild(lore: Lore, batch_size: int = 10_000,
            on_progress: Callable[[int], None] | None = None) -> int:
    lore.projector.wipe()
    dimensions = _recorded_dimensions(lore)
    ensure_schema(lore.driver, dimensions, lore.settings.neo4j_database)
    return lore.projector.catch_up(lore.event_log, batch_size=batch_size, on_progress=on_progress)


def _recorded_dimensions(lore: Lore) -> int | None:
    """The vector index keeps whatever dimension it was created with (vectors come from the log)."""
    records, _, _ = lore.driver.execute_query(
        "SHOW VECTOR INDEXES YIELD options RETURN options.indexConfig.`vector.dimensions` AS d",
        database_=lore.settings.neo4j_database,
    )
    return records[0]["d"] if records else None
