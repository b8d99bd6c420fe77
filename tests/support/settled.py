"""Whether the background work of a person is done: what a test waits for before it compares graphs."""

from __future__ import annotations

from neo4j import Driver

_DUE = """
OPTIONAL MATCH (x:Extraction {user_id: $u, status: 'due'}) WITH count(x) AS x
OPTIONAL MATCH (s:Summary {user_id: $u, status: 'due'}) WITH x, count(s) AS s
OPTIONAL MATCH (p:User {user_id: $u, profile_due: true}) WITH x, s, count(p) AS p
RETURN x + s + p AS due
"""


def nothing_due(driver: Driver, user_id: str) -> bool:
    """No extraction, session summary or profile version of the person is due."""
    records, _, _ = driver.execute_query(_DUE, u=user_id)
    return records[0]["due"] == 0
