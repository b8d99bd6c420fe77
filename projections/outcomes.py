"""What became of commands, and a person's counts: small reads for the API and the handler."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from neo4j import Driver

from domain.model import command_key

CommandRef = tuple[str, str]  # (user_id, command_id): a command id means something per person only

_OUTCOMES = """
UNWIND $refs AS ref
MATCH (a:AppliedCommand {key: ref.key})
RETURN ref.user_id AS user_id, ref.command_id AS command_id, a.outcome AS outcome, a.code AS code,
       a.reason AS reason, a.memory_id AS memory_id
"""

_STATS = """
MATCH (m:Memory {user_id: $user_id})
RETURN m.kind AS kind, m.status AS status, count(*) AS n
"""


@dataclass(frozen=True)
class CommandOutcome:
    outcome: str  # applied | rejected
    code: str | None
    reason: str | None
    memory_id: str | None


class OutcomeQueries:
    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database

    def outcomes(self, refs: Collection[CommandRef]) -> dict[CommandRef, CommandOutcome]:
        """What each of these commands came to, for those that have reached the graph."""
        if not refs:
            return {}
        records, _, _ = self.driver.execute_query(
            _OUTCOMES, refs=[{"user_id": u, "command_id": c, "key": command_key(u, c)} for u, c in refs],
            database_=self.database)
        return {(r["user_id"], r["command_id"]): CommandOutcome(r["outcome"] or "applied", r["code"],
                                                                r["reason"], r["memory_id"])
                for r in records}

    def outcome_now(self, user_id: str, command_id: str) -> CommandOutcome | None:
        """`outcome`, asked once: a Neo4j that is away raises at once instead of being retried
        for half a minute (the HTTP intake publishes anyway; the worker knows a duplicate)."""
        key = command_key(user_id, command_id)
        with self.driver.session(database=self.database) as session:
            records = list(session.run(_OUTCOMES, refs=[{"user_id": user_id, "command_id": command_id,
                                                         "key": key}]))
        return next((CommandOutcome(r["outcome"] or "applied", r["code"], r["reason"], r["memory_id"])
                     for r in records), None)

    def outcome(self, user_id: str, command_id: str) -> CommandOutcome | None:
        """None while the command has not reached the graph."""
        return self.outcomes([(user_id, command_id)]).get((user_id, command_id))

    def memory_counts(self, user_id: str) -> list[tuple[str, str, int]]:
        """(kind, status, count) for each kind and status the person has."""
        records, _, _ = self.driver.execute_query(_STATS, user_id=user_id, database_=self.database)
        return [(r["kind"], r["status"], r["n"]) for r in records]
