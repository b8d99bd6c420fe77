"""Hybrid search: candidates from every source, fused by reciprocal rank, then reranked by
recency, importance and use. The sources run side by side; the query is embedded once.

Memories, turns and summaries compete on one ranking (issue 28): each source's lists of each
type are merged by score into one list before the fusion, and a memory extracted from a turn is
fused with that turn as one piece of evidence, shown once. Ranked in lists of their own, a few
weak memories each came first of theirs and pushed the turns that held the answer out of the
top 10 (bench/README, "Memories and turns on one ranking")."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from domain.model import message_id
from domain.retrieval.time_focus import TimeFocus, mentions_time, time_focus
from infra.embedding import Embedder
from infra.embedding.port import embed_queries, keeps_text_here
from projections.search import Candidate, CandidateQueries, ItemType, VectorAsk, Window
from services.degraded import Degradation, note, vector_source
from services.mmr import mmr_order
from services.telemetry import SEARCH_SECONDS, step, timed

log = logging.getLogger(__name__)

RRF_K = 10
# How much a rank in each source counts. BM25 and the vector index find different things and
# both matter; the graph only adds memories about what the query and the others' hits are about,
# so it counts for less.
SOURCE_WEIGHTS = {"vector": 1.0, "text": 1.0, "graph": 0.7}
# In Chinese the text source matches jieba's words, and finds much less than the vector does
# (on Lore's Chinese chats, BM25 over the turns finds the evidence in the first ten for 78-84 % of
# questions, the vector for 94-97 %): at full weight its ranks pushed the vector's answers down.
# Every weight from 0.3 to 0.7 gave the same NDCG@10 within a question's worth on the part tuned on
# (01-03), all above 1.0; 0.5 is the middle of that range (bench/README, "Chinese words count for
# less in the fusion").
TEXT_WEIGHT_BY_LANGUAGE = {"zh": 0.5}
# A rewording is a guess at what was meant: its lists count, less than the query as asked.
REWORDING_WEIGHT = 0.7
# How many candidates each source gives the fusion (at least): LoCoMo's evidence was in the fused
# top 10 more often with 50 than with 30 (+0.4 points for +4.5 ms p95); 100 added 0.6 more for
# 11 ms more at p95 (bench/README, "Fusion").
DEPTH = 50
# A "when" question favours hits that carry a time; a span the question names, hits in it. Soft:
# measured on LoCoMo, 1.2 to 2 gave the same (+2.5 points on temporal questions, bench/README).
WHEN_BOOST = 1.5
SPAN_BOOST = 1.5


@dataclass(frozen=True)
class Ranking:
    """How fused hits are reordered: final = rrf × recency × use × importance × trust, each damped.
    Trust is the memory's confidence: lowered when a model was unsure, and halved each time a
    person says a cited memory was wrong (domain/confidence.py).

    Use is what context blocks cited and people found helpful, never what a search listed (a search
    that lifted what searches find would feed on itself): bounded at `access_weight`, it grows with
    the citations (1 - exp(-n / use_saturation)) and fades with the days since the last one
    (exp(-days / use_fading_days)), so a memory cited once long ago weighs as one never cited."""

    recency_weight: float = 0.1       # share of the score that fades with age
    recency_per_day: float = 0.01     # exp(-0.01 · days)
    access_weight: float = 0.1        # the most that use lifts a score (+10 %)
    use_saturation: float = 3.0       # citations: 1 → 28 % of the lift, 3 → 63 %, 10 → 96 %
    use_fading_days: float = 30.0
    importance_weight: float = 0.5    # (1 - w/2 + w · importance)
    confidence_weight: float = 0.5    # (1 - w + w · confidence): a sure memory loses nothing


class RecallPaused(Exception):
    """The person asked that nothing be recalled now; the message says why."""


def recall_paused(settings: dict[str, Any]) -> str | None:
    """Why nothing is recalled for a person with these settings now, if it is not."""
    if settings.get("temporary"):
        return "a temporary session is on: nothing is recalled or remembered until it is turned off"
    if settings.get("memory") is False:
        return "memory is off for this person: nothing is recalled or remembered"
    return None


@dataclass
class Hit:
    type: ItemType
    id: str
    score: float
    scores: dict[str, float]
    ranks: dict[str, int]
    fields: dict[str, Any] = field(default_factory=dict)


SOURCES = ("vector", "text", "graph")


class SearchService:
    def __init__(self, queries: CandidateQueries, embedder: Embedder | None,
                 ranking: Ranking = Ranking(), clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 embed_timeout_s: float = 10.0, weights: dict[str, float] = SOURCE_WEIGHTS) -> None:
        self.queries = queries
        self.weights = weights  # of each source in the fusion (`source_weights`)
        self.embedder = embedder
        # The longest a search waits for its query's vector before it answers without the vector
        # source (and says so): an embedding endpoint that hangs must not hang every search.
        self.embed_timeout_s = embed_timeout_s
        self.ranking = ranking
        self.clock = clock
        # A search asks up to ~8 things at once (counts, entities, embedding, text and vector per
        # kind of item); more threads than that would only queue in Neo4j.
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="search")
        # Each source's list is cut at `depth` before the fusion (bench/README, "Fusion").
        self.depth = DEPTH

    def search(self, user_id: str, query: str, window: Window, limit: int = 10,
               sources: tuple[str, ...] = SOURCES, types: tuple[ItemType, ...] = ("memory", "message"),
               mmr_lambda: float | None = None, also: tuple[str, ...] = (),
               measure: bool = False, honour_pause: bool = False) -> list[Hit]:
        """The best `limit` hits; `sources` narrows the candidate sources (to measure each alone);
        `also`: more queries for the same need (questions synthesized from a message,
        services/questions.py), each searched through every source and fused. `measure`: each
        hit's own closeness to what was asked, `scores["cosine"]` (its stored vector against the
        best of the asked wordings'). `honour_pause`: a person who turned memory off or is in a
        temporary session is told so (`RecallPaused`) instead of answered.

        Everything that can overlap does: the query is embedded (when a pause is to be honoured,
        only by a model run here) while the person's counts and the text source's pools are read
        (one round trip) and the pools ranked, and the text source (which needs no vector) is asked
        while the embedding is still being made; then the vector source, for the query and for
        each of `also` (as sources `vector~1`, `text~1`, ...); the graph last, as it looks
        around their best hits and the entities the query names."""
        started = time.perf_counter()
        depth = max(limit * 5, self.depth)
        asked = list(dict.fromkeys([query, *also]))
        asks = {(f"text~{n}" if n else "text", kind): ask for n, wording in enumerate(asked) for kind in types
                if "text" in sources and (ask := self.queries.text_ask(kind, user_id, wording)) is not None}
        # The person's counts, the text source's pools (and their settings, when a pause is to be
        # honoured) come back in one round trip, asked while the query is embedded (each round
        # trip costs the API more than most of what it asks).
        opening_job = self._pool.submit(timed("text", self.queries.opening), user_id, list(asks.values()),
                                        depth, honour_pause)
        embedder = self.embedder
        usable = "vector" in sources and self._vectors_usable()

        def embedding() -> Future | None:
            return self._pool.submit(timed("embed", lambda: embed_queries(embedder, asked))) if (
                embedder and usable) else None

        # A pause to honour keeps the query from an embedder that sends it away until the
        # settings are read: a paused person's words reach no endpoint. One run here may start at once.
        early = not honour_pause or (embedder is not None and keeps_text_here(embedder))
        embed_job = embedding() if early else None
        # What the query says of time is read meanwhile too: a query that names a time costs
        # dateparser 3-6 ms (a fifth of LoCoMo's questions), which came after the graph's answer.
        focus_job = self._pool.submit(time_focus, query, window.valid_at or self.clock())
        opening = opening_job.result()
        if honour_pause and (why := recall_paused(opening.person or {})):
            raise RecallPaused(why)
        if not early:
            embed_job = embedding()
        counts = opening.counts
        owned = {kind: counts.owned(kind) for kind in types}
        # Every list of a source comes back in one round trip: the text source's while the query
        # is embedded, the vector source's once its vectors exist.
        texts = {key: (ask, pool, owned[key[1]])
                 for (key, ask), pool in zip(asks.items(), opening.pools, strict=True) if owned[key[1]]}
        text_job = self._pool.submit(timed("text", self.queries.texts_from), list(texts.values()), user_id,
                                     window, depth) if texts else None
        vectors = self._query_vectors(embed_job) if embed_job else []
        nearest = {(f"vector~{n}" if n else "vector", kind): VectorAsk(kind, vector, owned[kind],
                                                                        counts.total(kind))
                   for n, vector in enumerate(vectors) for kind in types if owned[kind]}
        model = embedder.model if embedder else None
        vector_lists = timed("vector", self.queries.nearest)(list(nearest.values()), user_id, window, depth,
                                                             model) if nearest else []
        lists: dict[tuple[str, ItemType], list[Candidate]] = dict(zip(
            texts, text_job.result() if text_job else [], strict=True))
        lists.update(zip(nearest, vector_lists, strict=True))
        if "graph" in sources and "memory" in types and owned["memory"]:
            lists[("graph", "memory")] = timed("graph", self.queries.graph)(
                "memory", user_id, query, _seeds(lists, "memory"), window, depth)
        with step("fuse"):
            ranked = self._rerank(_fuse(lists, user_id, self.weights), window, focus_job.result())
        chosen = ranked[:limit] if mmr_lambda is None else self._diversify(ranked[:depth], mmr_lambda, limit)
        if measure and vectors:
            self._measure(chosen, vectors)
        SEARCH_SECONDS.observe(time.perf_counter() - started)
        return chosen

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    def vector_degradation(self) -> Degradation | None:
        """What keeps the vector source from comparing the query with every vector of the store:
        vectors of another model than this embedder's, a move between models half done, or no
        embedder beside a store that holds vectors (None: nothing does)."""
        model = self.embedder.model if self.embedder else None
        return vector_source(model, self.queries.store_models(model))

    def _vectors_usable(self) -> bool:
        """Whether the vector source can run; what keeps it from running fully is noted."""
        found = self.vector_degradation()
        if found is not None:
            note(found)
        return found is None or found.code == "reembed_in_progress"

    def _query_vectors(self, job: Future[list[list[float]]]) -> list[list[float]]:
        """The query's vectors; none when the embedder fails or is too slow (the search goes on
        with words and the graph, and says so)."""
        try:
            return job.result(timeout=self.embed_timeout_s)
        except FutureTimeout:
            why = f"gave no vector within {self.embed_timeout_s:g} s"
        except Exception as error:  # noqa: BLE001 - any failure of the model leaves its source out
            why = f"failed ({error})"
        log.warning("search without its vector source: the embedder %s", why)
        note(Degradation("vector", "embedder_failed",
                         f"the embedder {self.embedder.model if self.embedder else ''} {why}: memories were "
                         "found by their words and the graph only",
                         fix="see /v1/health and the server's log (LORE_EMBEDDER and, for an endpoint, "
                         "LORE_EMBEDDING_BASE_URL)"))
        return []

    def _diversify(self, hits: list[Hit], lambda_: float, limit: int) -> list[Hit]:
        """The hits in MMR order, likeness measured on their stored vectors."""
        vectors = self.queries.vectors([(h.type, h.id) for h in hits])
        order = mmr_order([h.score for h in hits], [vectors.get((h.type, h.id)) for h in hits],
                          lambda_, limit)
        for position, index in enumerate(order, start=1):
            hits[index].ranks["mmr"] = position
        return [hits[i] for i in order]

    def _measure(self, hits: list[Hit], asked: list[list[float]]) -> None:
        """Each hit's cosine to the nearest asked wording (hits without a stored vector: none)."""
        stored = self.queries.vectors([(h.type, h.id) for h in hits])
        wordings = np.array(asked, dtype=np.float32)
        wordings /= np.linalg.norm(wordings, axis=1, keepdims=True)
        for hit in hits:
            vector = stored.get((hit.type, hit.id))
            if vector:
                v = np.array(vector, dtype=np.float32)
                hit.scores["cosine"] = float(np.max(wordings @ v) / (np.linalg.norm(v) or 1.0))

    def _rerank(self, hits: list[Hit], window: Window, focus: TimeFocus) -> list[Hit]:
        """Recency applies to memories (beliefs go stale; a turn of a conversation is a record), and
        is measured from the newest candidate: among two statements of the same thing, the later
        wins, even when both are years old. What lies in a span the question names counts for
        more, and so does what carries a time when the question asks when (time_focus.py)."""
        starts = [h.fields["valid_from"] for h in hits
                  if h.type == "memory" and isinstance(h.fields.get("valid_from"), datetime)]
        at = min([window.valid_at or self.clock(), *([max(starts)] if starts else [])])
        r = self.ranking
        now = self.clock()
        for hit in hits:
            since = hit.fields.get("valid_from") if hit.type == "memory" else None
            days = max((at - since).total_seconds() / 86400, 0.0) if isinstance(since, datetime) else 0.0
            recency = 1 - r.recency_weight + r.recency_weight * math.exp(-r.recency_per_day * days)
            use = 1 + r.access_weight * _cited(hit.fields, now, r)
            importance = hit.fields.get("importance")
            weight = 1.0 if importance is None else (
                1 - r.importance_weight / 2 + r.importance_weight * importance)
            confidence = hit.fields.get("confidence")
            trust = 1.0 if confidence is None else 1 - r.confidence_weight + r.confidence_weight * confidence
            hit.score = hit.scores["rrf"] * recency * use * weight * trust * _timely(hit, focus)
        return sorted(hits, key=lambda h: (-h.score, h.id))


def _cited(fields: dict[str, Any], now: datetime, r: Ranking) -> float:
    """How much use lifts a hit, from 0 (never cited, or long ago) towards 1."""
    cited = fields.get("cited_count") or 0
    last = fields.get("last_cited_at")
    if not cited or not isinstance(last, datetime):
        return 0.0
    days = max((now - last).total_seconds() / 86400, 0.0)
    return (1 - math.exp(-cited / r.use_saturation)) * math.exp(-days / r.use_fading_days)


def _timely(hit: Hit, focus: TimeFocus) -> float:
    """How much a hit gains from what the question says about time."""
    gain = 1.0
    if focus.asks_when and mentions_time(hit.fields.get("content") or ""):
        gain *= WHEN_BOOST
    if focus.start is not None:
        start = hit.fields.get("valid_from" if hit.type == "memory" else "occurred_at")
        end = hit.fields.get("valid_until") if hit.type == "memory" else None
        if isinstance(start, datetime) and focus.covers(start, end if isinstance(end, datetime) else None):
            gain *= SPAN_BOOST
    return gain


def _seeds(lists: dict[tuple[str, ItemType], list[Candidate]], kind: ItemType, top: int = 3) -> list[str]:
    """The items of `kind` among the best few hits of the vector and text sources, over every type
    they searched: where the graph looks around. The best of a person's memories is no seed when
    turns are closer to the query (issue 28: a memory 33rd by its vector seeded the graph, which
    then ranked it first of its own list)."""
    merged = _merged({key: found for key, found in lists.items() if key[0] in ("vector", "text")})
    return list(dict.fromkeys(candidate.id for source in ("vector", "text")
                              for candidate in merged.get(source, [])[:top] if candidate.type == kind))


def source_weights(language: str) -> dict[str, float]:
    """How much a rank in each source counts for a store in `language`."""
    text = TEXT_WEIGHT_BY_LANGUAGE.get(language)
    return SOURCE_WEIGHTS if text is None else SOURCE_WEIGHTS | {"text": text}


def _weight(source: str, weights: dict[str, float]) -> float:
    """A source's weight in the fusion; under a rewording (`text~1`) it counts for less."""
    base, _, rewording = source.partition("~")
    return weights.get(base, 1.0) * (REWORDING_WEIGHT if rewording else 1.0)


def _fuse(lists: dict[tuple[str, ItemType], list[Candidate]], user_id: str,
          weights: dict[str, float] = SOURCE_WEIGHTS) -> list[Hit]:
    """Weighted reciprocal-rank fusion of pieces of evidence: Σ weight / (RRF_K + rank) over the
    sources' lists, each one list over every type it searched (`_merged`). A memory extracted from
    a turn is the same evidence as that turn: the two are one hit, ranked in each list where the
    better of them is, and shown as whichever of them ranked best anywhere (the memory on a tie)."""
    hits: dict[tuple[ItemType, str], Hit] = {}
    members: dict[tuple[ItemType, str], dict[tuple[ItemType, str], tuple[int, Candidate]]] = {}
    for source, candidates in _merged(lists).items():
        for rank, candidate in enumerate(candidates, start=1):
            key = _evidence(candidate, user_id)
            mine = members.setdefault(key, {})
            best, _ = mine.get((candidate.type, candidate.id), (rank, candidate))
            mine[(candidate.type, candidate.id)] = (min(best, rank), candidate)
            hit = hits.setdefault(key, Hit(candidate.type, candidate.id, 0.0, {"rrf": 0.0}, {}))
            if source in hit.ranks:
                continue
            hit.scores[source] = candidate.score
            hit.ranks[source] = rank
            hit.scores["rrf"] += _weight(source, weights) / (RRF_K + rank)
    for key, hit in hits.items():
        _, shown = min(members[key].values(), key=lambda m: (m[0], m[1].type != "memory"))
        hit.type, hit.id = shown.type, shown.id
        hit.fields.update(shown.fields)
    return list(hits.values())


def _merged(lists: dict[tuple[str, ItemType], list[Candidate]]) -> dict[str, list[Candidate]]:
    """One list per source over every type it searched, best score first: a source scores each
    type on one scale (one query vector's cosines; BM25 with each type's statistics), so a memory
    ranks among the turns where its score puts it, not first of a list of its own whatever its
    score (issue 28: the best of 18 weak memories came first)."""
    merged: dict[str, list[Candidate]] = {}
    for (source, _), candidates in lists.items():
        merged.setdefault(source, []).extend(candidates)
    return {source: sorted(candidates, key=lambda c: (-c.score, c.type, c.id))
            for source, candidates in merged.items()}


def _evidence(candidate: Candidate, user_id: str) -> tuple[ItemType, str]:
    """What a candidate is evidence of: a memory extracted from turns, the first of them; else itself."""
    if candidate.type == "memory":
        refs = candidate.fields.get("messages") or []
        if refs:
            episode, _, position = str(refs[0]).rpartition("#")
            return "message", message_id(user_id, episode, int(position))
    return candidate.type, candidate.id
