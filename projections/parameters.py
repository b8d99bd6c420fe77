"""Lists handed to the neo4j driver as query parameters, printed short.

The driver (neo4j 6.4, Bolt RUN) formats every parameter for a debug line with repr() and then
drops it, logging off or not: for a batch of rows with vectors that took longer than Neo4j took
to write it (0.36 s for 2,000 rows of 384 floats), and a search paid it for its query's vector.
These lists are packed like any list; their repr only counts them.
"""

from __future__ import annotations

from typing import Any


class Counted(list[Any]):
    """A list as a query parameter whose repr is its length."""

    __slots__ = ()
    unit = "items"

    def __repr__(self) -> str:
        return f"<{len(self)} {self.unit}>"


class Rows(Counted):
    """A batch of rows (`UNWIND $rows`)."""

    __slots__ = ()
    unit = "rows"


class QueryVector(Counted):
    """A vector to compare with (a search's query, a new memory's)."""

    __slots__ = ()
    unit = "floats"
