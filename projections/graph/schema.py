"""Constraints and indexes, created idempotently — also when several workers start at once."""

from __future__ import annotations

import logging

from neo4j import Driver
from neo4j.exceptions import ClientError

log = logging.getLogger(__name__)

VECTOR_INDEX = "memory_embedding"
MESSAGE_VECTOR_INDEX = "message_embedding"
# Each fulltext index holds `user_key` beside the text, so that a query stays inside one person.
MEMORY_FULLTEXT = "memory_text"
MEMORY_FULLTEXT_CJK = "memory_text_cjk"
MESSAGE_FULLTEXT = "message_text"
MESSAGE_FULLTEXT_CJK = "message_text_cjk"
ENTITY_FULLTEXT = "entity_name_by_user"
SUMMARY_VECTOR_INDEX = "summary_embedding"
SUMMARY_FULLTEXT = "summary_text"
# A Chinese store's own indexes, over the words jieba cut (`words_zh`, space-separated: the index
# cuts at spaces only). Which of them a store holds is its language (`store_language`).
MEMORY_WORDS_ZH = "memory_words_zh"
MESSAGE_WORDS_ZH = "message_words_zh"
SUMMARY_WORDS_ZH = "summary_words_zh"
# Indexes and constraints of earlier versions, replaced by the ones below. The constraints made
# a command or episode id unique across everyone; it is unique per person now.
_RETIRED_INDEXES = ["memory_content", "entity_name"]
_RETIRED_CONSTRAINTS = ["applied_command", "episode_id"]


def _fulltext(name: str, label: str, properties: str, analyzer: str) -> str:
    return (f"CREATE FULLTEXT INDEX {name} IF NOT EXISTS FOR (n:{label}) ON EACH [{properties}] "
            f"OPTIONS {{indexConfig: {{`fulltext.analyzer`: '{analyzer}'}}}}")


_FULLTEXT = {
    # English (stemming) for most text; CJK bigrams for text with Chinese, Japanese or Korean in it.
    # A turn is found by its words and by those of the turns around it (`context`).
    MEMORY_FULLTEXT: ("Memory", ["content", "user_key"], "english"),
    MEMORY_FULLTEXT_CJK: ("Memory", ["content_cjk", "user_key_cjk"], "cjk"),
    MESSAGE_FULLTEXT: ("Message", ["content", "context", "user_key"], "english"),
    MESSAGE_FULLTEXT_CJK: ("Message", ["content_cjk", "user_key_cjk"], "cjk"),
    ENTITY_FULLTEXT: ("Entity", ["name", "user_key"], "standard-no-stop-words"),
    SUMMARY_FULLTEXT: ("Summary", ["content", "user_key"], "english"),
}
_FULLTEXT_PROPERTIES = {name: properties for name, (_, properties, _) in _FULLTEXT.items()}
LANGUAGE_FULLTEXT = {
    "zh": {name: (label, ["words_zh", "user_key_cjk"], "whitespace")
           for name, label in ((MEMORY_WORDS_ZH, "Memory"), (MESSAGE_WORDS_ZH, "Message"),
                               (SUMMARY_WORDS_ZH, "Summary"))},
}

_STATEMENTS = [
    "CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE u.user_id IS UNIQUE",
    "CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (m:Memory) REQUIRE m.memory_id IS UNIQUE",
    "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.entity_id IS UNIQUE",
    "CREATE CONSTRAINT episode_key IF NOT EXISTS FOR (e:Episode) REQUIRE e.key IS UNIQUE",
    "CREATE CONSTRAINT applied_command_key IF NOT EXISTS FOR (c:AppliedCommand) REQUIRE c.key IS UNIQUE",
    "CREATE CONSTRAINT checkpoint_key IF NOT EXISTS FOR (c:Checkpoint) REQUIRE c.key IS UNIQUE",
    "CREATE CONSTRAINT message_id IF NOT EXISTS FOR (x:Message) REQUIRE x.message_id IS UNIQUE",
    "CREATE CONSTRAINT session_key IF NOT EXISTS FOR (s:Session) REQUIRE s.key IS UNIQUE",
    "CREATE CONSTRAINT extraction_id IF NOT EXISTS FOR (x:Extraction) REQUIRE x.extraction_id IS UNIQUE",
    "CREATE INDEX session_user IF NOT EXISTS FOR (s:Session) ON (s.user_id)",
    "CREATE CONSTRAINT summary_id IF NOT EXISTS FOR (s:Summary) REQUIRE s.summary_id IS UNIQUE",
    "CREATE CONSTRAINT profile_key IF NOT EXISTS FOR (p:Profile) REQUIRE p.key IS UNIQUE",
    "CREATE INDEX summary_user IF NOT EXISTS FOR (s:Summary) ON (s.user_id)",
    "CREATE INDEX summary_status IF NOT EXISTS FOR (s:Summary) ON (s.status)",
    "CREATE INDEX profile_user IF NOT EXISTS FOR (p:Profile) ON (p.user_id, p.version)",
    "CREATE INDEX user_profile_due IF NOT EXISTS FOR (u:User) ON (u.profile_due)",
    "CREATE INDEX extraction_user IF NOT EXISTS FOR (x:Extraction) ON (x.user_id, x.status)",
    "CREATE INDEX extraction_status IF NOT EXISTS FOR (x:Extraction) ON (x.status)",
    "CREATE INDEX message_user IF NOT EXISTS FOR (x:Message) ON (x.user_id)",
    "CREATE INDEX memory_user IF NOT EXISTS FOR (m:Memory) ON (m.user_id)",
    "CREATE INDEX memory_slot IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.slot)",
    "CREATE INDEX memory_valid_from IF NOT EXISTS FOR (m:Memory) ON (m.valid_from)",
    "CREATE INDEX memory_valid_until IF NOT EXISTS FOR (m:Memory) ON (m.valid_until)",
    "CREATE INDEX entity_user IF NOT EXISTS FOR (e:Entity) ON (e.user_id)",
    "CREATE INDEX episode_user IF NOT EXISTS FOR (e:Episode) ON (e.user_id)",
    "CREATE INDEX applied_command_user IF NOT EXISTS FOR (c:AppliedCommand) ON (c.user_id)",
    "CREATE CONSTRAINT maintenance_run IF NOT EXISTS FOR (r:MaintenanceRun) REQUIRE r.run_id IS UNIQUE",
    "CREATE CONSTRAINT lease_name IF NOT EXISTS FOR (l:Lease) REQUIRE l.name IS UNIQUE",
    "CREATE CONSTRAINT job_key IF NOT EXISTS FOR (j:Job) REQUIRE j.key IS UNIQUE",
    "CREATE INDEX job_state IF NOT EXISTS FOR (j:Job) ON (j.state, j.updated_at)",
    "CREATE INDEX todo_remind_at IF NOT EXISTS FOR (m:Todo) ON (m.remind_at)",
    # Which model made a node's vector: asked at every start (another model's vectors refused)
    # and by `lore reembed`, as index seeks rather than scans.
    "CREATE INDEX memory_embedding_model IF NOT EXISTS FOR (m:Memory) ON (m.embedding_model)",
    "CREATE INDEX message_embedding_model IF NOT EXISTS FOR (x:Message) ON (x.embedding_model)",
    "CREATE INDEX summary_embedding_model IF NOT EXISTS FOR (s:Summary) ON (s.embedding_model)",
    *(_fulltext(name, label, ", ".join(f"n.{p}" for p in properties), analyzer)
      for name, (label, properties, analyzer) in _FULLTEXT.items()),
]

_VECTOR_LABELS = ((VECTOR_INDEX, "Memory"), (MESSAGE_VECTOR_INDEX, "Message"),
                  (SUMMARY_VECTOR_INDEX, "Summary"))
_VECTOR_OPTIONS = ("OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, "
                   "`vector.similarity_function`: 'cosine'}}")
_VECTORS = [f"CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON n.embedding {_VECTOR_OPTIONS}"
            for name, label in _VECTOR_LABELS]
# Neo4j 2026 (Cypher 25) filters inside the HNSW index by the properties named after WITH: a
# person's nearest neighbours come out of the index directly, however small their share of it.
_FILTERED_VECTORS = [f"CYPHER 25 CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON n.embedding "
                     f"WITH [n.user_id] {_VECTOR_OPTIONS}" for name, label in _VECTOR_LABELS]


def stale_fulltext_indexes(driver: Driver, database: str = "neo4j") -> list[str]:
    """Lore's fulltext indexes that exist over other properties than the ones wanted now."""
    records, _, _ = driver.execute_query("SHOW FULLTEXT INDEXES YIELD name, properties",
                                         database_=database)
    return [r["name"] for r in records
            if r["name"] in _FULLTEXT_PROPERTIES and list(r["properties"]) != _FULLTEXT_PROPERTIES[r["name"]]]


def filters_in_vector_index(driver: Driver, database: str = "neo4j") -> bool:
    """Whether this Neo4j filters vector searches inside the index (2026 and later)."""
    records, _, _ = driver.execute_query(
        "CALL dbms.components() YIELD name, versions WHERE name = 'Neo4j Kernel' RETURN versions[0] AS v",
        database_=database)
    version = str(records[0]["v"]) if records else ""
    year = version.split(".", 1)[0]
    return year.isdigit() and int(year) >= 2026


def vector_index_filters(driver: Driver, database: str = "neo4j") -> dict[str, bool]:
    """Each existing vector index of Lore's, and whether it can filter by person."""
    records, _, _ = driver.execute_query("SHOW VECTOR INDEXES YIELD name, properties", database_=database)
    return {r["name"]: "user_id" in (r["properties"] or []) for r in records}


def store_language(driver: Driver, database: str = "neo4j") -> str | None:
    """The language a store's text is read in: the one whose own indexes it holds; a store without
    any is English once it holds anyone (every store before issue 31 was), else it has none yet."""
    records, _, _ = driver.execute_query("SHOW FULLTEXT INDEXES YIELD name", database_=database)
    names = {r["name"] for r in records}
    for code, indexes in LANGUAGE_FULLTEXT.items():
        if names & indexes.keys():
            return code
    records, _, _ = driver.execute_query("MATCH (u:User) RETURN 1 AS found LIMIT 1", database_=database)
    return "en" if records else None


def language_indexes(language: str) -> list[str]:
    """The statements that make a language's own indexes (none for English)."""
    return [_fulltext(name, label, ", ".join(f"n.{p}" for p in properties), analyzer)
            for name, (label, properties, analyzer) in LANGUAGE_FULLTEXT.get(language, {}).items()]


def drop_language_indexes(driver: Driver, database: str = "neo4j") -> None:
    for indexes in LANGUAGE_FULLTEXT.values():
        for name in indexes:
            driver.execute_query(f"DROP INDEX {name} IF EXISTS", database_=database)


def ensure_schema(driver: Driver, dimensions: int | None, database: str = "neo4j",
                  language: str | None = None) -> None:
    """Create what is missing. `dimensions` = the embedder's; None leaves the vector index out.
    `language`: its own indexes are made too (None: a language's indexes are left as they are)."""
    statements: list[tuple[str, dict[str, int]]] = [
        (f"DROP CONSTRAINT {name} IF EXISTS", {}) for name in _RETIRED_CONSTRAINTS]
    statements += [(f"DROP INDEX {name} IF EXISTS", {}) for name in _RETIRED_INDEXES]
    # A fulltext index over other properties than today's (the turn's context came later) is
    # made again; Neo4j fills it from the nodes in the background, awaited below.
    statements += [(f"DROP INDEX {name} IF EXISTS", {}) for name in stale_fulltext_indexes(driver, database)]
    statements += [(s, {}) for s in _STATEMENTS]
    statements += [(s, {}) for s in language_indexes(language or "en")]
    if dimensions:
        if filters_in_vector_index(driver, database):
            # An index made before (by 5.26, or without the filter) is made again with it, once.
            statements += [(f"DROP INDEX {name} IF EXISTS", {})
                           for name, filters in vector_index_filters(driver, database).items() if not filters]
            statements += [(s, {"dimensions": dimensions}) for s in _FILTERED_VECTORS]
        else:
            statements += [(s, {"dimensions": dimensions}) for s in _VECTORS]
    for statement, params in statements:
        try:
            driver.execute_query(statement, params, database_=database)
        except ClientError as exc:
            # Two workers racing: the other one created the same rule between our check and ours.
            if "EquivalentSchemaRuleAlreadyExists" not in (exc.code or "") and \
                    "already exists" not in (exc.message or ""):
                raise
    driver.execute_query("CALL db.awaitIndexes(300)", database_=database)


def holds_vectors_of(driver: Driver, model: str, database: str = "neo4j") -> bool:
    """Whether any memory, turn or summary has a vector of `model` (index seeks)."""
    records, _, _ = driver.execute_query(
        "CALL () { MATCH (n:Memory) WHERE n.embedding_model = $model RETURN 1 AS found LIMIT 1 "
        "UNION MATCH (n:Message) WHERE n.embedding_model = $model RETURN 1 AS found LIMIT 1 "
        "UNION MATCH (n:Summary) WHERE n.embedding_model = $model RETURN 1 AS found LIMIT 1 } "
        "RETURN found LIMIT 1", model=model, database_=database)
    return bool(records)


def other_embedding_models(driver: Driver, model: str, database: str = "neo4j") -> list[str]:
    """Models other than `model` whose vectors the graph holds, as far as one node of each on
    either side of `model` in the embedding_model index tells (two seeks per label, made once per
    process when its schema is made: no scan, whatever the store's size)."""
    found: set[str] = set()
    for label in ("Memory", "Message", "Summary"):
        records, _, _ = driver.execute_query(
            f"CALL () {{ MATCH (n:{label}) WHERE n.embedding_model < $model RETURN n.embedding_model AS m "
            f"LIMIT 1 UNION MATCH (n:{label}) WHERE n.embedding_model > $model RETURN n.embedding_model AS m "
            "LIMIT 1 } RETURN m", model=model, database_=database)
        found.update(r["m"] for r in records)
    return sorted(found)


def drop_vector_indexes(driver: Driver, database: str = "neo4j") -> None:
    """Drop the vector indexes (to make them again for vectors of another size)."""
    for name, _ in _VECTOR_LABELS:
        driver.execute_query(f"DROP INDEX {name} IF EXISTS", database_=database)


def vector_dimensions(driver: Driver, database: str = "neo4j") -> int | None:
    """The dimension the memories' vector index was made with (None: there is none)."""
    records, _, _ = driver.execute_query(
        "SHOW VECTOR INDEXES YIELD name, options WHERE name = $name "
        "RETURN options.indexConfig.`vector.dimensions` AS d", name=VECTOR_INDEX, database_=database)
    return records[0]["d"] if records else None
