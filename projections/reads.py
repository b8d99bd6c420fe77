"""What the read-side query classes share: a driver, a database, and a query that answers records."""

from __future__ import annotations

from typing import Any

from neo4j import Driver


class GraphQueries:
    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database

    def _run(self, query: str, **params: Any) -> list[Any]:
        records, _, _ = self.driver.execute_query(query, params, database_=self.database)
        return records
