"""The graph projection: events -> Neo4j (DESIGN.md §4), with its checkpoint in the same transaction."""

from lore.projections.graph.projector import GraphProjector
from lore.projections.graph.schema import ensure_schema

__all__ = ["GraphProjector", "ensure_schema"]
