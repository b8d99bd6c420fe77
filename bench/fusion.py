"""How LoCoMo's evidence turns fare under other fusion settings than Lore's: each source's own list
(100 deep, the time-aware rerank applied as search applies it), fused again here under each RRF
constant, text weight and candidate depth. Settings are chosen on conversations 0-4 and reported
on the held-out 5-9 and on all; with the latency of search at each depth. Part of bench.retrieval.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from rich.console import Console
from rich.progress import track
from rich.table import Table

from domain.retrieval.time_focus import time_focus
from infra.embedding.port import embed_queries
from projections.search import Window
from services.bootstrap import Lore
from services.search import DEPTH, RRF_K, SOURCE_WEIGHTS, Hit, _timely

TUNING = range(0, 5)  # conversations the settings are chosen on; 5-9 are held out
GRID_K = (5, 10, 20, 60)
GRID_TEXT = (0.6, 0.8, 1.0, 1.25)
DEPTHS = (30, 50, 100)


@dataclass
class Asked:
    conversation: int
    user: str
    question: str
    evidence: set[str]
    lists: dict[str, list[str]]  # source -> dia ids, best first
    gain: dict[str, float]  # dia id -> what the question's time gives it


def gather(lore: Lore, questions: list[tuple[int, str, str, set[str]]],
           dia: dict[tuple[str, int], str], console: Console) -> list[Asked]:
    queries, embedder = lore.search.queries, lore.search.embedder
    assert embedder is not None
    window = Window(valid_at=None, known_at=None)
    out = []
    for conversation, user, question, evidence in track(questions, description="each source alone, 100 deep",
                                                          console=console):
        counts = queries.counts(user)
        vector = embed_queries(embedder, [question])[0]
        found = {"vector": queries.vector("message", user, vector, window, 100, counts.message,
                                          counts.all_message, embedder.model),
                 "text": queries.text("message", user, question, window, 100, counts.message)}
        focus = time_focus(question, datetime.now(UTC))
        lists, gain = {}, {}
        for source, candidates in found.items():
            lists[source] = []
            for c in candidates:
                d = dia[(c.fields["episode_id"], c.fields["position"])]
                lists[source].append(d)
                gain[d] = _timely(Hit("message", c.id, 0.0, {}, {}, c.fields), focus)
        out.append(Asked(conversation, user, question, evidence, lists, gain))
    return out


def fused(asked: Asked, k: int, text_weight: float, depth: int) -> list[str]:
    score: dict[str, float] = {}
    for source, weight in (("vector", SOURCE_WEIGHTS["vector"]), ("text", text_weight)):
        for rank, d in enumerate(asked.lists[source][:depth], start=1):
            score[d] = score.get(d, 0.0) + weight / (k + rank)
    return sorted(score, key=lambda d: (-score[d] * asked.gain.get(d, 1.0), d))


def recall(asked: list[Asked], rank: Callable[[Asked], list[str]], at: int = 10,
           only: range | None = None) -> float:
    chosen = [a for a in asked if only is None or a.conversation in only]
    return 100 * sum(bool(set(rank(a)[:at]) & a.evidence) for a in chosen) / max(len(chosen), 1)


def report(lore: Lore, asked: list[Asked], console: Console) -> None:
    held = range(5, 10)
    grid = [(k, w) for k in GRID_K for w in GRID_TEXT]
    tuned = {(k, w): recall(asked, lambda a, k=k, w=w: fused(a, k, w, DEPTH), only=TUNING) for k, w in grid}
    best = max(grid, key=lambda kw: (tuned[kw], kw == (RRF_K, SOURCE_WEIGHTS["text"])))
    table = Table(title=f"Fusion of the vector and text sources, recall_any@10: chosen on conversations "
                        f"0-4, held-out 5-9 (depth {DEPTH}; Lore: k={RRF_K}, text weight "
                        f"{SOURCE_WEIGHTS['text']})")
    for column in ("RRF k", "text weight", "tuning 0-4", "held-out 5-9", "all"):
        table.add_column(column, justify="right")
    for k, w in grid:
        mark = " (best on 0-4)" if (k, w) == best else ""
        table.add_row(str(k), f"{w}{mark}", f"{tuned[(k, w)]:.1f}",
                      f"{recall(asked, lambda a, k=k, w=w: fused(a, k, w, DEPTH), only=held):.1f}",
                      f"{recall(asked, lambda a, k=k, w=w: fused(a, k, w, DEPTH)):.1f}")
    console.print(table)

    depths = Table(title="Candidate depth: how deep each source's list goes into the fusion (Lore's k and "
                         "weights), and what a fused search costs at that depth (in process, this store). "
                         f"Each source alone finds evidence in its top 50 for: vector "
                         f"{recall(asked, lambda a: a.lists['vector'], at=50):.1f} %, text "
                         f"{recall(asked, lambda a: a.lists['text'], at=50):.1f} %")
    for column in ("depth", "fused any@10", "fused any@50", "search p50 ms", "search p95 ms"):
        depths.add_column(column, justify="right")
    questions = [(a.user, a.question) for a in asked[::max(len(asked) // 200, 1)]]
    for depth in DEPTHS:
        at_depth = _at_depth(depth)
        seconds = _timed_searches(lore, questions, depth)
        depths.add_row(str(depth), f"{recall(asked, at_depth):.1f}", f"{recall(asked, at_depth, at=50):.1f}",
                       f"{1000 * statistics.median(seconds):.1f}",
                       f"{1000 * statistics.quantiles(seconds, n=20)[18]:.1f}")
    console.print(depths)


def _at_depth(depth: int) -> Callable[[Asked], list[str]]:
    return lambda a: fused(a, RRF_K, SOURCE_WEIGHTS["text"], depth)


def _timed_searches(lore: Lore, questions: list[tuple[str, str]], depth: int) -> list[float]:
    before, lore.search.depth = lore.search.depth, depth
    try:
        seconds = []
        for user, question in questions:
            started = time.perf_counter()
            lore.search.search(user, question, Window(valid_at=None, known_at=None), limit=10,
                               types=("message",))
            seconds.append(time.perf_counter() - started)
        return seconds
    finally:
        lore.search.depth = before
