"""Which window of turns to read a turn in: LoCoMo's evidence turns found in the top 10 (recall_any@10)
by BM25 (bm25s) over each turn read with the turns around it, as domain/retrieval/turn_context.py
builds them, and by e5-small-v2 cosine over the turn alone or in its window; and the two fused by
reciprocal rank (k=10), as Lore fuses them. Offline: no Neo4j, no Lore.

    python -m bench.turn_windows                  # all 10 conversations (embeds ~18,000 texts: minutes)
    python -m bench.turn_windows --conversations 2
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import datetime

import bm25s
import numpy as np
from rich.console import Console
from rich.table import Table

from bench.retrieval import CATEGORIES, load_locomo, session_time, turn_text
from domain.retrieval.turn_context import turn_contexts
from infra.embedding import open_embedder
from infra.embedding.port import embed_queries
from infra.settings import Settings

console = Console(width=150)
WINDOWS = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 3))
VECTOR_WINDOWS = ((0, 0), (1, 0), (2, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--embedder", default="e5-small-v2")
    args = parser.parse_args()
    sessions, questions = [], []
    for n, conv in enumerate(load_locomo(args.conversations)):
        c = conv["conversation"]
        s = 1
        while f"session_{s}" in c:
            turns = c[f"session_{s}"]
            sessions.append((n, [t["dia_id"] for t in turns], [turn_text(t) for t in turns],
                             session_time(c[f"session_{s}_date_time"])))
            s += 1
        questions += [(n, q["question"], {e.strip() for e in q["evidence"]}, q["category"])
                      for q in conv["qa"] if q["category"] in CATEGORIES and q.get("evidence")]
    embedder = open_embedder(Settings(embedder=args.embedder))
    assert embedder is not None
    asked = np.array(embed_queries(embedder, [q for _, q, _, _ in questions]), dtype=np.float32)
    rankings: dict[str, list[list[str]]] = {}
    for before, after in WINDOWS:
        ids, texts = _read(sessions, before, after)
        rankings[f"BM25, {before} before {after} after"] = _bm25(ids, texts, questions)
    for before, after in VECTOR_WINDOWS:
        ids, texts = _read(sessions, before, after)
        console.log(f"embedding {sum(len(t) for t in texts.values()):,} turns, {before} before {after} after")
        vectors = {n: np.array(embedder.embed(t), dtype=np.float32) for n, t in texts.items()}
        rankings[f"cosine ({embedder.model}), {before} before {after} after"] = _cosine(
            ids, vectors, questions, asked)
    cosine = rankings[f"cosine ({embedder.model}), 0 before 0 after"]
    for before, after in WINDOWS:
        bm25 = rankings[f"BM25, {before} before {after} after"]
        rankings[f"fused: cosine of the turn + BM25 {before} before {after} after"] = [
            _rrf([a, b]) for a, b in zip(cosine, bm25, strict=True)]
    table = Table(title=f"LoCoMo recall_any@10 by the window a turn is read in "
                        f"({len(questions):,} questions)")
    table.add_column("read as")
    groups = ["overall", *CATEGORIES.values()]
    for group in groups:
        table.add_column(group, justify="right")
    for name, ranked in rankings.items():
        hits: dict[str, list[float]] = {g: [] for g in groups}
        for (_, _, evidence, category), top in zip(questions, ranked, strict=True):
            found = float(bool(set(top[:10]) & evidence))
            hits["overall"].append(found)
            hits[CATEGORIES[category]].append(found)
        table.add_row(name, *(f"{100 * sum(v) / max(len(v), 1):.1f}" for v in hits.values()))
    console.print(table)


def _read(sessions: Sequence[tuple[int, list[str], list[str], datetime]], before: int,
          after: int) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    ids: dict[int, list[str]] = {}
    texts: dict[int, list[str]] = {}
    for conversation, dia, turns, when in sessions:
        ids.setdefault(conversation, []).extend(dia)
        texts.setdefault(conversation, []).extend(turn_contexts(turns, [when] * len(turns), before, after)
                                                  if (before, after) != (0, 0) else turns)
    return ids, texts


def _bm25(ids: dict[int, list[str]], texts: dict[int, list[str]],
          questions: list[tuple[int, str, set[str], int]]) -> list[list[str]]:
    indexes = {}
    for n, docs in texts.items():
        indexes[n] = bm25s.BM25()
        indexes[n].index(bm25s.tokenize(docs, stopwords="en", show_progress=False), show_progress=False)
    out = []
    for n, question, _, _ in questions:
        found, scores = indexes[n].retrieve(bm25s.tokenize([question], stopwords="en", show_progress=False),
                                            k=min(50, len(ids[n])), show_progress=False)
        out.append([ids[n][i] for i, s in zip(found[0], scores[0], strict=True) if s > 0])
    return out


def _cosine(ids: dict[int, list[str]], vectors: dict[int, np.ndarray],
            questions: list[tuple[int, str, set[str], int]], asked: np.ndarray) -> list[list[str]]:
    return [[ids[n][i] for i in np.argsort(-(vectors[n] @ asked[q]))[:50]]
            for q, (n, _, _, _) in enumerate(questions)]


def _rrf(lists: list[list[str]], k: int = 10) -> list[str]:
    score: dict[str, float] = {}
    for ranked in lists:
        for rank, d in enumerate(ranked, start=1):
            score[d] = score.get(d, 0.0) + 1 / (k + rank)
    return sorted(score, key=lambda d: -score[d])


if __name__ == "__main__":
    main()
