"""A canonical hash of the graph (or one user's part of it): equal graphs, equal fingerprints.

Covers every node's labels and properties and every relationship's type, ends and properties,
independent of the order Neo4j returns them in. Checkpoints and leases are left out: they say how
far a projection has read and who runs a job, not what it holds.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from neo4j import Driver
from neo4j.time import DateTime

# How a relationship names its ends: by the node's own identity (an episode's `key`, since its
# id is only unique per person).
_ID_KEYS = ["message_id", "memory_id", "entity_id", "extraction_id", "summary_id", "key", "user_id"]

_NODES = """
MATCH (n) WHERE NOT n:Checkpoint AND NOT n:Lease AND NOT n:Job AND ($user_id IS NULL OR n.user_id = $user_id)
RETURN labels(n) AS labels, properties(n) AS props
"""

_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE $user_id IS NULL OR a.user_id = $user_id
RETURN type(r) AS type, properties(r) AS props,
       [k IN $id_keys WHERE a[k] IS NOT NULL | a[k]][0] AS start,
       [k IN $id_keys WHERE b[k] IS NOT NULL | b[k]][0] AS end
"""


def _plain(value: Any) -> Any:
    if isinstance(value, DateTime):
        return value.to_native().isoformat()
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
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
            props = {k: v for k, v in record["props"].items() if k not in ignore}
            digests.append(_digest({"labels": sorted(record["labels"]), "props": props}))
        for record in session.run(_RELATIONSHIPS, user_id=user_id, id_keys=_ID_KEYS):
            props = {k: v for k, v in record["props"].items() if k not in ignore}
            digests.append(_digest({**dict(record), "props": props}))
    total = hashlib.sha256()
    for digest in sorted(digests):
        total.update(digest)
    return f"{total.hexdigest()}:{len(digests)}"
