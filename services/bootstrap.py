"""The one place that wires Lore: settings → driver, event log, embedder, projector, handler.

The only module of the application layer that sees the Neo4j driver: everything else reaches
the graph through the objects made here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from neo4j import Driver, GraphDatabase

from infra.embedding import Embedder, open_embedder
from infra.eventlog import EventLog, open_event_log
from infra.rewriting import open_rewriter
from infra.settings import Settings
from projections.access import AccessRecorder
from projections.graph import GraphProjector, ensure_schema
from projections.graph.decision_state import GraphDecisionReads
from projections.outcomes import OutcomeQueries
from projections.search import CandidateQueries
from projections.temporal import TemporalQueries
from services.commands import CommandHandler
from services.search import SearchService

log = logging.getLogger(__name__)


@dataclass
class Lore:
    settings: Settings
    driver: Driver
    event_log: EventLog
    embedder: Embedder | None
    projector: GraphProjector
    commands: CommandHandler
    search: SearchService
    access: AccessRecorder
    queries: TemporalQueries
    outcomes: OutcomeQueries
    _closed: bool = field(default=False, init=False)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.access.close()
            self.search.close()
            self.projector.close()
            self.event_log.close()
            self.driver.close()


def neo4j_driver(settings: Settings) -> Driver:
    auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_password else None
    # Neo4j's notifications (e.g. "property key does not exist" on an empty graph) are noise here.
    return GraphDatabase.driver(settings.neo4j_uri, auth=auth, notifications_min_severity="OFF")


_FROM_SETTINGS: Any = object()


def bootstrap(settings: Settings | None = None, *, embedder: Embedder | None = _FROM_SETTINGS) -> Lore:
    """Wire everything. Talks to no server but the event log: the schema is made on first use.

    `embedder` replaces the one the settings name (a benchmark's cache, say).
    """
    settings = settings or Settings()
    database = settings.neo4j_database
    driver = neo4j_driver(settings)
    if embedder is _FROM_SETTINGS:
        embedder = open_embedder(settings)
    event_log = open_event_log(settings)
    projector = GraphProjector(driver, database, log_id=event_log.log_id)

    def schema() -> None:
        ensure_schema(driver, embedder.dimensions if embedder else None, database)

    handler = CommandHandler(GraphDecisionReads(driver, database), event_log, projector, embedder,
                             ensure_schema=schema, max_entry_bytes=settings.max_entry_bytes,
                             cached_people=settings.state_cache_people)
    search = SearchService(CandidateQueries(driver, database), embedder, rewriter=open_rewriter(settings))
    access = AccessRecorder(driver, database)
    return Lore(settings, driver, event_log, embedder, projector, handler, search, access,
                TemporalQueries(driver, database), OutcomeQueries(driver, database))
