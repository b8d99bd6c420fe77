"""A canonical hash of the graph (or one user's part of it): equal graphs, equal fingerprints.

Covers every node's labels and properties and every relationship's type, ends and properties,
independent of the order Neo4j returns them in. Checkpoints and leases are left out: they say how
far a projection has read and who runs a job, not what it holds.
"""

from __future__ import annotations

import hashlib
import json
import struct
from datetime import datetime, timedelta, timezone
from typing import Any

from neo4j import Driver
from neo4j.time import DateTime

# How a relationship names its ends: by the node's own identity (an episode's `key`, since its
# id is only unique per person).
_ID_KEYS = ["message_id", "memory_id", "entity_id", "extraction_id", "summary_id", "key", "user_id"]

# Instants leave Neo4j as their fields (a list of instants as a list of those): the driver's
# DateTime objects cost more to make than all the rest of a graph's rows. (Not epochSeconds: it
# rounds toward zero, so half a second before 1970 would read as half a second after.)
_PROPERTIES = """
[k IN keys({x}) WHERE NOT valueType({x}[k]) CONTAINS 'ZONED DATETIME' | [k, {x}[k]]] AS props,
[k IN keys({x}) WHERE valueType({x}[k]) CONTAINS 'ZONED DATETIME' |
  [k, CASE WHEN valueType({x}[k]) STARTS WITH 'LIST'
           THEN [t IN {x}[k] | {fields}]
           ELSE [t IN [{x}[k]] | {fields}][0] END]] AS instants
"""
_FIELDS = "[t.year, t.month, t.day, t.hour, t.minute, t.second, t.nanosecond, t.offsetSeconds]"

_NODES = """
MATCH (n) WHERE NOT n:Checkpoint AND NOT n:Lease AND NOT n:Job AND ($user_id IS NULL OR n.user_id = $user_id)
RETURN labels(n) AS labels,
""" + _PROPERTIES.format(x="n", fields=_FIELDS)

_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE $user_id IS NULL OR a.user_id = $user_id
RETURN type(r) AS type,
       [k IN $id_keys WHERE a[k] IS NOT NULL | a[k]][0] AS start,
       [k IN $id_keys WHERE b[k] IS NOT NULL | b[k]][0] AS end,
""" + _PROPERTIES.format(x="r", fields=_FIELDS)


def _isoformat(year: int, month: int, day: int, hour: int, minute: int, second: int, nanosecond: int,
               offset_seconds: int) -> str:
    """What DateTime.to_native().isoformat() gives for the same instant (Lore's are microseconds)."""
    zone = timezone(timedelta(seconds=offset_seconds))
    return datetime(year, month, day, hour, minute, second, nanosecond // 1000, zone).isoformat()


def _properties(record: Any, ignore: frozenset[str]) -> dict[str, Any]:
    props = {k: v for k, v in record["props"] if k not in ignore}
    for key, value in record["instants"]:
        if key not in ignore:
            props[key] = ([_isoformat(*t) for t in value] if value and isinstance(value[0], list)
                          else _isoformat(*value))
    return props


def _plain(value: Any) -> Any:
    if isinstance(value, DateTime):
        return value.to_native().isoformat()
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        if value and all(type(v) is float for v in value):
            # A vector, by its bytes: as exact as each float's repr, which takes a microsecond a float.
            # (A property is never a map, so nothing else reads the same.)
            return {"float64": hashlib.sha256(struct.pack(f"<{len(value)}d", *value)).hexdigest()}
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in sorted(value.items())}
    return value


def _digest(item: Any) -> bytes:
    return hashlib.sha256(json.dumps(_plain(item), sort_keys=True).encode()).digest()


# Transaction times: when Lore learned or changed a thing (and what is counted from one: an
# episode's expiry). Two runs of the same commands differ in them and in nothing else; a rebuild
# keeps them (they come from the events).
TRANSACTION_TIMES = frozenset({"recorded_at", "superseded_at", "retired_at", "forgotten_at", "restored_at",
                               "at", "replaced_at", "merged_at", "updated_at", "due_since", "done_at",
                               "summarized_at", "revised_at", "profile_due_since", "profile_revised_at",
                               "decayed_at", "compressed_at", "expired_at", "finished_at", "configured_at",
                               "expires_at", "last_feedback_at"})

def fingerprint(driver: Driver, user_id: str | None = None, database: str = "neo4j",
                ignore: frozenset[str] = frozenset()) -> str:
    """Hex sha256 over the sorted digests of every node and relationship.

    `ignore` leaves properties of nodes and relationships out, e.g. `log_position` to compare
    the graphs that two different logs of the same commands gave."""
    digests: list[bytes] = []
    with driver.session(database=database) as session:
        for record in session.run(_NODES, user_id=user_id):
            props = _properties(record, ignore)
            digests.append(_digest({"labels": sorted(record["labels"]), "props": props}))
        for record in session.run(_RELATIONSHIPS, user_id=user_id, id_keys=_ID_KEYS):
            props = _properties(record, ignore)
            digests.append(_digest({"type": record["type"], "start": record["start"], "end": record["end"],
                                    "props": props}))
    total = hashlib.sha256()
    for digest in sorted(digests):
        total.update(digest)
    return f"{total.hexdigest()}:{len(digests)}"
