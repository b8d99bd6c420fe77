"""Retrieval quality on public data, through Lore's public write path (HTTP) and its search.

    python -m bench.retrieval                      # LoCoMo + FactConsolidation, all sizes
    python -m bench.retrieval --conversations 2 --fc-sizes 6k   # smoke (CI)

LoCoMo (shared/benchmarks/locomo): every session is recorded as an episode with its date; each
question (category 5, adversarial, left out) is searched over the turns. Reported per category:
recall_any@5, recall_any@10, recall_all@10 and NDCG@10 of the evidence turns, for each source
alone, fused, and two baselines measured in the same run on the same turns: BM25 (bm25s) and a
brute-force cosine scan with the same embedder.

FactConsolidation (MemoryAgentBench, FC-SH): numbered facts, a later one overriding an earlier
conflicting one, recorded in order one day apart — as memories, and (--fc-through extraction) as
what a person says in a conversation, turned into memories by the extractor, the search then
over memories and turns; per file, how often the top hit is the latest fact (it holds a gold
answer) and recall@5 of it.
Runs on a Neo4j of its own (bench/stack.py), or on --neo4j-uri, which it wipes.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import bm25s
import numpy as np
from fastapi.testclient import TestClient
from rich.console import Console
from rich.progress import track
from rich.table import Table

from bench import fusion, stack
from domain.retrieval.turn_context import turn_contexts
from infra.embedding.port import Embedder, embed_queries, open_embedder
from infra.settings import Settings
from projections.search import Window
from services.api import create_app
from services.bootstrap import Lore, bootstrap

console = Console(width=160)
REPO = Path(__file__).resolve().parents[1]


def data_folder() -> Path:
    """The public benchmark data: LORE_BENCHMARK_DATA, or the team's shared/benchmarks beside
    (or inside) this checkout."""
    named = os.environ.get("LORE_BENCHMARK_DATA")
    candidates = [Path(named)] if named else [REPO.parent / "shared" / "benchmarks",
                                              REPO / "shared" / "benchmarks"]
    for folder in candidates:
        if (folder / "locomo" / "locomo10.json").exists():
            return folder
    raise SystemExit(f"benchmark data not found in {', '.join(map(str, candidates))}: "
                     "set LORE_BENCHMARK_DATA to the folder holding locomo/ and "
                     "memoryagentbench_factconsolidation_sh/")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
K = 10
Ranker = Callable[[str, str], list[str]]  # (user, question) -> dia_ids, best first


def session_time(text: str) -> datetime:
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turn_text(turn: dict) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares {turn['blip_caption']}]"
    return text


def load_locomo(limit: int) -> list[dict]:
    return json.loads((data_folder() / "locomo" / "locomo10.json").read_text())[:limit]


def ingest_locomo(client: TestClient, conversations: list[dict]
                  ) -> tuple[dict[str, list[tuple[str, str]]], dict[str, list[tuple[str, str]]]]:
    """Every session as an episode through the HTTP API; per user, the (dia_id, text) of each turn,
    and of each turn in its context (as Lore's text source reads it, for the BM25 baseline)."""
    turns: dict[str, list[tuple[str, str]]] = {}
    in_context: dict[str, list[tuple[str, str]]] = {}
    for conv in track(conversations, description="recording LoCoMo sessions", console=console):
        user = f"locomo-{conv['sample_id']}"
        c = conv["conversation"]
        turns[user], in_context[user] = [], []
        n = 1
        while f"session_{n}" in c:
            when = session_time(c[f"session_{n}_date_time"])
            messages = [{"role": "user" if t["speaker"] == c["speaker_a"] else "assistant",
                         "content": turn_text(t), "timestamp": (when + timedelta(seconds=i)).isoformat()}
                        for i, t in enumerate(c[f"session_{n}"])]
            response = client.post(f"/v1/users/{user}/episodes", params={"wait": "true"}, json={
                "session_id": f"session-{n}", "episode_id": f"{user}-s{n}", "messages": messages,
                "command_id": f"{user}-s{n}"})
            assert response.status_code == 202, response.text
            turns[user] += [(t["dia_id"], turn_text(t)) for t in c[f"session_{n}"]]
            contexts = turn_contexts([m["content"] for m in messages],
                                     [datetime.fromisoformat(m["timestamp"]) for m in messages])
            in_context[user] += [(t["dia_id"], text)
                                 for t, text in zip(c[f"session_{n}"], contexts, strict=True)]
            n += 1
    return turns, in_context


def lore_ranker(lore: Lore, sources: tuple[str, ...], dia: dict[tuple[str, int], str],
                types: tuple[str, ...] = ("message",)) -> Ranker:
    """Lore's search; a memory hit counts through the turns it was extracted from, in order."""
    def rank(user: str, question: str) -> list[str]:
        hits = lore.search.search(user, question, Window(valid_at=None, known_at=None), limit=K,
                                  sources=sources, types=types)  # type: ignore[arg-type]
        ranked: list[str] = []
        for hit in hits:
            if "position" in hit.fields:
                found = [dia[(hit.fields["episode_id"], hit.fields["position"])]]
            else:
                found = [dia[(ref.rpartition("#")[0], int(ref.rpartition("#")[2]))]
                         for ref in hit.fields.get("messages") or []]
            ranked += [d for d in found if d not in ranked]
        return ranked[:K]
    return rank


def end_sessions(client: TestClient, conversations: list[dict]) -> dict[str, int]:
    """Every session ended, so that what it says is extracted; how the extractions went."""
    outcome: dict[str, int] = defaultdict(int)
    for conv in track(conversations, description="extracting LoCoMo sessions", console=console):
        user = f"locomo-{conv['sample_id']}"
        n = 1
        while f"session_{n}" in conv["conversation"]:
            response = client.post(f"/v1/users/{user}/sessions/session-{n}/end", params={"wait": "true"})
            assert response.status_code == 202, response.text
            n += 1
        for state, figures in client.get(f"/v1/users/{user}/stats").json()["extractions"].items():
            outcome[state] += figures["extractions"]
        outcome["memories"] += client.get(f"/v1/users/{user}/stats").json()["total"]
    return outcome


def bm25_ranker(turns: dict[str, list[tuple[str, str]]]) -> Ranker:
    indexes = {}
    for user, items in turns.items():
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenize([t for _, t in items], stopwords="en", show_progress=False),
                        show_progress=False)
        indexes[user] = retriever

    def rank(user: str, question: str) -> list[str]:
        ids, _ = indexes[user].retrieve(bm25s.tokenize([question], stopwords="en", show_progress=False),
                                        k=min(K, len(turns[user])), show_progress=False)
        return [turns[user][i][0] for i in ids[0]]
    return rank


def cosine_ranker(turns: dict[str, list[tuple[str, str]]], model: Embedder) -> Ranker:
    matrices = {user: np.array(model.embed([t for _, t in items]), dtype=np.float32)
                for user, items in track(list(turns.items()), description=f"embedding turns ({model.model})",
                                         console=console)}

    def rank(user: str, question: str) -> list[str]:
        q = np.array(embed_queries(model, [question])[0], dtype=np.float32)
        order = np.argsort(-(matrices[user] @ q))[:K]
        return [turns[user][i][0] for i in order]
    return rank


def scores(ranked: Sequence[str], evidence: set[str]) -> dict[str, float]:
    top5, top10 = set(ranked[:5]), set(ranked[:K])
    dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:K]) if d in evidence)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(evidence), K)))
    return {"any@5": float(bool(top5 & evidence)), "any@10": float(bool(top10 & evidence)),
            "all@10": float(evidence <= top10), "ndcg@10": dcg / ideal if ideal else 0.0}


def run_locomo(lore: Lore, client: TestClient, baselines: list[Embedder], conversations: int) -> None:
    data = load_locomo(conversations)
    turns, in_context = ingest_locomo(client, data)
    extracted = end_sessions(client, data)
    console.print(f"extraction ({lore.extraction.extractor.name if lore.extraction else 'off'}): "
                  f"{extracted['done']:,} extractions done, {extracted['due']:,} still due, "
                  f"{extracted['memories']:,} memories")
    dia = {}
    for user, items in turns.items():
        for dia_id, _ in items:
            session, turn = dia_id[1:].split(":")
            dia[(f"{user}-s{session}", int(turn) - 1)] = dia_id
    model = lore.search.embedder.model if lore.search.embedder else "none"
    rankers: dict[str, Ranker] = {
        f"lore: vector ({model})": lore_ranker(lore, ("vector",), dia),
        "lore: BM25": lore_ranker(lore, ("text",), dia),
        "lore: graph": lore_ranker(lore, ("graph",), dia, ("memory", "message")),
        "lore: fused": lore_ranker(lore, ("vector", "text", "graph"), dia),
        "lore: fused, memories + turns": lore_ranker(lore, ("vector", "text", "graph"), dia,
                                                     ("memory", "message")),
        "baseline: BM25 (bm25s), turn alone": bm25_ranker(turns),
        "baseline: BM25 (bm25s), turn in context": bm25_ranker(in_context),
        **{f"baseline: cosine scan ({b.model})": cosine_ranker(turns, b) for b in baselines},
    }
    questions = [(f"locomo-{conv['sample_id']}", q) for conv in data for q in conv["qa"]
                 if q["category"] in CATEGORIES and q.get("evidence")]
    totals: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, int] = defaultdict(int)
    for user, qa in track(questions, description="asking LoCoMo questions", console=console):
        evidence = {e.strip() for e in qa["evidence"]}
        category = CATEGORIES[qa["category"]]
        counts[category] += 1
        counts["overall"] += 1
        for name, ranker in rankers.items():
            for metric, value in scores(ranker(user, qa["question"]), evidence).items():
                totals[(name, category)][metric] += value
                totals[(name, "overall")][metric] += value
    print_tables(rankers, totals, counts, len(data))
    numbered = {f"locomo-{conv['sample_id']}": n for n, conv in enumerate(data)}
    asked = fusion.gather(lore, [(numbered[user], user, qa["question"], {e.strip() for e in qa["evidence"]})
                                 for user, qa in questions], dia, console)
    fusion.report(lore, asked, console)


def print_tables(rankers: dict[str, Ranker], totals: dict[tuple[str, str], dict[str, float]],
                 counts: dict[str, int], conversations: int) -> None:
    for metric in ("any@5", "any@10", "all@10", "ndcg@10"):
        table = Table(title=f"LoCoMo evidence retrieval, {metric} ({counts['overall']:,} questions, "
                            f"{conversations} conversations)")
        table.add_column("ranker")
        groups = ["overall", *CATEGORIES.values()]
        for group in groups:
            table.add_column(f"{group} ({counts[group]})", justify="right")
        for name in rankers:
            cells = [f"{100 * totals[(name, g)][metric] / max(counts[g], 1):.1f}" for g in groups]
            table.add_row(name, *cells)
        console.print(table)


def run_factconsolidation(lore: Lore, client: TestClient, sizes: list[str],
                          through: str = "memories") -> None:
    """`through`: memories — each fact recorded as a memory; extraction — each fact said by the
    person in a conversation, memories made (or not) by the extractor, search over both."""
    table = Table(title=f"FactConsolidation (FC-SH), recorded as {through}: is the top hit the latest fact?")
    for column in ("file", "facts", "questions", "top-1 latest", "recall@5 latest"):
        table.add_column(column, justify="right")
    start = datetime(2020, 1, 1, tzinfo=UTC)
    for size in sizes:
        row = json.loads((data_folder() / "memoryagentbench_factconsolidation_sh" /
                          f"factconsolidation_sh_{size}.json").read_text())[0]
        facts = [line.split(". ", 1)[1] for line in row["context"].splitlines()[1:] if ". " in line]
        questions = _as_list(row["questions"])
        answers = _as_list(row["answers"])
        user = f"fc-{size}-{through}"
        for i in track(range(0, len(facts), 200), description=f"recording FC {size}", console=console):
            for j, fact in enumerate(facts[i:i + 200], start=i):
                when = (start + timedelta(days=j)).isoformat()
                if through == "extraction":
                    response = client.post(f"/v1/users/{user}/episodes", json={
                        "session_id": "facts", "episode_id": f"fact-{j}", "command_id": f"{user}-{j}",
                        "messages": [{"role": "user", "content": fact, "timestamp": when}]})
                else:
                    response = client.post(f"/v1/users/{user}/memories", json={
                        "content": fact, "kind": "fact", "command_id": f"{user}-{j}", "valid_from": when})
                assert response.status_code == 202, response.text
        types: tuple[str, ...] = ("memory",)
        if through == "extraction":
            ended = client.post(f"/v1/users/{user}/sessions/facts/end", params={"wait": "true"}).json()
            stats = client.get(f"/v1/users/{user}/stats").json()
            console.print(f"FC {size} through extraction: {stats['total']:,} memories, extractions "
                          f"{ {k: v['extractions'] for k, v in stats['extractions'].items()} }, "
                          f"the last one {(ended.get('extraction') or {}).get('status')}")
            types = ("memory", "message")
        top1 = recall5 = 0
        for question, gold in zip(questions, answers, strict=True):
            hits = lore.search.search(user, question, Window(valid_at=None, known_at=None), limit=5,
                                      types=types)  # type: ignore[arg-type]
            texts = [h.fields["content"].lower() for h in hits]
            golds = [g.lower() for g in gold]
            top1 += bool(texts) and any(g in texts[0] for g in golds)
            recall5 += any(g in t for t in texts for g in golds)
        table.add_row(size, f"{len(facts):,}", str(len(questions)), f"{100 * top1 / len(questions):.1f} %",
                      f"{100 * recall5 / len(questions):.1f} %")
    console.print(table)


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else ast.literal_eval(str(value))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=10, help="LoCoMo conversations (of 10)")
    parser.add_argument("--fc-sizes", default="6k,32k,64k,262k", help="FactConsolidation files")
    parser.add_argument("--fc-through", default="memories,extraction",
                        help="how facts are recorded: as memories, and/or said in a conversation "
                        "and extracted")
    parser.add_argument("--embedder", default=None,
                        help="Lore's embedder (default: LORE_EMBEDDER, else Lore's default)")
    parser.add_argument("--baselines", default="local,e5-small-v2,bge-small-en-v1.5",
                        help="embedders of the brute-force cosine baselines (comma list; empty: none)")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "retrieval") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    home = servers.home
    chosen = {"embedder": args.embedder} if args.embedder else {}
    settings = servers.settings(home=home, **chosen)
    model = open_embedder(settings)
    lore = bootstrap(settings, embedder=model)
    lore.projector.wipe()
    baselines = [model if model is not None and name == settings.embedder
                 else open_embedder(Settings(home=home, kafka_bootstrap=None, embedder=name))
                 for name in args.baselines.split(",") if name]
    with TestClient(create_app(lambda: lore)) as client:
        if args.conversations:
            run_locomo(lore, client, [b for b in baselines if b is not None], args.conversations)
        if args.fc_sizes:
            for through in [t for t in args.fc_through.split(",") if t]:
                run_factconsolidation(lore, client, [s for s in args.fc_sizes.split(",") if s], through)


if __name__ == "__main__":
    main()
