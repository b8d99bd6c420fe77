"""The to-dos whose reminder time has come: open, not forgotten, reminded in a window of time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from projections.reads import GraphQueries


@dataclass(frozen=True)
class TodoDue:
    user_id: str
    memory_id: str
    content: str
    due_at: datetime | None
    remind_at: datetime


_DUE = """
MATCH (m:Todo)
WHERE m.remind_at > datetime($since) AND m.remind_at <= datetime($until)
  AND m.status = 'active' AND m.completed_at IS NULL
RETURN m.user_id AS user_id, m.memory_id AS memory_id, m.content AS content, m.due_at AS due_at,
       m.remind_at AS remind_at
ORDER BY remind_at, memory_id LIMIT $limit
"""


class ReminderQueries(GraphQueries):
    def due(self, since: datetime, until: datetime, limit: int = 10_000) -> list[TodoDue]:
        return [TodoDue(r["user_id"], r["memory_id"], r["content"],
                        r["due_at"].to_native() if r["due_at"] else None, r["remind_at"].to_native())
                for r in self._run(_DUE, since=since.isoformat(), until=until.isoformat(), limit=limit)]
