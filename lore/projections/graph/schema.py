"""Constraints and indexes, created idempotently — also when several workers start at once."""

from __future__ import annotations

import logging

from neo4j import Driver
from neo4j.exceptions import ClientError

log = logging.getLogger(__name__)

VECTOR_INDEX = "memory_embedding"
MEMORY_FULLTEXT = "memory_content"
ENTITY_FULLTEXT = "entity_name"

_STATEMENTS = [
    "CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE u.user_id IS UNIQUE",
    "CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (m:Memory) REQUIRE m.memory_id IS UNIQUE",
    "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.entity_id IS UNIQUE",
    "CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (e:Episode) REQUIRE e.episode_id IS UNIQUE",
    "CREATE CONSTRAINT applied_command IF NOT EXISTS FOR (c:AppliedCommand) REQUIRE c.command_id IS UNIQUE",
    "CREATE CONSTRAINT checkpoint_key IF NOT EXISTS FOR (c:Checkpoint) REQUIRE c.key IS UNIQUE",
    "CREATE INDEX memory_user IF NOT EXISTS FOR (m:Memory) ON (m.user_id)",
    "CREATE INDEX memory_slot IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.slot)",
    "CREATE INDEX memory_valid_from IF NOT EXISTS FOR (m:Memory) ON (m.valid_from)",
    "CREATE INDEX memory_valid_until IF NOT EXISTS FOR (m:Memory) ON (m.valid_until)",
    "CREATE INDEX entity_user IF NOT EXISTS FOR (e:Entity) ON (e.user_id)",
    "CREATE INDEX episode_user IF NOT EXISTS FOR (e:Episode) ON (e.user_id)",
    "CREATE INDEX applied_command_user IF NOT EXISTS FOR (c:AppliedCommand) ON (c.user_id)",
    f"CREATE FULLTEXT INDEX {MEMORY_FULLTEXT} IF NOT EXISTS FOR (m:Memory) ON EACH [m.content]",
    f"CREATE FULLTEXT INDEX {ENTITY_FULLTEXT} IF NOT EXISTS FOR (e:Entity) ON EACH [e.name]",
]

_VECTOR = (
    f"CREATE VECTOR INDEX {VECTOR_INDEX} IF NOT EXISTS FOR (m:Memory) ON m.embedding "
    "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}"
)


def ensure_schema(driver: Driver, dimensions: int | None, database: str = "neo4j") -> None:
    """Create what is missing. `dimensions` = the embedder's; None leaves the vector index out."""
    statements: list[tuple[str, dict[str, int]]] = [(s, {}) for s in _STATEMENTS]
    if dimensions:
        statements.append((_VECTOR, {"dimensions": dimensions}))
    for statement, params in statements:
        try:
            driver.execute_query(statement, params, database_=database)
        except ClientError as exc:
            # Two workers racing: the other one created the same rule between our check and ours.
            if "EquivalentSchemaRuleAlreadyExists" not in (exc.code or "") and \
                    "already exists" not in (exc.message or ""):
                raise
    driver.execute_query("CALL db.awaitIndexes(300)", database_=database)
