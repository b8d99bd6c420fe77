"""The graph rebuilt from the log: what the event-sourcing tests compare to the live graph."""

from __future__ import annotations

from neo4j import Driver

from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.bootstrap import bootstrap


def rebuilt_fingerprint(settings: Settings, neo4j: Driver) -> str:
    """Wipe the graph, replay the whole log of `settings` into it, and fingerprint the result."""
    rebuilt = bootstrap(settings)
    try:
        rebuilt.projector.rebuild(rebuilt.event_log)
    finally:
        rebuilt.close()
    return fingerprint(neo4j)
