"""Which failures of the graph pass by themselves: Neo4j away, a deadlock, a batch ahead of
the projection. Retried; the others (a statement Neo4j refuses) would fail again the same way."""

from __future__ import annotations

from neo4j.exceptions import ConnectionPoolError, DriverError, Neo4jError

from projections.graph.projector import ProjectionGap


def transient(error: BaseException) -> bool:
    if isinstance(error, ProjectionGap):
        return True  # another writer went first: catching up resolves it
    if isinstance(error, ConnectionPoolError):
        return True  # no connection within the acquisition timeout: Neo4j froze, or is swamped
    if isinstance(error, Neo4jError | DriverError):
        return bool(error.is_retryable())
    return False


# What the driver raises: the read path answers those that pass (`transient`) with 503.
GRAPH_ERRORS: tuple[type[Exception], ...] = (Neo4jError, DriverError)
