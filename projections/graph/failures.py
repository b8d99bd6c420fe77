"""Which failures of the graph pass by themselves: Neo4j away, a deadlock, a batch ahead of
the projection. Retried; the others (a statement Neo4j refuses) would fail again the same way."""

from __future__ import annotations

from neo4j.exceptions import DriverError, Neo4jError

from projections.graph.projector import ProjectionGap


def transient(error: BaseException) -> bool:
    if isinstance(error, ProjectionGap):
        return True  # another writer went first: catching up resolves it
    if isinstance(error, Neo4jError | DriverError):
        return bool(error.is_retryable())
    return False
