"""What the deciders need to know about people, read from the projection."""

from __future__ import annotations

from collections.abc import Collection

from neo4j import Driver

from domain.model import MemoryKind, normalized
from domain.state import MemoryState, UserState, slot_key
from projections.outcomes import CommandOutcome, CommandRef, OutcomeQueries

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


class GraphDecisionReads:
    """People's decision state and the outcomes of their commands, as the graph holds them."""

    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database
        self._outcomes = OutcomeQueries(driver, database)

    def states(self, user_ids: Collection[str]) -> dict[str, UserState]:
        records, _, _ = self.driver.execute_query(_LOAD, user_ids=list(user_ids), database_=self.database)
        return {record["uid"]: _state(record["uid"], record["memories"], record["episodes"])
                for record in records}

    def outcomes(self, refs: Collection[CommandRef]) -> dict[CommandRef, CommandOutcome]:
        return self._outcomes.outcomes(refs)


def _state(user_id: str, memories: list[dict], episodes: list[str]) -> UserState:  # type: ignore[type-arg]
    state = UserState(user_id)
    for row in sorted(memories, key=lambda m: m["log_position"]):
        state.remember(MemoryState(
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
        ))
    state.episodes.update(episodes)
    return state
