"""Everything Lore holds about one person, read page by page: what an export streams.

Memories come with their windows and their history (what superseded them, when they were
forgotten and restored, what they merged), episodes with their turns, then session summaries and
the profile's versions. Each page is read by key (after the last id of the page before), so a
person with 100,000 memories is never held in memory at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from neo4j import Driver

_MEMORIES = """
MATCH (m:Memory {user_id: $user_id}) WHERE m.memory_id > $after
WITH m ORDER BY m.memory_id LIMIT $page
RETURN m.memory_id AS key, m {.memory_id, .kind, .category, .content, .attribute, .value, .status,
       .valid_from, .valid_until, .stated_valid_until, .recorded_at, .importance, .confidence, .source,
       .decided_by, .asserted, .due_at, .remind_at, .completed_at, .superseded_by, .merged_into,
       .merged_from, .messages,
       .forgotten_at, .restored_at, .forgotten_reason, .access_count, .cited_count,
       .last_used_at, .last_cited_at,
       entities: [(m)-[:ABOUT]->(e:Entity) | e.name]} AS item
"""

_EPISODES = """
MATCH (ep:Episode {user_id: $user_id}) WHERE ep.key > $after
WITH ep ORDER BY ep.key LIMIT $page
CALL (ep) {
  OPTIONAL MATCH (ep)-[:HAS_MESSAGE]->(x:Message) WHERE ep.expired_at IS NULL
  WITH x ORDER BY x.position
  RETURN collect(x {.position, .role, .content, .occurred_at}) AS messages
}
RETURN ep.key AS key, ep {.episode_id, .session_id, .occurred_at, .recorded_at, .expires_at, .expired_at,
                           messages: messages} AS item
"""

_SUMMARIES = """
MATCH (s:Summary {user_id: $user_id}) WHERE s.summary IS NOT NULL AND s.summary_id > $after
WITH s ORDER BY s.summary_id LIMIT $page
RETURN s.summary_id AS key, s {.summary_id, .session_id, .summary, .topics, .user_intent, .emotional_tone,
       .key_facts, .unresolved, .summarizer, .fallback, .said_until, .summarized_at, .window} AS item
"""

_PROFILES = """
MATCH (p:Profile {user_id: $user_id}) WHERE p.key > $after
WITH p ORDER BY p.key LIMIT $page
RETURN p.key AS key, p {.version, .narrative, .basic_keys, .basic_values, .writer, .reason, .revised_at}
       AS item
"""

SECTIONS = (("memory", _MEMORIES), ("episode", _EPISODES), ("summary", _SUMMARIES), ("profile", _PROFILES))


def _plain(value: Any) -> Any:
    if hasattr(value, "to_native"):
        value = value.to_native()
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    return value


class ExportQueries:
    def __init__(self, driver: Driver, database: str = "neo4j", page: int = 1000) -> None:
        self.driver = driver
        self.database = database
        self.page = page

    def items(self, user_id: str) -> Iterator[dict[str, Any]]:
        """Every item of the person's, a page at a time: {"type": ..., **fields}."""
        for kind, query in SECTIONS:
            after = ""
            while True:
                records, _, _ = self.driver.execute_query(query, user_id=user_id, after=after, page=self.page,
                                                          database_=self.database, routing_="r")
                for record in records:
                    yield {"type": kind, **_plain(record["item"])}
                if len(records) < self.page:
                    break
                after = records[-1]["key"]
