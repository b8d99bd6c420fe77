"""What the deciders need to know about people, read from the projection."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from neo4j import Driver

from domain.commands import MessageRef
from domain.model import MemoryKind, normalized
from domain.state import (
    MemoryState,
    ProfileProgress,
    SessionProgress,
    SummaryProgress,
    UserSettings,
    UserState,
    slot_key,
)
from projections.instants import instant
from projections.outcomes import CommandOutcome, CommandRef, OutcomeQueries

# What a decision reads of a memory, and of the person's profile.
# Instants as text (projections/instants.py): a person's state is read whole, a memory at a time.
_MEMORY_FIELDS = """m {.memory_id, .kind, .content, .attribute, .value, valid_from: toString(m.valid_from),
                    valid_until: toString(m.valid_until), .confidence, .superseded_by, .status,
                    .log_position, .importance, .asserted, .merged_into, .compressed_into, .messages,
                    completed: m.completed_at IS NOT NULL}"""
_PROFILE_FIELDS = """u {.profile_version, .profile_due, profile_revised_at: toString(u.profile_revised_at),
          .profile_summaries_since, .profile_changes, .episode_retention_days, .pinned_kinds} AS profile"""

_LOAD = f"""
UNWIND $user_ids AS uid
CALL (uid) {{
  OPTIONAL MATCH (m:Memory {{user_id: uid}})
  RETURN collect({_MEMORY_FIELDS}) AS memories
}}
CALL (uid) {{
  OPTIONAL MATCH (e:Episode {{user_id: uid}})
  RETURN collect(e {{.episode_id, .session_id, .message_count, .expired_at}}) AS episodes
}}
CALL (uid) {{
  OPTIONAL MATCH (s:Session {{user_id: uid}})
  RETURN collect(s {{.session_id, .messages, .pending_turns, .pending, .recent, .ended}}) AS sessions
}}
CALL (uid) {{
  OPTIONAL MATCH (x:Summary {{user_id: uid}})
  RETURN collect(x {{.summary_id, .due_id, .status, .attempts}}) AS summaries
}}
OPTIONAL MATCH (u:User {{user_id: uid}})
RETURN uid, memories, episodes, sessions, summaries,
       {_PROFILE_FIELDS}
"""

# A person's state held to some memories: those memories, and the profile's progress (a decision
# may make a new profile version due whatever the command was).
_LOAD_NAMED = f"""
UNWIND $people AS person
CALL (person) {{
  OPTIONAL MATCH (m:Memory) WHERE m.memory_id IN person.ids AND m.user_id = person.uid
  RETURN collect({_MEMORY_FIELDS}) AS memories
}}
WITH person.uid AS uid, memories
OPTIONAL MATCH (u:User {{user_id: uid}})
RETURN uid, memories, {_PROFILE_FIELDS}
"""


class GraphDecisionReads:
    """People's decision state and the outcomes of their commands, as the graph holds them."""

    def __init__(self, driver: Driver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database
        self._outcomes = OutcomeQueries(driver, database)

    def states(self, user_ids: Collection[str]) -> dict[str, UserState]:
        records, _, _ = self.driver.execute_query(_LOAD, user_ids=list(user_ids), database_=self.database)
        states = {r["uid"]: _state(r["uid"], r["memories"], r["episodes"], r["sessions"]) for r in records}
        for r in records:
            _layers(states[r["uid"]], r["summaries"], r["profile"])
        return states

    def memory_states(self, named: Mapping[str, Collection[str]]) -> dict[str, UserState]:
        people = [{"uid": u, "ids": sorted(ids)} for u, ids in named.items()]
        records, _, _ = self.driver.execute_query(_LOAD_NAMED, people=people, database_=self.database)
        states = {r["uid"]: _state(r["uid"], r["memories"], [], []) for r in records}
        for r in records:
            _layers(states[r["uid"]], [], r["profile"])
        return states

    def outcomes(self, refs: Collection[CommandRef]) -> dict[CommandRef, CommandOutcome]:
        return self._outcomes.outcomes(refs)

    def command_keys(self, user_id: str) -> list[str]:
        records, _, _ = self.driver.execute_query(
            "MATCH (a:AppliedCommand {user_id: $user_id}) RETURN a.key AS key", user_id=user_id,
            database_=self.database)
        return [r["key"] for r in records]


def _refs(refs: list[str] | None) -> tuple[MessageRef, ...]:
    """`episode_id#position`, as the projection keeps message references, back to references."""
    return tuple(MessageRef(episode_id=ref.rpartition("#")[0], position=int(ref.rpartition("#")[2]))
                 for ref in refs or [])


def _state(user_id: str, memories: list[dict], episodes: list[dict],  # type: ignore[type-arg]
           sessions: list[dict]) -> UserState:  # type: ignore[type-arg]
    state = UserState(user_id)
    for row in sorted(memories, key=lambda m: m["log_position"]):
        state.remember(MemoryState(
            memory_id=row["memory_id"],
            kind=MemoryKind(row["kind"]),
            content_key=normalized(row["content"]),
            slot=slot_key(row["attribute"]),
            value_key=normalized(row["value"] or row["content"]),
            valid_from=instant(row["valid_from"]),
            valid_until=instant(row["valid_until"]),
            confidence=row["confidence"],
            sequence=state.next_sequence(),
            superseded_by=row["superseded_by"],
            forgotten=row["status"] == "forgotten",
            importance=row["importance"] if row["importance"] is not None else 0.5,
            asserted=row["asserted"] is not False,
            merged_into=row["merged_into"],
            compressed_into=row["compressed_into"],
            completed=row["completed"],
            messages={(r.episode_id, r.position) for r in _refs(row["messages"])},
        ))
    state.episodes.update((e["episode_id"], (e["session_id"], e["message_count"])) for e in episodes)
    state.expired.update(e["episode_id"] for e in episodes if e["expired_at"] is not None)
    for s in sessions:
        state.sessions[s["session_id"]] = SessionProgress(
            s["messages"], s["pending_turns"], _refs(s["pending"]), _refs(s["recent"]), bool(s["ended"]))
    return state


def _layers(state: UserState, summaries: list[dict], profile: dict | None) -> None:  # type: ignore[type-arg]
    for x in summaries:
        state.summaries[x["summary_id"]] = SummaryProgress(x["due_id"], x["status"], x["attempts"] or 0)
    if profile:
        state.profile = ProfileProgress(version=profile["profile_version"] or 0,
                                        due=bool(profile["profile_due"]),
                                        revised_at=instant(profile["profile_revised_at"]),
                                        summaries_since=profile["profile_summaries_since"] or 0,
                                        changes=profile["profile_changes"] or 0)
        state.settings = UserSettings(profile["episode_retention_days"],
                                      tuple(MemoryKind(k) for k in profile["pinned_kinds"] or ()))
