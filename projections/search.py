"""The candidate sources of hybrid search, each held to one person and a moment in time.

- vector: the HNSW index (over-fetched, then held to the person); for a person with few
  memories an exact scan of theirs alone is both cheaper and exact. Never a scan of everyone.

Every source keeps to the window (true at `valid_at`, as known at `known_at`) before it cuts
its list: the index sources widen until they hold enough of the person's nodes in the window,
or fall back to reading all of them, so that a search as of any time finds what a list as of
that time holds.
- text: Lucene BM25 in the fulltext indexes; the person's `user_key` is part of the query, so
  the index itself returns only their nodes. User text is reduced to escaped words.
- graph: memories about the entities a query names, and memories about the same entities as
  the best hits.

Memories, conversation turns (Message nodes) and session summaries are searched side by side; a
person has few summaries, so theirs are scanned exactly. The graph source leaves summaries and
turns out: the turns around a turn are already read with it by the text source (its `context`),
and adding them again as a third list pushed better hits out of the top 10 (bench/README).
"""

from __future__ import annotations

import functools
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from neo4j import Driver

from domain.text import analyzer
from domain.text.chinese import named_share
from projections.bm25 import FUNCTION_WORDS, STOP_WORDS, rescore
from projections.graph.schema import (
    ENTITY_FULLTEXT,
    MEMORY_FULLTEXT,
    MEMORY_FULLTEXT_CJK,
    MEMORY_WORDS_ZH,
    MESSAGE_FULLTEXT,
    MESSAGE_FULLTEXT_CJK,
    MESSAGE_VECTOR_INDEX,
    MESSAGE_WORDS_ZH,
    SUMMARY_FULLTEXT,
    SUMMARY_WORDS_ZH,
    VECTOR_INDEX,
    holds_vectors_of,
    other_embedding_models,
    vector_index_filters,
)
from projections.instants import parsed
from projections.keys import CJK_IN, has_cjk, user_key, without_cjk
from projections.parameters import QueryVector
from projections.temporal import AS_OF, as_of, pick

ItemType = Literal["memory", "message", "summary"]
_WORD = re.compile(r"\w+", re.UNICODE)
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_OPERATORS = {"AND", "OR", "NOT", "TO"}
# Lucene refuses a query of more than 1,024 clauses; a query keeps this many of its words.
MAX_QUERY_CLAUSES = 128
MAX_CJK_WORD = 32
_WORDS_ZH: dict[str, str] = {"memory": MEMORY_WORDS_ZH, "message": MESSAGE_WORDS_ZH,
                             "summary": SUMMARY_WORDS_ZH}


@dataclass(frozen=True)
class Window:
    """Which memories a search may see: true at `valid_at`, as known at `known_at` (None: now)."""

    valid_at: datetime | None
    known_at: datetime | None
    include_history: bool = False
    kinds: tuple[str, ...] = ()

    def params(self) -> dict[str, Any]:
        return {"valid_at": None if self.include_history else self.valid_at, "known_at": self.known_at,
                "kinds": list(self.kinds) or None}


@dataclass(frozen=True)
class Pool:
    """Lucene's first `fetch` hits for one ask: [id, the text BM25 reads, Lucene's score] each."""

    hits: list[list[Any]]
    fetch: int


@dataclass(frozen=True)
class TextAsk:
    """How the text source looks for one wording among one kind of a person's nodes."""

    kind: ItemType
    index: str
    lucene: str
    asked: str  # what BM25 weighs: the query, or its telling words when it had to be cut
    chinese: bool  # a Chinese store's word index, read by its words
    lucene_scores: bool  # Lucene's bigram scores kept (CJK in an English store)


@dataclass
class Candidate:
    type: ItemType
    id: str
    score: float
    fields: dict[str, Any] = field(default_factory=dict)


def query_words(text: str, budget: int = MAX_QUERY_CLAUSES) -> list[str]:
    """The distinct words a search looks for, lower-cased, without stop words, function words
    (unless it holds nothing else) or Lucene's operators.

    A long text (a pasted page as a message) is cut to its most telling words, so that the
    query stays within Lucene's clause limit: words said more often first, then longer ones
    (a long word is a rare word), kept in the order they were said. A word in Chinese, Japanese
    or Korean is searched by its bigrams, a clause each, and cut to `MAX_CJK_WORD` characters."""
    spoken = [w.lower() for w in _WORD.findall(text)
              if (w.upper() not in _OPERATORS or w.islower()) and w.lower() not in STOP_WORDS]
    # Function words are looked for only when the query holds nothing else (see bm25.py).
    counts = Counter(w for w in spoken if w not in FUNCTION_WORDS) or Counter(spoken)
    words = [w[:MAX_CJK_WORD] if has_cjk(w) else w for w in counts]
    clauses = {w: max(len(w) - 1, 1) if has_cjk(w) else 1 for w in words}
    if sum(clauses.values()) > budget:
        said = {w: n for n, w in zip(counts.values(), words, strict=True)}
        kept: set[str] = set()
        used = 0
        for word in sorted(words, key=lambda w: (-said[w], -len(w))):  # stable: ties in the order said
            if used + clauses[word] <= budget:
                kept.add(word)
                used += clauses[word]
        words = [w for w in words if w in kept]
    return words


def chinese_query_words(text: str, budget: int = MAX_QUERY_CLAUSES) -> list[str]:
    """The distinct words a search of a Chinese store looks for in its word indexes: the words
    jieba cuts (Latin ones as English reads them), less the function words of both languages
    (unless the query holds nothing else); a long text keeps its most telling words, as
    `query_words` does."""
    said = analyzer("query", "zh").words(text) or analyzer("index", "zh").words(text)
    counts = Counter(w for w in said if w.upper() not in _OPERATORS or w.islower())
    words = list(counts)
    if len(words) > budget:
        kept = set(sorted(words, key=lambda w: (-counts[w], -len(w)))[:budget])
        words = [w for w in words if w in kept]
    return words


def lucene_terms(words: list[str]) -> str:
    """Words as a Lucene clause that matches any of them and can do nothing else."""
    return " ".join(_LUCENE_SPECIAL.sub(r"\\\1", w) for w in words)


def _scoped(key_field: str, user_id: str, terms: str) -> str:
    return f"{key_field}:{user_key(user_id)} AND ({terms})"


# Instants travel as ISO text: the driver's own datetime objects cost more Python time to build
# than the rest of a search together (projections/instants.py).
_MEMORY_FIELDS = """
m {.memory_id, .kind, .content, .attribute, .value, .status, .superseded_by, .importance, .confidence,
   .source, .access_count, .cited_count, .messages, valid_from: toString(m.valid_from),
   recorded_at: toString(m.recorded_at), last_cited_at: toString(m.last_cited_at),
   valid_until: toString(until),
   episode_id: [(m)-[:EXTRACTED_FROM]->(ep) | ep.episode_id][0]} AS fields
"""

_MESSAGE_FIELDS = """
x {.message_id, .episode_id, .session_id, .role, .content, .position, .context,
   occurred_at: toString(x.occurred_at), recorded_at: toString(x.recorded_at)} AS fields
"""
_SUMMARY_FIELDS = """
s {.summary_id, .session_id, .content, .summary, .topics, .unresolved, .summarizer,
   occurred_at: toString(s.said_until), recorded_at: toString(s.summarized_at)} AS fields
"""
_INSTANTS = ("valid_from", "recorded_at", "last_cited_at", "valid_until", "occurred_at")

# Messages are moments: one is visible when it had happened by $valid_at and Lore had it by $known_at,
# unless the person forgot what was taken from it (then it is hidden, at any time asked).
_MESSAGE_FILTER = """
WHERE ($valid_at IS NULL OR x.occurred_at <= $valid_at)
  AND ($known_at IS NULL OR x.recorded_at <= $known_at) AND x.hidden_by IS NULL
"""

# A vector is compared only with vectors of the model that made it: while `lore reembed` moves a
# store to another model, the items not moved yet are left out of the vector source (a vector
# recorded before the model was named counts as the store's; no model named: any vector).
_SAME_MODEL = "($model IS NULL OR coalesce({n}.embedding_model, $model) = $model)"

_MEMORY_KIND_FILTER = "  AND ($kinds IS NULL OR m.kind IN $kinds)\nWITH m, score\n"

# A list comes back as one row of maps: the driver reads each row of an answer as a message of
# its own, in Python, and the rows of a search's lists (about 200 of them, the text pool's
# included) cost more of the API's CPU than the rest of the search together (bench/README,
# "One row per list"). `collect` keeps the order the rows came in.
_AS_ONE_ROW = "RETURN collect({id: id, score: score, fields: fields}) AS rows"

# The window filter runs before the cut; the fields are read for the kept few only.
_MEMORY_BEST = f"""
WITH m, score, until ORDER BY score DESC LIMIT $limit
WITH m.memory_id AS id, score, {_MEMORY_FIELDS}
ORDER BY score DESC
{_AS_ONE_ROW}"""

_MESSAGE_BEST = f"""
WITH x, score ORDER BY score DESC LIMIT $limit
WITH x.message_id AS id, score, {_MESSAGE_FIELDS}
ORDER BY score DESC
{_AS_ONE_ROW}"""

# A summary is of a session: visible once the session had ended by $valid_at and Lore had the
# summary by $known_at (a later version of it replaces it in the graph).
_SUMMARY_FILTER = """
WHERE s.summary IS NOT NULL AND ($valid_at IS NULL OR s.said_until <= $valid_at)
  AND ($known_at IS NULL OR s.summarized_at <= $known_at)
"""

_SUMMARY_BEST = f"""
WITH s, score ORDER BY score DESC LIMIT $limit
WITH s.summary_id AS id, score, {_SUMMARY_FIELDS}
ORDER BY score DESC
{_AS_ONE_ROW}"""

SUMMARY_VECTOR_EXACT = f"""
MATCH (s:Summary {{user_id: $user_id}})
WITH s, vector.similarity.cosine(s.embedding, $vector) AS score
{_SUMMARY_FILTER}  AND score IS NOT NULL AND {_SAME_MODEL.format(n="s")}
{_SUMMARY_BEST}"""

SUMMARY_TEXT = f"""
UNWIND $ids AS id
MATCH (s:Summary {{summary_id: id}})
WITH s, $scores[id] AS score WHERE s.user_id = $user_id
WITH s, score
{_SUMMARY_FILTER}
{_SUMMARY_BEST}"""

MEMORY_VECTOR_EXACT = as_of(f"""
MATCH (m:Memory {{user_id: $user_id}})
WHERE $kinds IS NULL OR m.kind IN $kinds
WITH m
{AS_OF}
WITH m, until, vector.similarity.cosine(m.embedding, $vector) AS score
WHERE score IS NOT NULL AND {_SAME_MODEL.format(n="m")}
{_MEMORY_BEST}""")

MEMORY_VECTOR_INDEX = as_of(f"""
CALL db.index.vector.queryNodes('{VECTOR_INDEX}', $fetch, $vector) YIELD node AS m, score
WITH m, score WHERE m.user_id = $user_id AND {_SAME_MODEL.format(n="m")}
{_MEMORY_KIND_FILTER}{AS_OF}{_MEMORY_BEST}""")

# Neo4j 2026: the person's nearest neighbours come out of the index itself (filtered inside it by
# user_id), so no share of anyone else's nodes needs fetching.
MEMORY_VECTOR_FILTERED = as_of(f"""CYPHER 25
MATCH (m:Memory)
  SEARCH m IN (VECTOR INDEX {VECTOR_INDEX} FOR $vector WHERE m.user_id = $user_id LIMIT $fetch)
  SCORE AS score
WITH m, score WHERE {_SAME_MODEL.format(n="m")}
{_MEMORY_KIND_FILTER}{AS_OF}{_MEMORY_BEST}""")

MESSAGE_VECTOR_EXACT = f"""
MATCH (x:Message {{user_id: $user_id}})
WITH x, vector.similarity.cosine(x.embedding, $vector) AS score
{_MESSAGE_FILTER}  AND score IS NOT NULL AND {_SAME_MODEL.format(n="x")}
{_MESSAGE_BEST}"""

MESSAGE_VECTOR_INDEX = f"""
CALL db.index.vector.queryNodes('{MESSAGE_VECTOR_INDEX}', $fetch, $vector) YIELD node AS x, score
WITH x, score WHERE x.user_id = $user_id
WITH x, score
{_MESSAGE_FILTER}  AND {_SAME_MODEL.format(n="x")}
{_MESSAGE_BEST}"""

MESSAGE_VECTOR_FILTERED = f"""CYPHER 25
MATCH (x:Message)
  SEARCH x IN (VECTOR INDEX {MESSAGE_VECTOR_INDEX} FOR $vector WHERE x.user_id = $user_id LIMIT $fetch)
  SCORE AS score
WITH x, score
{_MESSAGE_FILTER}  AND {_SAME_MODEL.format(n="x")}
{_MESSAGE_BEST}"""

# Two steps: the pool of the person's nodes that hold a query word (id and text only), then, for
# the best of them by the person's own BM25, the window filter and the fields. The pools of several
# wordings and kinds (`TextAsk`) are asked at once, with the person's counts when they are not
# known yet: what a search asks first, in one round trip (bench/README, "Fewer round trips").
_POOLS = """
CALL () {
  UNWIND $asks AS ask
  CALL (ask) {
    CALL db.index.fulltext.queryNodes(ask.index, ask.lucene, {limit: $fetch}) YIELD node, score
    RETURN collect([coalesce(node.memory_id, node.message_id, node.summary_id),
                    CASE WHEN ask.words THEN node.words_zh ELSE coalesce(node.context, node.content) END,
                    score]) AS pool
  }
  RETURN collect({n: ask.n, pool: pool}) AS pools
}
"""

MEMORY_TEXT = as_of(f"""
UNWIND $ids AS id
MATCH (m:Memory {{memory_id: id}})
WITH m, $scores[id] AS score WHERE m.user_id = $user_id
{_MEMORY_KIND_FILTER}{AS_OF}{_MEMORY_BEST}""")

MESSAGE_TEXT = f"""
UNWIND $ids AS id
MATCH (x:Message {{message_id: id}})
WITH x, $scores[id] AS score WHERE x.user_id = $user_id
WITH x, score
{_MESSAGE_FILTER}
{_MESSAGE_BEST}"""

# Memories about the entities the query names (1 hop), and about the entities of the best hits (2 hops).
# The names are looked up in the same query ($lucene; Chinese, Japanese and Korean names come as
# $named): a round trip of its own cost the API more than the lookup costs Neo4j (bench/README,
# "Fewer round trips").
_NAMED_BY_INDEX = f"""
  WITH $lucene AS lucene WHERE lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('{ENTITY_FULLTEXT}', lucene, {{limit: 10}}) YIELD node, score
  WITH node, score WHERE node.user_id = $user_id AND NOT node.name =~ $cjk
"""

MEMORY_GRAPH = as_of(f"""
CALL () {{
  UNWIND $named AS n
  MATCH (e:Entity {{entity_id: n.id}})
  RETURN e, n.score AS score
  UNION
{_NAMED_BY_INDEX}  RETURN node AS e, score
  UNION
  MATCH (hit:Memory)-[:ABOUT]->(e:Entity) WHERE hit.memory_id IN $seeds
  RETURN e, 0.5 AS score
}}
WITH e, max(score) AS entity_score
MATCH (m:Memory)-[:ABOUT]->(e)
WITH m, sum(entity_score) AS score WHERE m.user_id = $user_id
{_MEMORY_KIND_FILTER}{AS_OF}
WITH m, score, until ORDER BY score DESC, m.importance DESC, m.valid_from DESC LIMIT $limit
WITH m, m.memory_id AS id, score, {_MEMORY_FIELDS}
ORDER BY score DESC, m.importance DESC, m.valid_from DESC
{_AS_ONE_ROW}""")

ENTITIES_CJK = """
MATCH (e:Entity) WHERE e.user_id = $user_id AND e.name =~ $cjk
RETURN e.entity_id AS id, e.name AS name
"""

VECTORS = """
UNWIND $memories AS id
MATCH (m:Memory {memory_id: id})
RETURN 'memory' AS type, id, m.embedding AS vector
UNION ALL
UNWIND $messages AS id
MATCH (x:Message {message_id: id})
RETURN 'message' AS type, id, x.embedding AS vector
UNION ALL
UNWIND $summaries AS id
MATCH (s:Summary {summary_id: id})
RETURN 'summary' AS type, id, s.embedding AS vector
"""

_COUNTED = """
OPTIONAL MATCH (m:Memory {user_id: $user_id}) WITH count(m) AS memories
OPTIONAL MATCH (x:Message {user_id: $user_id}) WITH memories, count(x) AS messages
OPTIONAL MATCH (s:Summary {user_id: $user_id}) WITH memories, messages, count(s) AS summaries
"""
_COUNTS = """memories, messages, summaries, COUNT { (:Memory) } AS all_memories,
       COUNT { (:Message) } AS all_messages"""
COUNTS = f"{_COUNTED}RETURN {_COUNTS}\n"

POOLS = f"{_POOLS}RETURN pools\n"
# What the person has said about recall (memory off, a temporary session): read with the rest of
# what a search asks first, not in a round trip before it.
_PERSON = """
CALL () {
  OPTIONAL MATCH (u:User {user_id: $user_id})
  RETURN u {.memory, .temporary} AS person
}
"""


def opening_statement(counts: bool, pools: bool, person: bool) -> str:
    """What a search asks first, in one query: the person's counts, the text pools, their settings
    (each when asked)."""
    parts = [(counts, _COUNTED, _COUNTS), (pools, _POOLS, "pools"), (person, _PERSON, "person")]
    return "".join(text for asked, text, _ in parts if asked) + "RETURN " + ", ".join(
        name for asked, _, name in parts if asked) + "\n"


@dataclass(frozen=True)
class VectorAsk:
    """One list the vector source makes: the nodes of `kind` nearest `vector`; the person owns
    `owned` of them, of `total` in the store."""

    kind: ItemType
    vector: list[float]
    owned: int
    total: int


@dataclass(frozen=True)
class _Try:
    """One query of a candidate list, and what to do with its answer: the next query (a list that
    must widen: a bigger fetch, the exact scan), or None when the answer is the list."""

    kind: ItemType
    statement: str
    params: dict[str, Any]
    then: Callable[[list[Candidate]], _Try | None]


def _done(found: list[Candidate]) -> _Try | None:
    return None


_ROWS = re.compile(r"AS rows$")
_CYPHER_25 = "CYPHER 25"


def together(tries: list[_Try]) -> tuple[str, dict[str, Any]]:
    """Several candidate queries as one: each a subquery of its own, its parameters renamed with
    its place (`$fetch` → `$fetch_1`), its list returned as `rows_1`. Every round trip costs the API
    about as much CPU as a small list costs to read (bench/README, "Fewer round trips")."""
    params = {f"{name}_{n}": value for n, tried in enumerate(tries) for name, value in tried.params.items()}
    return _joined(tuple((t.statement, tuple(t.params)) for t in tries)), params


@functools.lru_cache(maxsize=256)
def _joined(tries: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    """The statement `together` sends for these statements and parameter names: a search asks the
    same few shapes again and again, so each is built once."""
    parts = []
    for n, (statement, names) in enumerate(tries):
        statement = statement.strip().removeprefix(_CYPHER_25)
        for name in names:
            statement = re.sub(rf"\${name}\b", f"${name}_{n}", statement)
        parts.append(f"CALL () {{\n{_ROWS.sub(f'AS rows_{n}', statement)}\n}}")
    newer = any(statement.lstrip().startswith(_CYPHER_25) for statement, _ in tries)
    returned = ", ".join(f"rows_{n}" for n in range(len(tries)))
    return (f"{_CYPHER_25}\n" if newer else "") + "\n".join(parts) + f"\nRETURN {returned}"


@dataclass(frozen=True)
class Opening:
    """What a search asks first: the person's counts, the text source's pools, and (when asked)
    their settings as projected (None: they have set none)."""

    counts: Counts
    pools: list[Pool]
    person: dict[str, Any] | None = None


@dataclass(frozen=True)
class StoreModels:
    """Which models' vectors the store holds, beside the one a search embeds with."""

    others: tuple[str, ...]  # models other than the search's (with none: any model)
    own: bool  # whether it holds any vector of the search's model


@dataclass(frozen=True)
class Counts:
    """How many memories and messages the person has, and everyone: what sizes a vector query."""

    memory: int
    message: int
    all_memory: int
    all_message: int
    summary: int = 0

    def owned(self, kind: ItemType) -> int:
        return {"memory": self.memory, "message": self.message, "summary": self.summary}[kind]

    def total(self, kind: ItemType) -> int:
        return {"memory": self.all_memory, "message": self.all_message, "summary": self.summary}[kind]


VectorPlan = Literal["exact", "filtered", "index"]


def vector_plan(owned: int, total: int, filters: bool, exact_below: int, scan_at_most: int,
                index_share: float) -> VectorPlan:
    """How a person's nearest nodes are found. A scan reads each of their vectors as a Cypher list
    (about 17 µs a node); an index filtered by person inside it (Neo4j 2026) reads its own copy,
    and costs little while the person is a small share of it, but when they are a large one it
    walks about as many of their nodes as a scan would, and more of other people's besides.
    Measured (bench/README, "Search latency"): 1,000 memories of 100,000 (1 %) took 17 ms by scan,
    5 ms by the filtered index; 600 turns of 6,000 (10 %), 14 ms by scan, 23 ms by the index; the
    same neighbours both ways. So: the index when it filters by person and they are more than a
    few nodes and at most `index_share` of it; a scan up to `exact_below`; past that, the index
    (the unfiltered one fetches a multiple of the person's share and widens)."""
    share = owned / max(total, owned, 1)
    if filters and owned > scan_at_most and share <= index_share:
        return "filtered"
    if owned <= exact_below:
        return "exact"
    return "filtered" if filters else "index"


class CandidateQueries:
    """Runs the candidate queries; each answers (id, score, fields) best first."""

    def __init__(self, driver: Driver, database: str = "neo4j", exact_below: int = 5000,
                 scan_at_most: int = 250, index_share: float = 0.03, overfetch: int = 2,
                 counts_ttl_s: float = 5.0, text_pool: int = 300,
                 index_fetch: int = 10_000, language: str = "en") -> None:
        self.driver = driver
        # The store's language: a Chinese store searches a query with Chinese in it by its words
        # (jieba's, in the word indexes), and reads every candidate's words the Chinese way.
        self.language = language
        self.database = database
        self.exact_below = exact_below
        self.scan_at_most = scan_at_most
        self.index_share = index_share
        self.overfetch = overfetch
        self.counts_ttl_s = counts_ttl_s
        self.text_pool = text_pool
        self.index_fetch = index_fetch
        self._counts: dict[str, tuple[float, Counts]] = {}
        self._filters: tuple[float, dict[str, bool]] | None = None
        self._models: dict[str | None, tuple[float, StoreModels]] = {}

    def store_models(self, model: str | None, ttl_s: float = 10.0) -> StoreModels:
        """The models whose vectors the store holds, as seen at most `ttl_s` ago (index seeks)."""
        now = time.monotonic()
        seen = self._models.get(model)
        if seen is not None and now - seen[0] < ttl_s:
            return seen[1]
        others = tuple(other_embedding_models(self.driver, model or "", self.database))
        found = StoreModels(others, bool(model) and bool(others) and holds_vectors_of(
            self.driver, model or "", self.database))
        self._models[model] = (now, found)
        return found

    def filters_by_person(self, index: str) -> bool:
        """Whether the vector index filters by person inside it (Neo4j 2026); looked up once a minute."""
        now = time.monotonic()
        if self._filters is None or now - self._filters[0] > 60:
            self._filters = (now, vector_index_filters(self.driver, self.database))
        return self._filters[1].get(index, False)

    def _run(self, kind: ItemType, query: str, **params: Any) -> list[Candidate]:
        records, _, _ = self.driver.execute_query(query, params, database_=self.database, routing_="r")
        return _candidates(kind, records[0]["rows"])

    def counts(self, user_id: str) -> Counts:
        counts = self._known_counts(user_id)
        if counts is not None:
            return counts
        records, _, _ = self.driver.execute_query(COUNTS, user_id=user_id, database_=self.database,
                                                  routing_="r")
        return self._keep_counts(user_id, _counts(records[0]))

    def _known_counts(self, user_id: str) -> Counts | None:
        # Counting a person's nodes walks their index entries: kept for a few seconds, as it only
        # sizes the vector query (a count a little behind changes how much is fetched, not what).
        cached = self._counts.get(user_id)
        return cached[1] if cached and time.monotonic() - cached[0] < self.counts_ttl_s else None

    def _keep_counts(self, user_id: str, counts: Counts) -> Counts:
        if len(self._counts) > 10_000:
            self._counts.clear()
        self._counts[user_id] = (time.monotonic(), counts)
        return counts

    def vector(self, kind: ItemType, user_id: str, vector: list[float], window: Window, limit: int,
               owned: int, total: int, model: str | None = None) -> list[Candidate]:
        """The person's `limit` nodes of `kind` nearest `vector` (see `nearest`)."""
        return self.nearest([VectorAsk(kind, vector, owned, total)], user_id, window, limit, model)[0]

    def nearest(self, asks: list[VectorAsk], user_id: str, window: Window, limit: int,
                model: str | None = None) -> list[list[Candidate]]:
        """Each ask's list, in one round trip (more only for a list that must widen): exact over
        the person's own nodes, or the HNSW index filtered by person, as `vector_plan` says; an
        index that cannot filter fetches enough neighbours that the person's share of them covers
        `limit`, more if it did not. `model`: the query vector's; nodes with another model's
        vectors are left out."""
        shared = {"user_id": user_id, "limit": limit, "model": model, **window.params()}
        firsts = [self._nearest_first(ask, window, limit, shared) if ask.owned else None for ask in asks]
        return self._all(firsts)

    def _nearest_first(self, ask: VectorAsk, window: Window, limit: int, shared: dict[str, Any]) -> _Try:
        kind, owned = ask.kind, ask.owned
        if kind == "memory":
            exact = pick(MEMORY_VECTOR_EXACT, window.known_at)
            index = pick(MEMORY_VECTOR_INDEX, window.known_at)
            filtered = pick(MEMORY_VECTOR_FILTERED, window.known_at)
        else:
            exact, index, filtered = MESSAGE_VECTOR_EXACT, MESSAGE_VECTOR_INDEX, MESSAGE_VECTOR_FILTERED
        params = {**shared, "vector": QueryVector(ask.vector)}
        if kind == "summary":
            return _Try(kind, SUMMARY_VECTOR_EXACT, params, _done)
        scan = _Try(kind, exact, params, _done)
        filters = self.filters_by_person(VECTOR_INDEX if kind == "memory" else MESSAGE_VECTOR_INDEX)
        plan = vector_plan(owned, ask.total, filters, self.exact_below, self.scan_at_most, self.index_share)
        if plan == "exact":
            return scan

        def fetching(statement: str, fetch: int, most: int) -> _Try:
            def then(found: list[Candidate]) -> _Try | None:
                if len(found) >= limit or (plan == "filtered" and fetch >= owned):
                    return None
                if fetch >= self.index_fetch:
                    # Few of the person's nodes lie in the window (a time long ago): the nearest
                    # of the index are someone else's or another time's. Read the person's own.
                    return scan
                return fetching(statement, min(fetch * 4, most), most)
            return _Try(kind, statement, {**params, "fetch": fetch}, then)

        if plan == "filtered":
            # Every neighbour is the person's: a little more than asked, for what the window or
            # the kinds leave out, and more only when they left out too much.
            return fetching(filtered, min(limit * self.overfetch, owned), min(self.index_fetch, owned))
        # Neighbours are the person's in about their share of the index: fetch a few times what
        # that share needs, and widen if the person's part of the answer still fell short.
        share = owned / max(ask.total, owned)
        fetch = min(max(int(limit * self.overfetch / share), limit * self.overfetch), self.index_fetch)
        return fetching(index, fetch, self.index_fetch)

    def _all(self, firsts: list[_Try | None]) -> list[list[Candidate]]:
        """The lists of these first tries (None: an empty list), asked in one round trip, then each
        widened as its answer says."""
        asked = [t for t in firsts if t is not None]
        if not asked:
            return [[] for _ in firsts]
        if len(asked) == 1:
            answers = [self._run(asked[0].kind, asked[0].statement, **asked[0].params)]
        else:
            statement, params = together(asked)
            records, _, _ = self.driver.execute_query(statement, params, database_=self.database,
                                                      routing_="r")
            answers = [_candidates(t.kind, records[0][f"rows_{n}"]) for n, t in enumerate(asked)]
        found = iter(answers)
        lists = []
        for first in firsts:
            if first is None:
                lists.append([])
                continue
            tried, answer = first, next(found)
            while (tried := tried.then(answer)) is not None:
                answer = self._run(tried.kind, tried.statement, **tried.params)
            lists.append(answer)
        return lists

    def text(self, kind: ItemType, user_id: str, query: str, window: Window, limit: int,
             owned: int | None = None) -> list[Candidate]:
        """Lucene finds the person's nodes that hold a query word (up to `text_pool`); they are
        ranked by BM25 with the person's own word statistics (see bm25.py). In an English store
        CJK queries keep Lucene's bigram scores; a Chinese store looks for a query with Chinese in
        it in its word indexes, and weighs the words they hold."""
        ask = self.text_ask(kind, user_id, query)
        if ask is None:
            return []
        return self.text_from(ask, self._pool(ask, max(self.text_pool, limit)), user_id, window, limit, owned)

    def text_ask(self, kind: ItemType, user_id: str, query: str) -> TextAsk | None:
        """How the text source looks for `query` among the person's nodes of `kind` (None: the
        query holds no word to look for)."""
        cjk = has_cjk(query)
        chinese = self.language == "zh" and cjk
        words = chinese_query_words(query) if chinese else query_words(query)
        if not words:
            return None
        if chinese:
            index = _WORDS_ZH[kind]
        elif kind == "memory":
            index = MEMORY_FULLTEXT_CJK if cjk else MEMORY_FULLTEXT
        elif kind == "summary":
            index, cjk = SUMMARY_FULLTEXT, False
        else:
            index = MESSAGE_FULLTEXT_CJK if cjk else MESSAGE_FULLTEXT
        lucene = _scoped("user_key_cjk" if cjk and (chinese or kind != "summary") else "user_key", user_id,
                         lucene_terms(words))
        # BM25 weighs the query as asked, unless it had to be cut to its telling words.
        reading = chinese_query_words if chinese else query_words
        whole = reading(query, budget=len(query))
        asked = query if len(words) == len(whole) else " ".join(words)
        return TextAsk(kind, index, lucene, asked, chinese, lucene_scores=cjk and not chinese)

    def opening(self, user_id: str, asks: list[TextAsk], limit: int, person: bool = False) -> Opening:
        """The person's counts, the pool of each of `asks` (for `texts_from`) and, with `person`,
        their settings, in one round trip (none when the counts are known and nothing else is)."""
        counts = self._known_counts(user_id)
        if counts is not None and not asks and not person:
            return Opening(counts, [])
        fetch = max(self.text_pool, limit)
        r = self._pools(opening_statement(counts is None, bool(asks), person), asks, fetch, user_id=user_id)
        if counts is None:
            counts = self._keep_counts(user_id, _counts(r))
        pools = {found["n"]: found["pool"] for found in r["pools"]} if asks else {}
        settings = {k: v for k, v in r["person"].items() if v is not None} if person and r["person"] else None
        return Opening(counts, [Pool(pools[n], fetch) for n in range(len(asks))], settings)

    def text_from(self, ask: TextAsk, pool: Pool, user_id: str, window: Window, limit: int,
                  owned: int | None = None) -> list[Candidate]:
        """The best `limit` of `pool` (Lucene's hits for `ask`) by the person's BM25 (see `texts_from`)."""
        return self.texts_from([(ask, pool, owned)], user_id, window, limit)[0]

    def texts_from(self, asked: list[tuple[TextAsk, Pool, int | None]], user_id: str, window: Window,
                   limit: int) -> list[list[Candidate]]:
        """For each (ask, pool, the person's count of its kind): the best `limit` of the pool
        (Lucene's hits for the ask) by the person's BM25, in the window, all in one round trip; a
        pool that was full and left too few in the window is widened."""
        return self._all([self._text_try(ask, pool, owned, user_id, window, limit)
                          for ask, pool, owned in asked])

    def _text_try(self, ask: TextAsk, pool: Pool, owned: int | None, user_id: str, window: Window,
                  limit: int) -> _Try:
        statement = {"memory": pick(MEMORY_TEXT, window.known_at), "message": MESSAGE_TEXT,
                     "summary": SUMMARY_TEXT}[ask.kind]
        hits, fetch = pool.hits, pool.fetch
        if ask.lucene_scores:
            scores = [float(score) for _, _, score in hits]
        else:
            scores = rescore(ask.asked, [content or "" for _, content, _ in hits],
                             owned if owned is not None else len(hits), self.language, indexed=ask.chinese)
        # Best first, ties in a fixed order (by id), whatever order Lucene found them in.
        best = dict(sorted(((item[0], s) for s, item in zip(scores, hits, strict=True) if s > 0),
                           key=lambda pair: (pair[1], pair[0]), reverse=True))

        def then(found: list[Candidate]) -> _Try | None:
            if len(found) >= limit or len(hits) < fetch or (owned is not None and fetch >= owned):
                return None
            # More of the person's nodes hold the words: some may lie in the window.
            return self._text_try(ask, self._pool(ask, fetch * 4), owned, user_id, window, limit)

        # The window filter runs on the whole pool, before the cut to `limit`.
        params = {"ids": list(best), "scores": best, "user_id": user_id, "limit": limit, **window.params()}
        return _Try(ask.kind, statement, params, then)

    def _pool(self, ask: TextAsk, fetch: int) -> Pool:
        return Pool(self._pools(POOLS, [ask], fetch)["pools"][0]["pool"], fetch)

    def _pools(self, statement: str, asks: list[TextAsk], fetch: int, **params: Any) -> Any:
        asked = [{"n": n, "index": ask.index, "lucene": ask.lucene, "words": ask.chinese}
                 for n, ask in enumerate(asks)]
        records, _, _ = self.driver.execute_query(statement, fetch=fetch, asks=asked, database_=self.database,
                                                  routing_="r", **params)
        return records[0]

    def vectors(self, items: list[tuple[ItemType, str]]) -> dict[tuple[ItemType, str], list[float] | None]:
        """The stored vectors of these memories and turns (None where there is none)."""
        records, _, _ = self.driver.execute_query(
            VECTORS, memories=[i for t, i in items if t == "memory"],
            messages=[i for t, i in items if t == "message"],
            summaries=[i for t, i in items if t == "summary"], database_=self.database, routing_="r")
        return {(r["type"], r["id"]): r["vector"] for r in records}

    def naming(self, user_id: str, query: str) -> tuple[list[dict[str, Any]], str | None]:
        """The person's Chinese, Japanese and Korean names the query holds (read and matched here),
        and the Lucene query for its other words (None: it has none). A name in these languages is
        named whole or by its words (`named_share`): the fulltext index cuts such text into single
        characters, and one character in common is no naming."""
        found: list[dict[str, Any]] = []
        if has_cjk(query):
            records, _, _ = self.driver.execute_query(
                ENTITIES_CJK, user_id=user_id, cjk=CJK_IN, database_=self.database, routing_="r")
            found = [{"id": r["id"], "score": share} for r in records
                     if (share := named_share(query, r["name"] or "")) > 0]
            query = without_cjk(query)
        words = query_words(query)
        return found, _scoped("user_key", user_id, lucene_terms(words)) if words else None

    def graph(self, kind: ItemType, user_id: str, query: str, seeds: list[str],
              window: Window, limit: int) -> list[Candidate]:
        """Memories about the entities `query` names and the seeds' entities (turns and summaries:
        none). The names are looked up by the same query as the memories."""
        if kind != "memory":
            return []
        named, lucene = self.naming(user_id, query)
        if not named and lucene is None and not seeds:
            return []
        return self._run(kind, pick(MEMORY_GRAPH, window.known_at), user_id=user_id, named=named,
                         lucene=lucene, cjk=CJK_IN, seeds=seeds, limit=limit, **window.params())


def _candidates(kind: ItemType, rows: list[dict[str, Any]]) -> list[Candidate]:
    return [Candidate(kind, r["id"], float(r["score"]), _native(r["fields"])) for r in rows]


def _native(fields: dict[str, Any]) -> dict[str, Any]:
    return parsed(fields, _INSTANTS)


def _counts(record: Any) -> Counts:
    return Counts(record["memories"], record["messages"], record["all_memories"], record["all_messages"],
                  record["summaries"])
