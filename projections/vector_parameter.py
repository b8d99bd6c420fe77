"""Vectors handed to the neo4j driver as query parameters.

The driver (6.4) formats every RUN's parameters for a debug message with repr() before the logger
is asked whether debug is on, so a batch of rows with 384-float vectors cost some 0.3 ms of CPU a
row to print a message nobody logs. A vector wrapped here prints as its length and is sent as the
list it is (the packer takes list subclasses; Neo4j stores the same floats).
"""

from __future__ import annotations

from collections.abc import Iterable


class VectorParameter(list[float]):
    """A vector as a query parameter: a list whose repr is its length."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<vector of {len(self)}>"


def vector_parameter(values: Iterable[float] | None) -> VectorParameter | None:
    """`values` as a query parameter; None stays None."""
    return None if values is None else VectorParameter(values)
