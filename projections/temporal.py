"""As-of reads: what was true at `valid_at`, as Lore knew it at `known_at`; histories; timelines.

A memory's window can change after it was recorded (a newer value closes it, a late one
shortens it). Each change is a SUPERSEDES edge stamped with when Lore learned it (`at`) and,
once a later change replaced it, `replaced_at`; so the window as known at any moment is the
edge in force then, or the window the memory was recorded with.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import Driver, RoutingControl

from domain.state import slot_key
from projections.instants import as_text, parsed
from projections.views import MemoryView

# A memory's instants, returned as text and parsed in Python (projections/instants.py).
INSTANTS = ("valid_from", "recorded_at", "retired_at", "last_used_at", "last_cited_at", "due_at",
            "remind_at", "completed_at", "last_feedback_at")
_READ = (*INSTANTS, "valid_until")  # the window's end is returned as the window known then


def _fields(valid_until: str, extra: str = "") -> str:
    """A memory's fields as a map, `extra` entries added. Queries return a listing as one row, a list
    of these maps in order (`collect`): the driver reads each row as a message of its own, in Python,
    which cost as much as the rows' fields."""
    return (
        "m {.memory_id, .user_id, .kind, .category, .content, .attribute, .value, .status, "
        ".superseded_by, .importance, .confidence, .source, .access_count, .cited_count, "
        ".decided_by, .asserted, .merged_into, "
        ".merged_from, .compressed_into, .helpful_count, .wrong_count, .last_feedback, "
        f"{as_text('m', INSTANTS)}, "
        "episode_id: head([(m)-[:EXTRACTED_FROM]->(ep:Episode) | ep.episode_id]), "
        f"valid_until: toString({valid_until}){', ' + extra if extra else ''}}}"
    )


# Keeps the memories `m` true at $valid_at (null: at any time) as Lore knew them at $known_at,
# and names their window as known then `until`. Shared with search.
KNOWN_AT_FILTER = """
WHERE m.recorded_at <= $known_at
  AND (m.merged_at IS NULL OR m.merged_at > $known_at)
  AND (m.compressed_at IS NULL OR m.compressed_at > $known_at)
  AND none(i IN range(0, size(coalesce(m.forgotten_at, [])) - 1)
           WHERE m.forgotten_at[i] <= $known_at
             AND (i >= size(coalesce(m.restored_at, [])) OR m.restored_at[i] > $known_at))
  AND ($valid_at IS NULL OR m.valid_from <= $valid_at)
CALL (m) {
  OPTIONAL MATCH (:Memory)-[s:SUPERSEDES]->(m)
  WHERE s.at <= $known_at AND (s.replaced_at IS NULL OR s.replaced_at > $known_at)
  RETURN s.valid_until AS edge_until, s IS NOT NULL AS closed
  ORDER BY s.at DESC LIMIT 1
}
WITH *, CASE WHEN closed THEN edge_until ELSE m.stated_valid_until END AS until
WHERE $valid_at IS NULL OR until IS NULL OR $valid_at < until
"""

# The same as believed now: the stored window is the one in force, no edge needs reading.
KNOWN_NOW_FILTER = """
WHERE NOT m.status IN ['forgotten', 'merged', 'compressed']
  AND ($valid_at IS NULL OR (m.valid_from <= $valid_at
                             AND (m.valid_until IS NULL OR $valid_at < m.valid_until)))
WITH *, m.valid_until AS until
"""

AS_OF = "/*as-of*/"
# A listing grouped by kind or category (a page that shows them under headings) is ordered by it first.
_GROUPED = "CASE $group WHEN 'kind' THEN m.kind WHEN 'category' THEN coalesce(m.category, '~') ELSE '' END"


def as_of(query: str) -> tuple[str, str]:
    """`query` with its AS_OF marker replaced: (as believed now, as believed at $known_at)."""
    return query.replace(AS_OF, KNOWN_NOW_FILTER), query.replace(AS_OF, KNOWN_AT_FILTER)


def pick(queries: tuple[str, str], known_at: datetime | None) -> str:
    return queries[known_at is not None]


_AS_OF = as_of(f"""
MATCH (m:Memory {{user_id: $user_id}})
WHERE ($kind IS NULL OR m.kind = $kind)
  AND ($category IS NULL OR m.category = $category)
  AND ($slot IS NULL OR m.slot = $slot)
  AND ($status IS NULL OR m.status = $status)
WITH m
{AS_OF}
WITH m, until ORDER BY {_GROUPED}, m.valid_from DESC, m.memory_id
SKIP $skip LIMIT $limit
RETURN collect({_fields('until')}) AS memories
""")

# Memories by their status as Lore held them at $known_at (null: now), whatever it was: the forgotten
# ones included when asked for ("what did I have Lore forget", "what was forgotten in April").
_BY_STATUS = f"""
MATCH (m:Memory {{user_id: $user_id}})
WHERE ($kind IS NULL OR m.kind = $kind)
  AND ($category IS NULL OR m.category = $category)
  AND ($slot IS NULL OR m.slot = $slot)
  AND ($known_at IS NULL OR m.recorded_at <= $known_at)
  AND ($valid_at IS NULL OR (m.valid_from <= $valid_at
                             AND (m.valid_until IS NULL OR $valid_at < m.valid_until)))
WITH m, CASE
  WHEN $known_at IS NULL THEN m.status
  WHEN any(i IN range(0, size(coalesce(m.forgotten_at, [])) - 1)
           WHERE m.forgotten_at[i] <= $known_at
             AND (i >= size(coalesce(m.restored_at, [])) OR m.restored_at[i] > $known_at)) THEN 'forgotten'
  WHEN m.merged_at <= $known_at THEN 'merged'
  WHEN m.compressed_at <= $known_at THEN 'compressed'
  WHEN EXISTS {{ MATCH (:Memory)-[s:SUPERSEDES]->(m)
                WHERE s.at <= $known_at AND (s.replaced_at IS NULL OR s.replaced_at > $known_at) }}
    THEN 'superseded'
  ELSE 'active' END AS then
WHERE then = $status
WITH m, then ORDER BY m.valid_from DESC, m.memory_id
SKIP $skip LIMIT $limit
RETURN collect({_fields('m.valid_until', 'then: then')}) AS memories
"""

_ONE = f"""
MATCH (m:Memory {{user_id: $user_id, memory_id: $memory_id}})
RETURN collect({_fields('m.valid_until')}) AS memories
"""

# Several memories by id, in the order asked (a search's hits, shown as cards).
_SOME = f"""
UNWIND range(0, size($memory_ids) - 1) AS i
MATCH (m:Memory {{user_id: $user_id, memory_id: $memory_ids[i]}})
WITH i, m ORDER BY i
RETURN collect({_fields('m.valid_until')}) AS memories
"""

_HISTORY = f"""
MATCH (m:Memory {{user_id: $user_id, memory_id: $memory_id}})
OPTIONAL MATCH back = (m)-[:SUPERSEDES*]->(older:Memory)
  WHERE all(s IN relationships(back) WHERE s.replaced_at IS NULL)
OPTIONAL MATCH ahead = (newer:Memory)-[:SUPERSEDES*]->(m)
  WHERE all(s IN relationships(ahead) WHERE s.replaced_at IS NULL)
WITH m, collect(DISTINCT older) + collect(DISTINCT newer) + [m] AS chain
UNWIND chain AS c
WITH DISTINCT c AS m
WITH m ORDER BY m.valid_from, m.log_position, m.memory_id
SKIP $skip LIMIT $limit
RETURN collect({_fields('m.valid_until')}) AS memories
"""

_TIMELINE = f"""
MATCH (m:Memory {{user_id: $user_id, slot: $slot}})
WHERE NOT m.status IN ['forgotten', 'merged', 'compressed']
WITH m ORDER BY m.valid_from, m.log_position, m.memory_id
SKIP $skip LIMIT $limit
RETURN collect({_fields('m.valid_until')}) AS memories
"""


# The memories each of $memory_ids superseded (or corrected), oldest first.
_REPLACED = f"""
UNWIND $memory_ids AS id
MATCH (:Memory {{user_id: $user_id, memory_id: id}})-[s:SUPERSEDES]->(m:Memory)
WHERE s.replaced_at IS NULL
WITH id, m ORDER BY m.valid_from, m.log_position
RETURN id, {_fields('m.valid_until')} AS memory
"""

_ENTITIES = """
UNWIND $memory_ids AS id
MATCH (m:Memory {user_id: $user_id, memory_id: id})-[:ABOUT]->(e:Entity)
WITH id, e.name AS name ORDER BY name
RETURN id, collect(name) AS names
"""

# Every memory of the person, whatever its status, the latest recorded first: the page's "all".
_EVERY = f"""
MATCH (m:Memory {{user_id: $user_id}})
WHERE ($kind IS NULL OR m.kind = $kind) AND NOT m.status IN ['merged', 'compressed']
WITH m ORDER BY {_GROUPED}, m.recorded_at DESC, m.memory_id
SKIP $skip LIMIT $limit
RETURN collect({_fields('m.valid_until')}) AS memories
"""


def _views(driver: Driver, query: str, database: str, **params: Any) -> list[MemoryView]:
    records, _, _ = driver.execute_query(query, params, database_=database)
    return [MemoryView.model_validate(_native(row)) for row in records[0]["memories"]]


def _native(row: dict[str, Any]) -> dict[str, Any]:
    return parsed(row, _READ)


class TemporalQueries:
    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database

    def memories(self, user_id: str, *, valid_at: datetime | None = None,
                 known_at: datetime | None = None, kind: str | None = None,
                 attribute: str | None = None, status: str | None = None, category: str | None = None,
                 skip: int = 0, limit: int = 100, group: str | None = None) -> list[MemoryView]:
        """Memories true at `valid_at` (None: at any time) as known at `known_at` (None: now); with
        a `status`, those that had it then (forgotten ones too). `group` (kind, category): ordered by
        it first (not with a status)."""
        if status is not None:
            records, _, _ = self.driver.execute_query(
                _BY_STATUS, user_id=user_id, valid_at=valid_at, known_at=known_at, kind=kind,
                slot=slot_key(attribute), status=status, category=category, skip=skip, limit=limit,
                database_=self.database)
            return [MemoryView.model_validate({**_native(row), "status": row["then"]})
                    for row in records[0]["memories"]]
        return _views(self.driver, pick(_AS_OF, known_at), self.database, user_id=user_id, valid_at=valid_at,
                      known_at=known_at, kind=kind, slot=slot_key(attribute), status=status,
                      category=category, group=group or "", skip=skip, limit=limit)

    def settings(self, user_id: str) -> dict[str, Any]:
        """The person's own settings as projected (empty: none set, the deployment's apply)."""
        records, _, _ = self.driver.execute_query(
            "MATCH (u:User {user_id: $user_id}) RETURN u {.episode_retention_days, .pinned_kinds, .memory, "
            ".extraction, .citations, .temporary} AS s", user_id=user_id, database_=self.database,
            routing_=RoutingControl.READ)
        return {k: v for k, v in records[0]["s"].items() if v is not None} if records else {}

    def episode(self, user_id: str, episode_id: str) -> dict[str, Any] | None:
        """A conversation and its turns in order (their words gone once it expired)."""
        records, _, _ = self.driver.execute_query(
            "MATCH (ep:Episode {user_id: $user_id, episode_id: $episode_id}) "
            "OPTIONAL MATCH (ep)-[:HAS_MESSAGE]->(x:Message) "
            "WITH ep, x ORDER BY x.position "
            "RETURN ep {.episode_id, .session_id, .occurred_at, .expired_at} AS episode, "
            "collect(x {.position, .role, content: CASE WHEN x.hidden_by IS NULL THEN x.content END, "
            "hidden: x.hidden_by IS NOT NULL}) AS messages",
            user_id=user_id, episode_id=episode_id, database_=self.database, routing_=RoutingControl.READ)
        if not records:
            return None
        return {**records[0]["episode"], "messages": records[0]["messages"]}

    def memory(self, user_id: str, memory_id: str) -> MemoryView | None:
        found = _views(self.driver, _ONE, self.database, user_id=user_id, memory_id=memory_id)
        return found[0] if found else None

    def memories_by_id(self, user_id: str, memory_ids: Sequence[str]) -> list[MemoryView]:
        """The person's memories of these ids, in the order given, in one query (unknown ids left out)."""
        if not memory_ids:
            return []
        return _views(self.driver, _SOME, self.database, user_id=user_id, memory_ids=list(memory_ids))

    def history(self, user_id: str, memory_id: str, skip: int = 0, limit: int = 100) -> list[MemoryView]:
        """The supersession chain the memory belongs to, oldest first."""
        return _views(self.driver, _HISTORY, self.database, user_id=user_id, memory_id=memory_id,
                      skip=skip, limit=limit)

    def replaced(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, list[MemoryView]]:
        """What each memory superseded or corrected, oldest first."""
        records, _, _ = self.driver.execute_query(_REPLACED, user_id=user_id, memory_ids=list(memory_ids),
                                                  database_=self.database, routing_=RoutingControl.READ)
        found: dict[str, list[MemoryView]] = {}
        for r in records:
            found.setdefault(r["id"], []).append(MemoryView.model_validate(_native(r["memory"])))
        return found

    def entities(self, user_id: str, memory_ids: Sequence[str]) -> dict[str, list[str]]:
        """The names of what each memory is about."""
        records, _, _ = self.driver.execute_query(_ENTITIES, user_id=user_id, memory_ids=list(memory_ids),
                                                  database_=self.database, routing_=RoutingControl.READ)
        return {r["id"]: list(r["names"]) for r in records}

    def every(self, user_id: str, kind: str | None = None, skip: int = 0, limit: int = 100,
              group: str | None = None) -> list[MemoryView]:
        """Every memory of the person, in force or not (forgotten too), the latest recorded first
        (`group`: by kind or category first)."""
        return _views(self.driver, _EVERY, self.database, user_id=user_id, kind=kind, group=group or "",
                      skip=skip, limit=limit)

    def timeline(self, user_id: str, attribute: str, skip: int = 0, limit: int = 100) -> list[MemoryView]:
        """Every value a slot held, with its window, oldest first."""
        return _views(self.driver, _TIMELINE, self.database, user_id=user_id, slot=slot_key(attribute),
                      skip=skip, limit=limit)
