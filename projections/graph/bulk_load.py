"""What follows neo4j-admin's import of a folded graph: the schema, and the empty lists CSV cannot say."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from neo4j import Driver
from neo4j.exceptions import ServiceUnavailable, SessionExpired

from projections.graph.fold import ID_PROPERTY
from projections.graph.schema import ensure_schema, store_language, vector_dimensions

# Label and property come from ID_PROPERTY (ours), never from data; the values are parameters.
_EMPTY_LISTS = "UNWIND $rows AS r MATCH (n:{label} {{{key}: r.id}}) SET n += r.props"


def set_empty_lists(driver: Driver, empty_lists: list[tuple[str, str, dict[str, list[Any]]]],
                    database: str = "neo4j", batch: int = 10_000) -> None:
    by_label: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for label, node_id, props in empty_lists:
        by_label[label].append({"id": node_id, "props": props})
    for label, rows in by_label.items():
        statement = _EMPTY_LISTS.format(label=label, key=ID_PROPERTY[label])
        for start in range(0, len(rows), batch):
            driver.execute_query(statement, rows=rows[start:start + batch], database_=database)


def finish_import(driver: Driver, dimensions: int | None,
                  empty_lists: list[tuple[str, str, dict[str, list[Any]]]], database: str = "neo4j",
                  language: str | None = None) -> None:
    """Constraints and indexes (waits until they are online), the store's `language`'s among them,
    then the empty lists (found by the ids the constraints index)."""
    ensure_schema(driver, dimensions, database, language)
    set_empty_lists(driver, empty_lists, database)


def dimensions_now(driver: Driver, database: str = "neo4j") -> int | None:
    """The dimension of the vector index now, if Neo4j answers (else the log's vectors say it)."""
    try:
        # Asked once, without the driver's retries: a stopped Neo4j answers with an error at once.
        driver.verify_connectivity()
        return vector_dimensions(driver, database)
    except (ServiceUnavailable, SessionExpired):
        return None


def language_now(driver: Driver, database: str = "neo4j") -> str | None:
    """The store's language now, if Neo4j answers (None: it does not, or the store has none)."""
    try:
        driver.verify_connectivity()
        return store_language(driver, database)
    except (ServiceUnavailable, SessionExpired):
        return None
