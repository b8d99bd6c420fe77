"""What a maintenance run reads: people, their active memories with their use, their episodes
past expiry, its own reports; and the lease that lets one run go at a time across processes."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from domain.lifecycle.maintenance import MemoryUse
from domain.model import MemoryKind
from projections.reads import GraphQueries


@dataclass(frozen=True)
class PersonInputs:
    user_id: str
    memories: list[MemoryUse] = field(default_factory=list)
    pinned: tuple[MemoryKind, ...] = ()
    expiring: list[str] = field(default_factory=list)


_PEOPLE = """
MATCH (u:User) WHERE ($after IS NULL OR u.user_id > $after) AND ($only IS NULL OR u.user_id = $only)
RETURN u.user_id AS user_id ORDER BY user_id LIMIT $limit
"""

_INPUTS = """
UNWIND $user_ids AS uid
MATCH (u:User {user_id: uid})
CALL (uid) {
  OPTIONAL MATCH (m:Memory {user_id: uid}) WHERE m.status = 'active'
  RETURN collect(m {.memory_id, .kind, .content, .importance, .confidence, .access_count, .slot, .value,
                    occurred_at: m.occurred_at.epochMillis, last_used_at: m.last_used_at.epochMillis,
                    demoted_for: m.decayed_for.epochMillis,
                    valid_from: m.valid_from.epochMillis, valid_until: m.valid_until.epochMillis,
                    completed: m.completed_at IS NOT NULL}) AS memories
}
CALL (uid) {
  OPTIONAL MATCH (ep:Episode {user_id: uid})
  WHERE ep.expires_at <= datetime($as_of) AND ep.expired_at IS NULL
  RETURN collect(ep.episode_id) AS expiring
}
RETURN uid, memories, expiring, u.pinned_kinds AS pinned
"""

_PEOPLE_COUNT = "MATCH (u:User) WHERE $only IS NULL OR u.user_id = $only RETURN count(u) AS n"

_RUNS = """
MATCH (r:MaintenanceRun) WHERE $run_id IS NULL OR r.run_id = $run_id
RETURN r {.*} AS run ORDER BY r.started_at DESC LIMIT $limit
"""

# The write lock is taken first (SET) so that the holder read after it is the committed one: two
# processes asking at once cannot both see the lease free.
_TAKE = """
MERGE (l:Lease {name: $name})
SET l.taken = coalesce(l.taken, 0)
WITH l WHERE l.holder IS NULL OR l.holder = $holder OR l.until < datetime($now)
SET l.holder = $holder, l.until = datetime($until), l.taken = l.taken + 1
RETURN count(l) AS taken
"""

_RELEASE = """
MATCH (l:Lease {name: $name, holder: $holder})
SET l.holder = null, l.until = null
"""


# Times travel as epoch milliseconds: the driver's own temporal values cost ~100 µs each, which
# bounded a run at a few thousand memories a second.
def _native(millis: int | None) -> datetime | None:
    return datetime.fromtimestamp(millis / 1000, tz=UTC) if millis is not None else None


def _use(row: dict[str, Any]) -> MemoryUse:
    return MemoryUse(
        memory_id=row["memory_id"], kind=MemoryKind(row["kind"]), content=row["content"],
        importance=row["importance"] if row["importance"] is not None else 0.5,
        confidence=row["confidence"] if row["confidence"] is not None else 1.0,
        recorded_at=_native(row["occurred_at"]) or datetime.fromtimestamp(0, tz=UTC),
        access_count=row["access_count"] or 0,
        last_used_at=_native(row["last_used_at"]), demoted_for=_native(row["demoted_for"]),
        slot=row["slot"], value=row["value"],
        valid_from=_native(row["valid_from"]), valid_until=_native(row["valid_until"]),
        completed=row["completed"])


class MaintenanceQueries(GraphQueries):
    def people(self, after: str | None, limit: int, only: str | None = None) -> list[str]:
        return [r["user_id"] for r in self._run(_PEOPLE, after=after, limit=limit, only=only)]

    def people_count(self, only: str | None = None) -> int:
        return int(self._run(_PEOPLE_COUNT, only=only)[0]["n"])

    def inputs(self, user_ids: Collection[str], as_of: datetime) -> list[PersonInputs]:
        records = self._run(_INPUTS, user_ids=list(user_ids), as_of=as_of.isoformat())
        return [PersonInputs(r["uid"], [_use(m) for m in r["memories"]],
                             tuple(MemoryKind(k) for k in r["pinned"] or ()), list(r["expiring"]))
                for r in records]

    def runs(self, limit: int = 20, run_id: str | None = None) -> list[dict[str, Any]]:
        return [dict(r["run"]) for r in self._run(_RUNS, limit=limit, run_id=run_id)]

    def take_lease(self, name: str, holder: str, now: datetime, until: datetime) -> bool:
        (record,) = self._run(_TAKE, name=name, holder=holder, now=now.isoformat(), until=until.isoformat())
        return bool(record["taken"])

    def release_lease(self, name: str, holder: str) -> None:
        self._run(_RELEASE, name=name, holder=holder)
