"""The fingerprint reads instants as their fields, not as the driver's DateTime objects: it must
hash every property as reading them whole would, and still tell apart what differs."""

from __future__ import annotations

import hashlib

from neo4j import Driver

from projections.graph.fingerprint import _digest, fingerprint

_WRITE = """
CREATE (u:User {user_id: 'ada', name: 'Ada', born: datetime('1969-12-31T23:59:59.5+00:00')})
CREATE (m:Memory:Active {memory_id: 'm1', user_id: 'ada', content: 'lives in Lyon', confidence: 0.9,
        valid_from: datetime('2026-03-01T08:15:30.123456+08:00'), tags: ['home', 'city'],
        seen: [datetime('1900-03-01T12:00:00-05:30'), datetime('2026-01-01T00:00:00+14:00')],
        embedding: [0.1, -0.25, 3.0e-7], reinforced_count: 2, pinned: false})
CREATE (u)-[:REMEMBERS {at: datetime('2026-03-02T00:00:00Z'), weight: 1.0}]->(m)
"""


def _reference(driver: Driver, user_id: str) -> str:
    """The fingerprint as it was first written: every property read whole through the driver."""
    nodes, _, _ = driver.execute_query(
        "MATCH (n {user_id: $u}) RETURN labels(n) AS labels, properties(n) AS props", u=user_id)
    rels, _, _ = driver.execute_query(
        "MATCH (a {user_id: $u})-[r]->(b) RETURN type(r) AS type, properties(r) AS props, "
        "a.memory_id AS am, a.user_id AS au, b.memory_id AS bm, b.user_id AS bu", u=user_id)
    digests = [_digest({"labels": sorted(r["labels"]), "props": r["props"]}) for r in nodes]
    digests += [_digest({"type": r["type"], "props": r["props"], "start": r["am"] or r["au"],
                         "end": r["bm"] or r["bu"]}) for r in rels]
    total = hashlib.sha256()
    for digest in sorted(digests):
        total.update(digest)
    return f"{total.hexdigest()}:{len(digests)}"


def test_instants_read_as_fields_hash_as_the_whole_properties_did(neo4j: Driver) -> None:
    neo4j.execute_query(_WRITE)
    assert fingerprint(neo4j, "ada") == _reference(neo4j, "ada")


def test_a_changed_instant_vector_or_list_of_instants_changes_the_fingerprint(neo4j: Driver) -> None:
    neo4j.execute_query(_WRITE)
    before = fingerprint(neo4j, "ada")
    for change in (
        "MATCH (u:User {user_id: 'ada'}) SET u.born = datetime('1969-12-31T23:59:59.4+00:00')",
        "MATCH (m:Memory) SET m.seen = [datetime('1900-03-01T12:00:00-05:00'), m.seen[1]]",
        "MATCH (m:Memory) SET m.embedding = [0.1, -0.25, 3.1e-7]",
        "MATCH ()-[r:REMEMBERS]->() SET r.at = datetime('2026-03-02T00:00:00+01:00')",
    ):
        neo4j.execute_query(change)
        after = fingerprint(neo4j, "ada")
        assert after != before, change
        assert after == _reference(neo4j, "ada"), change
        before = after
