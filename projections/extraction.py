"""What the extraction process reads: the extractions due (the projection is its durable queue),
the messages they cover, the person's memories close to a candidate, and what extractions cost.

An ExtractionDue makes an `(:Extraction {status: 'due'})` node; the MemoriesExtracted that answers
it makes it `done`. Both come from the log, so pending work survives a crash and a rebuild alike.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.commands import Message, MessageRef, Similar
from domain.model import message_id
from projections.instants import instant
from projections.parameters import Counted, QueryVector
from projections.reads import GraphQueries

_DUE = """
MATCH (x:Extraction {status: 'due'})
WHERE ($partitions IS NULL OR x.partition IN $partitions) AND NOT x.user_id IN $waiting
  AND NOT x.extraction_id IN $later
RETURN x.extraction_id AS extraction_id, x.user_id AS user_id, x.session_id AS session_id,
       x.window AS window, x.partition AS partition, toString(x.due_since) AS due_since, x.model AS model
ORDER BY x.due_since, x.log_position
LIMIT $limit
"""

_MESSAGES = """
UNWIND $ids AS id
OPTIONAL MATCH (x:Message {message_id: id, user_id: $user_id})
RETURN id, x.role AS role, CASE WHEN x.hidden_by IS NULL THEN x.content END AS content,
       toString(x.occurred_at) AS occurred_at
"""

# Neo4j's cosine similarity is (1 + cos) / 2; the policy speaks of the cosine itself.
_SIMILAR = """
UNWIND range(0, size($vectors) - 1) AS i
CALL (i) {
  MATCH (m:Memory {user_id: $user_id})
  WHERE m.status = 'active' AND m.embedding IS NOT NULL
  WITH m, 2 * vector.similarity.cosine(m.embedding, $vectors[i]) - 1 AS cosine
  WHERE cosine >= $threshold
  RETURN m.memory_id AS memory_id, cosine ORDER BY cosine DESC LIMIT $limit
}
RETURN i, collect({memory_id: memory_id, cosine: cosine}) AS similar
"""

_SHOWN = """
UNWIND $ids AS id
MATCH (m:Memory {memory_id: id, user_id: $user_id})
RETURN m.memory_id AS memory_id, m.kind AS kind, m.content AS content, m.attribute AS attribute,
       toString(m.valid_from) AS valid_from
"""

_ONE = """
MATCH (x:Extraction {extraction_id: $extraction_id, user_id: $user_id})
RETURN x.status AS status, x.trigger AS trigger, x.extractor AS extractor, x.skipped AS skipped,
       x.candidates AS candidates, x.verdicts AS verdicts, x.prompt_tokens AS prompt_tokens,
       x.completion_tokens AS completion_tokens
"""

_TOKENS_SINCE = """
MATCH (x:Extraction {status: 'done'})
WHERE ($user_id IS NULL OR x.user_id = $user_id) AND x.done_at >= datetime($since)
RETURN sum(coalesce(x.prompt_tokens, 0) + coalesce(x.completion_tokens, 0)) AS tokens
"""

_EPISODES_SINCE = """
MATCH (ep:Episode)
WHERE ep.occurred_at >= datetime($since) AND ($user_id IS NULL OR ep.user_id = $user_id)
RETURN ep.user_id AS user_id, ep.episode_id AS episode_id
ORDER BY ep.occurred_at, ep.user_id, ep.episode_id
"""

_USAGE = """
MATCH (x:Extraction)
WHERE $user_id IS NULL OR x.user_id = $user_id
RETURN x.status AS status, count(*) AS extractions, sum(coalesce(x.prompt_tokens, 0)) AS prompt_tokens,
       sum(coalesce(x.completion_tokens, 0)) AS completion_tokens
"""


@dataclass(frozen=True)
class DueExtraction:
    extraction_id: str
    user_id: str
    session_id: str
    window: tuple[MessageRef, ...]
    partition: int | None
    due_since: datetime
    model: str | None = None     # a model asked for by name (a re-extraction), else the deployment's


@dataclass(frozen=True)
class MemoryShown:
    """A memory as a model judging a candidate against it is shown it."""

    memory_id: str
    kind: str
    content: str
    attribute: str | None
    valid_from: str


@dataclass(frozen=True)
class ExtractionView:
    status: str                      # due | done
    trigger: str | None
    extractor: str | None
    skipped: str | None
    candidates: int
    verdicts: list[str]
    prompt_tokens: int
    completion_tokens: int


def parse_ref(ref: str) -> MessageRef:
    episode_id, _, position = ref.rpartition("#")
    return MessageRef(episode_id=episode_id, position=int(position))


class ExtractionQueries(GraphQueries):
    def due(self, partitions: Collection[int] | None, limit: int = 20,
            waiting: Collection[str] = (), later: Collection[str] = ()) -> list[DueExtraction]:
        """The oldest extractions not done yet (of `partitions`, None: all), but those of the
        people `waiting` (e.g. for their token budget) and those to be tried `later` (ids), so
        that they hold up no one else."""
        return [DueExtraction(r["extraction_id"], r["user_id"], r["session_id"],
                              tuple(parse_ref(ref) for ref in r["window"] or []), r["partition"],
                              instant(r["due_since"]), r["model"])
                for r in self._run(_DUE, partitions=None if partitions is None else list(partitions),
                                   limit=limit, waiting=list(waiting), later=list(later))]

    def messages(self, user_id: str, refs: Sequence[MessageRef]) -> list[Message | None]:
        """The messages, in the order asked; None where one is not in the graph (erased, or not yet),
        or its words are not to be read again (expired, or hidden: the person forgot what was taken
        from it, which extraction must not learn anew)."""
        ids = [message_id(user_id, ref.episode_id, ref.position) for ref in refs]
        found = {r["id"]: r for r in self._run(_MESSAGES, ids=ids, user_id=user_id)}
        return [Message(role=found[i]["role"], content=found[i]["content"],
                        timestamp=instant(found[i]["occurred_at"]))
                if found.get(i) and found[i]["content"] is not None else None for i in ids]

    def similar(self, user_id: str, vectors: Sequence[Sequence[float]], threshold: float,
                limit: int = 5) -> list[tuple[Similar, ...]]:
        """Per vector, the person's active memories with a cosine of at least `threshold`, closest first."""
        if not vectors:
            return []
        records = self._run(_SIMILAR, user_id=user_id, vectors=Counted(QueryVector(v) for v in vectors),
                            threshold=threshold, limit=limit)
        rows = {r["i"]: r["similar"] for r in records}
        return [tuple(Similar(memory_id=s["memory_id"], cosine=max(-1.0, min(1.0, s["cosine"])))
                      for s in rows.get(i, []) if s["memory_id"] is not None)
                for i in range(len(vectors))]

    def shown(self, user_id: str, ids: Collection[str]) -> dict[str, MemoryShown]:
        """The person's memories of `ids`, as a model is shown them."""
        return {r["memory_id"]: MemoryShown(r["memory_id"], r["kind"], r["content"], r["attribute"],
                                            (r["valid_from"] or "")[:10])
                for r in self._run(_SHOWN, user_id=user_id, ids=sorted(ids))}

    def extraction(self, user_id: str, extraction_id: str) -> ExtractionView | None:
        rows = self._run(_ONE, user_id=user_id, extraction_id=extraction_id)
        if not rows:
            return None
        r = rows[0]
        return ExtractionView(r["status"], r["trigger"], r["extractor"], r["skipped"], r["candidates"] or 0,
                              list(r["verdicts"] or []), r["prompt_tokens"] or 0, r["completion_tokens"] or 0)

    def tokens_since(self, user_id: str | None, since: datetime) -> int:
        """The tokens extractions spent since `since`: of one person, or everyone's (None)."""
        rows = self._run(_TOKENS_SINCE, user_id=user_id, since=since.isoformat())
        return int(rows[0]["tokens"] or 0) if rows else 0

    def episodes_since(self, since: datetime, user_id: str | None = None) -> list[tuple[str, str]]:
        """(person, episode) of the episodes that happened since `since`, oldest first."""
        return [(r["user_id"], r["episode_id"])
                for r in self._run(_EPISODES_SINCE, since=since.isoformat(), user_id=user_id)]

    def usage(self, user_id: str | None = None) -> dict[str, dict[str, int]]:
        """Extractions and their tokens, by status (due, done)."""
        return {r["status"]: {"extractions": r["extractions"], "prompt_tokens": r["prompt_tokens"],
                              "completion_tokens": r["completion_tokens"]}
                for r in self._run(_USAGE, user_id=user_id)}
