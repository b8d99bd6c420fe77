"""What became of a command, and a person's counts: small reads for the API."""

from __future__ import annotations

from dataclasses import dataclass

from neo4j import Driver

_OUTCOME = """
MATCH (a:AppliedCommand {command_id: $command_id})
RETURN a.outcome AS outcome, a.code AS code, a.reason AS reason, a.memory_id AS memory_id
"""

_STATS = """
MATCH (m:Memory {user_id: $user_id})
RETURN m.kind AS kind, m.status AS status, count(*) AS n
"""


@dataclass(frozen=True)
class CommandOutcome:
    outcome: str
    code: str | None
    reason: str | None
    memory_id: str | None


def command_outcome(driver: Driver, command_id: str, database: str = "neo4j") -> CommandOutcome | None:
    """None while the command has not reached the graph."""
    records, _, _ = driver.execute_query(_OUTCOME, command_id=command_id, database_=database)
    if not records:
        return None
    r = records[0]
    return CommandOutcome(r["outcome"] or "applied", r["code"], r["reason"], r["memory_id"])


def memory_counts(driver: Driver, user_id: str, database: str = "neo4j") -> list[tuple[str, str, int]]:
    """(kind, status, count) for each kind and status the person has."""
    records, _, _ = driver.execute_query(_STATS, user_id=user_id, database_=database)
    return [(r["kind"], r["status"], r["n"]) for r in records]
