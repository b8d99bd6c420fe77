"""What the layers process and the API read of summaries and profiles.

A SummaryDue makes a `(:Summary {status: 'due'})`; the SessionSummarized that answers it makes it
done, skipped, or fallback (the offline summary standing in for a model that failed, tried again).
A ProfileDue marks the `(:User)` (`profile_due`); each ProfileRevised is a `(:Profile)` version.
All come from the log: pending work survives a crash and a rebuild alike.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.commands import Message, MessageRef
from domain.layers.model import BasicInfo, SessionSummary
from domain.layers.profile import ALONG_THE_WAY, Brief, Known, ProfileInputs, SlotValue
from projections.extraction import parse_ref
from projections.instants import instant
from projections.reads import GraphQueries

_DUE_SUMMARIES = """
MATCH (s:Summary)
WHERE s.status IN $statuses AND (s.status = 'due' OR coalesce(s.attempts, 0) < $attempts)
  AND ($partitions IS NULL OR s.partition IN $partitions) AND NOT s.summary_id IN $later
RETURN s.summary_id AS summary_id, s.due_id AS due_id, s.user_id AS user_id, s.session_id AS session_id,
       s.partition AS partition, s.status AS status, coalesce(s.attempts, 0) AS attempts,
       toString(s.due_since) AS due_since
ORDER BY s.due_since, s.log_position
LIMIT $limit
"""

# What a summary may say: the session's turns, but those whose words expired or that the person hid
# by forgetting what was taken from them.
_SESSION_MESSAGES = """
MATCH (ep:Episode {user_id: $user_id, session_id: $session_id})-[:HAS_MESSAGE]->(x:Message)
WHERE x.content IS NOT NULL AND x.hidden_by IS NULL
RETURN ep.episode_id AS episode_id, x.position AS position, x.role AS role, x.content AS content,
       toString(x.occurred_at) AS occurred_at
ORDER BY ep.occurred_at, ep.episode_id, x.position
LIMIT $limit
"""

_DUE_PROFILES = """
MATCH (u:User {profile_due: true})
WHERE ($partitions IS NULL OR u.profile_partition IN $partitions) AND NOT u.user_id IN $later
RETURN u.user_id AS user_id, coalesce(u.profile_version, 0) AS version, u.profile_due_reason AS reason,
       u.profile_partition AS partition, toString(u.profile_due_since) AS since,
       coalesce(u.profile_changes, 0) AS changes
ORDER BY u.profile_due_since
LIMIT $limit
"""

_PROFILE_INPUTS = """
MATCH (u:User {user_id: $user_id})
OPTIONAL MATCH (u)-[:HAS_PROFILE]->(p:Profile {version: u.profile_version})
CALL (u) {
  OPTIONAL MATCH (m:Memory {user_id: u.user_id})
  WHERE m.slot IS NOT NULL AND m.status IN ['active', 'superseded']
  RETURN collect(m {.attribute, .value, .content, .valid_from, .valid_until}) AS slots
}
CALL (u) {
  OPTIONAL MATCH (m:Memory {user_id: u.user_id}) WHERE m.slot IS NULL AND m.status = 'active'
    AND (m.valid_until IS NULL OR m.valid_until > datetime())
  RETURN collect(m {.kind, .content, .importance}) AS memories
}
CALL (u) {
  OPTIONAL MATCH (m:Memory {user_id: u.user_id})
  WHERE m.slot IS NOT NULL AND m.status IN ['forgotten', 'purged'] AND m.attribute IS NOT NULL
    AND NOT EXISTS { MATCH (k:Memory {user_id: u.user_id, slot: m.slot})
                     WHERE k.status IN ['active', 'superseded'] }
  RETURN collect(DISTINCT m.attribute) AS forgotten
}
CALL (u) {
  OPTIONAL MATCH (s:Summary {user_id: u.user_id}) WHERE s.summary IS NOT NULL
  WITH s ORDER BY s.said_until DESC LIMIT $summaries
  RETURN collect(s {.summary_id, .summary, .topics, .unresolved, .said_until, .key_facts}) AS summaries
}
RETURN coalesce(u.profile_version, 0) AS version, p.narrative AS narrative, p.basic_keys AS keys,
       p.basic_values AS values, coalesce(u.profile_summaries_since, 0) AS new_summaries,
       slots, memories, summaries, forgotten
"""

_SUMMARIES = """
MATCH (s:Summary {user_id: $user_id}) WHERE s.summary IS NOT NULL
WITH s ORDER BY s.said_until DESC, s.summary_id SKIP $offset LIMIT $limit
RETURN s {.summary_id, .session_id, .summary, .topics, .user_intent, .emotional_tone, .key_facts,
          .unresolved, .summarizer, .fallback, .failure, .status, .window} AS s,
       toString(s.summarized_at) AS summarized_at, toString(s.said_until) AS said_until
"""

# The current version is withheld while a new one is due because the person forgot something it
# may say; a version asked for by number is shown.
_PROFILE = """
MATCH (p:Profile {user_id: $user_id})
WHERE ($version IS NULL OR p.version = $version)
  AND ($version IS NOT NULL OR NOT EXISTS { MATCH (:User {user_id: $user_id, profile_withheld: true}) })
WITH p ORDER BY p.version DESC LIMIT $limit
RETURN p {.version, .narrative, .basic_keys, .basic_values, .writer, .reason, .summaries, .failure} AS p,
       toString(p.revised_at) AS revised_at
"""

_PROFILE_AT = """
MATCH (p:Profile {user_id: $user_id}) WHERE p.revised_at <= datetime($at)
RETURN p.version AS version ORDER BY p.version DESC LIMIT 1
"""


@dataclass(frozen=True)
class DueSummary:
    summary_id: str
    due_id: str
    user_id: str
    session_id: str
    partition: int | None
    status: str  # due, or fallback (a model failed before: tried again)
    attempts: int
    due_since: datetime


@dataclass(frozen=True)
class DueProfile:
    user_id: str
    version: int  # the version now; the one to write is the next
    reason: str
    partition: int | None
    since: str  # when it became due: with the version, names the answer
    changes: int  # the person's changes so far, which the version will have been written after


@dataclass(frozen=True)
class SummaryView:
    summary_id: str
    session_id: str
    summary: SessionSummary
    summarizer: str
    fallback: bool
    failure: str | None
    pending: bool  # a newer one is being made (the session went on)
    summarized_at: datetime
    said_until: datetime
    window: tuple[MessageRef, ...]


@dataclass(frozen=True)
class ProfileView:
    version: int
    narrative: str
    basic_info: tuple[BasicInfo, ...]
    writer: str
    reason: str
    summaries: tuple[str, ...]
    failure: str | None
    revised_at: datetime


def _native(value: Any) -> datetime | None:
    return value.to_native() if value is not None else None


class LayerQueries(GraphQueries):
    def due_summaries(
        self,
        partitions: Collection[int] | None,
        limit: int = 20,
        *,
        retry: bool = False,
        attempts: int = 5,
        later: Collection[str] = (),
    ) -> list[DueSummary]:
        """The oldest summaries to make: those due and, with `retry`, the fallbacks of fewer than
        `attempts` tries, but the ones to be tried `later` (ids)."""
        return [
            DueSummary(
                r["summary_id"],
                r["due_id"],
                r["user_id"],
                r["session_id"],
                r["partition"],
                r["status"],
                r["attempts"],
                instant(r["due_since"]),
            )
            for r in self._run(
                _DUE_SUMMARIES,
                partitions=None if partitions is None else list(partitions),
                limit=limit,
                statuses=["due", "fallback"] if retry else ["due"],
                attempts=attempts,
                later=list(later),
            )
        ]

    def session_messages(
        self, user_id: str, session_id: str, limit: int = 1000
    ) -> list[tuple[MessageRef, Message]]:
        """The session's messages in the order they were said (its episodes by time)."""
        return [
            (
                MessageRef(episode_id=r["episode_id"], position=r["position"]),
                Message(
                    role=r["role"], content=r["content"], timestamp=instant(r["occurred_at"])
                ),
            )
            for r in self._run(_SESSION_MESSAGES, user_id=user_id, session_id=session_id, limit=limit)
        ]

    def due_profiles(
        self, partitions: Collection[int] | None, limit: int = 20, later: Collection[str] = ()
    ) -> list[DueProfile]:
        return [
            DueProfile(
                r["user_id"], r["version"], r["reason"] or "", r["partition"], r["since"] or "", r["changes"]
            )
            for r in self._run(
                _DUE_PROFILES,
                partitions=None if partitions is None else list(partitions),
                limit=limit,
                later=list(later),
            )
        ]

    def profile_inputs(
        self, user_id: str, summaries: int = ALONG_THE_WAY
    ) -> tuple[ProfileInputs, tuple[str, ...]]:
        """What the next version is written from, and the ids of the summaries it reads."""
        rows = self._run(_PROFILE_INPUTS, user_id=user_id, summaries=summaries)
        if not rows:
            return ProfileInputs(), ()
        r = rows[0]
        briefs = [
            (
                s["summary_id"],
                Brief(
                    s["summary"],
                    tuple(s["topics"] or ()),
                    s["unresolved"],
                    s["said_until"].to_native(),
                    tuple(s["key_facts"] or ()),
                ),
            )
            for s in r["summaries"]
        ]
        inputs = ProfileInputs(
            version=r["version"],
            narrative=r["narrative"] or "",
            basic_info=tuple(
                BasicInfo(key=k, value=v) for k, v in zip(r["keys"] or [], r["values"] or [], strict=False)
            ),
            slots=tuple(
                SlotValue(
                    m["attribute"],
                    m["value"] or m["content"],
                    m["valid_from"].to_native(),
                    _native(m["valid_until"]),
                )
                for m in r["slots"]
                if m["attribute"]
            ),
            memories=tuple(Known(m["kind"], m["content"], m["importance"] or 0.5) for m in r["memories"]),
            summaries=tuple(b for _, b in briefs),
            new_summaries=r["new_summaries"],
            forgotten=tuple(r["forgotten"]),
        )
        return inputs, tuple(i for i, _ in briefs[: max(r["new_summaries"], 1)])

    def summaries(self, user_id: str, limit: int = 20, offset: int = 0) -> list[SummaryView]:
        """The person's session summaries, newest first."""
        out = []
        for r in self._run(_SUMMARIES, user_id=user_id, limit=limit, offset=offset):
            s = r["s"]
            made = SessionSummary(
                summary=s["summary"],
                topics=tuple(s["topics"] or ()),
                user_intent=s["user_intent"],
                emotional_tone=s["emotional_tone"],
                key_facts=tuple(s["key_facts"] or ()),
                unresolved=s["unresolved"],
            )
            out.append(
                SummaryView(
                    s["summary_id"],
                    s["session_id"],
                    made,
                    s["summarizer"],
                    bool(s["fallback"]),
                    s["failure"],
                    s["status"] == "due",
                    instant(r["summarized_at"]),
                    instant(r["said_until"]),
                    tuple(parse_ref(x) for x in s["window"] or []),
                )
            )
        return out

    def profiles(self, user_id: str, version: int | None = None, limit: int = 1) -> list[ProfileView]:
        """The person's profile versions, newest first (`version`: that one only)."""
        return [
            ProfileView(
                p["version"],
                p["narrative"],
                tuple(
                    BasicInfo(key=k, value=v)
                    for k, v in zip(p["basic_keys"] or [], p["basic_values"] or [], strict=False)
                ),
                p["writer"],
                p["reason"] or "",
                tuple(p["summaries"] or ()),
                p["failure"],
                instant(r["revised_at"]),
            )
            for r in self._run(_PROFILE, user_id=user_id, version=version, limit=limit)
            for p in [r["p"]]
        ]

    def profile_version_at(self, user_id: str, at: datetime) -> int | None:
        """The version Lore held at `at` (transaction time), if any."""
        rows = self._run(_PROFILE_AT, user_id=user_id, at=at.isoformat())
        return rows[0]["version"] if rows else None
