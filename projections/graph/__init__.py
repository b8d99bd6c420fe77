"""The graph projection: events -> Neo4j (DESIGN.md §4), with its checkpoint in the same transaction."""

from projections.graph.projector import GraphProjector
from projections.graph.schema import ensure_schema

__all__ = ["GraphProjector", "ensure_schema"]
