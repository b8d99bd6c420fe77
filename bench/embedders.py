"""Each offline embedder's speed on LoCoMo's sentences: turns embedded a second in batches (as
Lore embeds what it records), and the latency of one query alone (as a search embeds it, before
any cache). Quality is bench.retrieval's (its cosine baselines, one per embedder).

    python -m bench.embedders                        # local, e5-small-v2, bge-small-en-v1.5
    python -m bench.embedders --turns 200 --queries 20
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from bench.retrieval import CATEGORIES, load_locomo, turn_text
from infra.embedding import open_embedder
from infra.embedding.port import embed_queries
from infra.settings import Settings

console = Console(width=150)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="local,e5-small-v2,bge-small-en-v1.5")
    parser.add_argument("--turns", type=int, default=2_000, help="turns embedded in batches")
    parser.add_argument("--queries", type=int, default=200, help="questions embedded one at a time")
    args = parser.parse_args()
    conversations = load_locomo(10)
    turns = [turn_text(t) for conv in conversations for key, session in conv["conversation"].items()
             if key.startswith("session_") and isinstance(session, list) for t in session][:args.turns]
    questions = [q["question"] for conv in conversations for q in conv["qa"]
                 if q["category"] in CATEGORIES][:args.queries]
    table = Table(title=f"Embedders on this machine: {len(turns):,} LoCoMo turns in batches, "
                        f"{len(questions):,} questions one at a time")
    for column in ("embedder", "turns/s (batches)", "one query p50 ms", "one query p95 ms"):
        table.add_column(column, justify="right")
    for name in args.models.split(","):
        model = open_embedder(Settings(embedder=name))
        assert model is not None
        model.embed(turns[:32])  # load and warm up
        started = time.perf_counter()
        model.embed(turns)
        rate = len(turns) / (time.perf_counter() - started)
        seconds = []
        for question in questions:
            started = time.perf_counter()
            embed_queries(model, [question])
            seconds.append(time.perf_counter() - started)
        table.add_row(model.model, f"{rate:.0f}", f"{1000 * statistics.median(seconds):.1f}",
                      f"{1000 * statistics.quantiles(seconds, n=20)[18]:.1f}")
        console.log(f"{model.model}: {rate:.0f} turns/s")
    console.print(table)


if __name__ == "__main__":
    main()
