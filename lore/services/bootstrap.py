"""The one place that wires Lore: settings → driver, event log, services."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from neo4j import Driver, GraphDatabase

from lore.infra.eventlog import EventLog, open_event_log
from lore.infra.settings import Settings

log = logging.getLogger(__name__)


@dataclass
class Lore:
    settings: Settings
    driver: Driver
    event_log: EventLog
    _closed: bool = field(default=False, init=False)

    def close(self) -> None:
        if not self._closed:
            self.event_log.close()
            self.driver.close()
            self._closed = True


def neo4j_driver(settings: Settings) -> Driver:
    auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_password else None
    return GraphDatabase.driver(settings.neo4j_uri, auth=auth)


def bootstrap(settings: Settings | None = None) -> Lore:
    settings = settings or Settings()
    return Lore(settings=settings, driver=neo4j_driver(settings), event_log=open_event_log(settings))
