"""What the deciders need to know about a person, read from the projection."""

from __future__ import annotations

from collections.abc import Iterable

from neo4j import Driver

from domain.model import MemoryKind, normalized
from domain.state import MemoryState, UserState, slot_key

_LOAD = """
UNWIND $user_ids AS uid
CALL (uid) {
  OPTIONAL MATCH (m:Memory {user_id: uid})
  RETURN collect(m {.memory_id, .kind, .content, .attribute, .value, .valid_from, .valid_until,
                    .confidence, .superseded_by, .status, .log_position}) AS memories
}
CALL (uid) {
  OPTIONAL MATCH (e:Episode {user_id: uid})
  RETURN collect(e.episode_id) AS episodes
}
RETURN uid, memories, episodes
"""

_APPLIED = """
UNWIND $command_ids AS cid
MATCH (c:AppliedCommand {command_id: cid})
RETURN c.command_id AS command_id
"""


def load_states(driver: Driver, user_ids: Iterable[str], database: str = "neo4j") -> dict[str, UserState]:
    records, _, _ = driver.execute_query(_LOAD, user_ids=list(user_ids), database_=database)
    states = {}
    for record in records:
        state = UserState(record["uid"])
        for row in sorted(record["memories"], key=lambda m: m["log_position"]):
            memory = MemoryState(
                memory_id=row["memory_id"],
                kind=MemoryKind(row["kind"]),
                content_key=normalized(row["content"]),
                slot=slot_key(row["attribute"]),
                value_key=normalized(row["value"] or row["content"]),
                valid_from=row["valid_from"].to_native(),
                valid_until=row["valid_until"].to_native() if row["valid_until"] else None,
                confidence=row["confidence"],
                sequence=state.next_sequence(),
                superseded_by=row["superseded_by"],
                forgotten=row["status"] == "forgotten",
            )
            state.remember(memory)
        state.episodes.update(record["episodes"])
        states[state.user_id] = state
    return states


def applied_commands(driver: Driver, command_ids: Iterable[str], database: str = "neo4j") -> set[str]:
    records, _, _ = driver.execute_query(_APPLIED, command_ids=list(command_ids), database_=database)
    return {r["command_id"] for r in records}
