"""Retrieval quality on public data, through Lore's public write path (HTTP) and its search.

    python -m bench.retrieval                      # LoCoMo, lifechats, FactConsolidation
    python -m bench.retrieval --conversations 1 --lifechats 1 --fc-sizes 6k   # smoke (CI)

LoCoMo (shared/benchmarks/locomo) and Lore's own labelled chats (bench/lifechats): every session
is recorded as an episode with its date and ended, so that the offline extractor makes its
memories; each question (LoCoMo's category 5, adversarial, left out) is searched. Reported per
part — LoCoMo 0-4 (where settings are chosen), LoCoMo 5-9 (held out), lifechats (never tuned
on) — and per category: recall_any@5, recall_any@10, recall_all@10 and NDCG@10 of the evidence
turns, for Lore's default search (memories + turns), turns only, memories only, and baselines
measured in the same run on the same turns: BM25 (bm25s) and a brute-force cosine scan. A memory
counts through the turns it was extracted from. The use boost is off (access_weight 0), so that
a question asked earlier cannot move a later one.

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
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import bm25s
import numpy as np
from fastapi.testclient import TestClient
from rich.console import Console
from rich.progress import track
from rich.table import Table

from bench import chats, fusion, stack
from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.model import MemoryKind
from domain.retrieval.turn_context import turn_contexts
from domain.text.languages import language
from infra.embedding import open_embedder
from infra.embedding.port import Embedder, embed_queries
from infra.settings import Settings
from projections.search import Window
from services.api import create_app
from services.bootstrap import Lore, bootstrap
from services.extraction.extractors import Extraction
from services.search import Hit

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
TUNING = range(0, 5)  # LoCoMo conversations settings are chosen on; 5-9 are held out
TUNED, HELD_OUT, OWN = "LoCoMo 0-4 (tuning)", "LoCoMo 5-9 (held out)", "lifechats (never tuned on)"
DEFAULT, TURNS = "lore: default (memories + turns)", "lore: turns only"
K = 10
Ranker = Callable[[str, str], list[str]]  # (user, question) -> dia_ids, best first


def session_time(text: str) -> datetime:
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turn_text(turn: dict) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares {turn['blip_caption']}]"
    return text


class EverySentence:
    """A stress test of the ranking, not an extractor to use: every sentence of five words or more
    the person says becomes a memory of its turn — many memories, most of them weak. Whatever the
    memories are, the default search should not fall below turns only."""

    name = "bench:every-sentence"
    uses_model = False

    def extract(self, messages: Sequence[Message], at: datetime) -> Extraction:
        english = language("en")
        return Extraction([
            Candidate(kind=MemoryKind.FACT, content=sentence, valid_from=message.timestamp or at,
                      confidence=0.9, positions=(position,), extractor=self.name)
            for position, message in enumerate(messages) if message.role == "user"
            for sentence in english.sentences(message.content) if len(sentence.split()) >= 5], self.name)


def load_locomo(limit: int) -> list[dict]:
    return json.loads((data_folder() / "locomo" / "locomo10.json").read_text())[:limit]


@dataclass
class Asked:
    category: str
    question: str
    evidence: set[str]


@dataclass
class Person:
    """One conversation of a data set, as Lore records it: its sessions as episodes, each turn with
    the id the questions name it by."""

    user: str
    part: str                   # the table it is reported in
    # (session id, its messages, the turn ids of its messages)
    sessions: list[tuple[str, list[dict], list[str]]] = field(default_factory=list)
    questions: list[Asked] = field(default_factory=list)


def locomo_people(limit: int) -> list[Person]:
    """LoCoMo's conversations; 0-4 are the ones settings are chosen on, 5-9 are held out."""
    people = []
    for n, conv in enumerate(load_locomo(limit)):
        c = conv["conversation"]
        person = Person(f"locomo-{conv['sample_id']}", TUNED if n in TUNING else HELD_OUT)
        s = 1
        while f"session_{s}" in c:
            when = session_time(c[f"session_{s}_date_time"])
            turns = c[f"session_{s}"]
            person.sessions.append((f"session-{s}", [
                {"role": "user" if t["speaker"] == c["speaker_a"] else "assistant", "content": turn_text(t),
                 "timestamp": (when + timedelta(seconds=i)).isoformat()} for i, t in enumerate(turns)],
                [t["dia_id"] for t in turns]))
            s += 1
        person.questions = [
            Asked(CATEGORIES[q["category"]], q["question"], {e.strip() for e in q["evidence"]})
            for q in conv["qa"] if q["category"] in CATEGORIES and q.get("evidence")]
        people.append(person)
    return people


def lifechat_people() -> list[Person]:
    """Lore's own labelled chats (bench/lifechats): never tuned on, only reported."""
    people = []
    for chat in chats.load():
        person = Person(f"lifechats-{chat.person}", OWN)
        for session in chat.sessions:
            person.sessions.append((f"session-{session.number}", [
                {"role": t.role, "content": t.text, "timestamp": t.at.replace(tzinfo=UTC).isoformat()}
                for t in session.turns], [t.id for t in session.turns]))
        person.questions = [Asked(q.category, q.text, set(q.evidence)) for q in chat.questions]
        people.append(person)
    return people


def record(client: TestClient, people: list[Person]) -> None:
    """Every session as an episode through the HTTP API, then ended, so that what it says is
    extracted (memories) and summarized."""
    for person in track(people, description="recording sessions", console=console):
        for n, (session, messages, _) in enumerate(person.sessions, start=1):
            response = client.post(f"/v1/users/{person.user}/episodes", params={"wait": "true"}, json={
                "session_id": session, "episode_id": f"{person.user}-s{n}", "messages": messages,
                "command_id": f"{person.user}-s{n}"})
            assert response.status_code == 202, response.text
        for session, _, _ in person.sessions:
            response = client.post(f"/v1/users/{person.user}/sessions/{session}/end", params={"wait": "true"})
            assert response.status_code == 202, response.text


Texts = dict[str, list[tuple[str, str]]]   # user -> (turn id, text) of each turn


def turn_texts(people: list[Person]) -> tuple[Texts, Texts]:
    """Per user, the (id, text) of each turn, and of each turn in its context (as Lore's text
    source reads it, for the BM25 baseline)."""
    turns: Texts = {}
    in_context: Texts = {}
    for person in people:
        turns[person.user], in_context[person.user] = [], []
        for _, messages, ids in person.sessions:
            turns[person.user] += [(i, m["content"]) for i, m in zip(ids, messages, strict=True)]
            contexts = turn_contexts([m["content"] for m in messages],
                                     [datetime.fromisoformat(m["timestamp"]) for m in messages])
            in_context[person.user] += list(zip(ids, contexts, strict=True))
    return turns, in_context


def turn_ids(people: list[Person]) -> dict[tuple[str, int], str]:
    """(episode id, position) -> the id the questions name a turn by."""
    return {(f"{p.user}-s{n}", position): turn for p in people
            for n, (_, _, ids) in enumerate(p.sessions, start=1) for position, turn in enumerate(ids)}


def lore_ranker(lore: Lore, sources: tuple[str, ...], dia: dict[tuple[str, int], str],
                types: tuple[str, ...] = ("message",)) -> Ranker:
    """Lore's search; a memory hit counts through the turns it was extracted from, in order."""
    def rank(user: str, question: str) -> list[str]:
        hits = lore.search.search(user, question, Window(valid_at=None, known_at=None), limit=K,
                                  sources=sources, types=types)  # type: ignore[arg-type]
        return turns_of(hits, dia)
    return rank


def turns_of(hits: Sequence[Hit], dia: dict[tuple[str, int], str]) -> list[str]:
    """The turns the hits stand for, in order: a turn itself, or a memory's source turns."""
    ranked: list[str] = []
    for hit in hits:
        if "position" in hit.fields:
            found = [dia[(hit.fields["episode_id"], hit.fields["position"])]]
        else:
            found = [dia[(ref.rpartition("#")[0], int(ref.rpartition("#")[2]))]
                     for ref in hit.fields.get("messages") or []]
        ranked += [d for d in found if d not in ranked]
    return ranked[:K]


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


def rankers_for(lore: Lore, people: list[Person], baselines: list[Embedder],
                per_source: bool) -> dict[str, Ranker]:
    dia = turn_ids(people)
    turns, in_context = turn_texts(people)
    model = lore.search.embedder.model if lore.search.embedder else "none"
    fused = ("vector", "text", "graph")
    rankers: dict[str, Ranker] = {
        DEFAULT: lore_ranker(lore, fused, dia, ("memory", "message")),
        TURNS: lore_ranker(lore, fused, dia),
        "lore: memories only": lore_ranker(lore, fused, dia, ("memory",)),
    }
    if per_source:
        rankers |= {f"lore: turns, vector ({model})": lore_ranker(lore, ("vector",), dia),
                    "lore: turns, BM25": lore_ranker(lore, ("text",), dia),
                    "lore: graph": lore_ranker(lore, ("graph",), dia, ("memory", "message"))}
    return rankers | {
        "baseline: BM25 (bm25s), turn alone": bm25_ranker(turns),
        "baseline: BM25 (bm25s), turn in context": bm25_ranker(in_context),
        **{f"baseline: cosine scan ({b.model})": cosine_ranker(turns, b) for b in baselines},
    }


Totals = dict[tuple[str, str, str], dict[str, float]]   # (part, ranker, category) -> metric -> sum


def ask(people: list[Person], rankers: dict[str, Ranker]) -> tuple[Totals, dict[tuple[str, str], int]]:
    totals: Totals = defaultdict(lambda: defaultdict(float))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    asked = [(p, q) for p in people for q in p.questions]
    for person, qa in track(asked, description="asking the questions", console=console):
        for group in (qa.category, "overall"):
            counts[(person.part, group)] += 1
        for name, ranker in rankers.items():
            for metric, value in scores(ranker(person.user, qa.question), qa.evidence).items():
                for group in (qa.category, "overall"):
                    totals[(person.part, name, group)][metric] += value
    return totals, counts


def print_tables(rankers: dict[str, Ranker], totals: Totals, counts: dict[tuple[str, str], int],
                 parts: list[str], metrics: tuple[str, ...] = ("any@5", "any@10", "all@10", "ndcg@10"),
                 ) -> None:
    for part in parts:
        groups = ["overall", *dict.fromkeys(g for p, g in counts if p == part and g != "overall")]
        for metric in metrics:
            table = Table(title=f"{part}: evidence retrieval, {metric} "
                                f"({counts[(part, 'overall')]:,} questions)")
            table.add_column("ranker")
            for group in groups:
                table.add_column(f"{group} ({counts[(part, group)]})", justify="right")
            for name in rankers:
                table.add_row(name, *(_percent(totals[(part, name, g)][metric], counts[(part, g)])
                                      for g in groups))
            console.print(table)


def _percent(total: float, count: int) -> str:
    return f"{100 * total / max(count, 1):.1f}"


def run_retrieval(lore: Lore, client: TestClient, baselines: list[Embedder], conversations: int,
                  own: int, reuse: bool, fusion_grid: bool) -> None:
    people = locomo_people(conversations) + lifechat_people()[:own]
    if not reuse:
        record(client, people)
    memories = sum(client.get(f"/v1/users/{p.user}/stats").json()["total"] for p in people)
    turns = sum(len(ids) for p in people for _, _, ids in p.sessions)
    console.print(f"extraction ({lore.extraction.extractor.name if lore.extraction else 'off'}): "
                  f"{memories:,} memories over {turns:,} turns")
    rankers = rankers_for(lore, people, baselines, per_source=fusion_grid)
    totals, counts = ask(people, rankers)
    print_tables(rankers, totals, counts, [part for part in (TUNED, HELD_OUT, OWN)
                                           if counts[(part, "overall")]])
    if fusion_grid:
        dia = turn_ids(people)
        numbered = {p.user: n for n, p in enumerate(people)}
        asked = fusion.gather(lore, [(numbered[p.user], p.user, q.question, q.evidence)
                                     for p in people if p.part != OWN for q in p.questions], dia, console)
        fusion.report(lore, asked, console)


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
    parser.add_argument("--lifechats", type=int, default=len(chats.load()),
                        help="people of Lore's own chats (bench/lifechats; 0: none)")
    parser.add_argument("--fusion-grid", action="store_true",
                        help="also each source alone and the fusion settings' grid (LoCoMo)")
    parser.add_argument("--reuse", action="store_true",
                        help="search the store as an earlier run left it (no wipe, nothing recorded)")
    parser.add_argument("--memories", choices=("rules", "every-sentence"), default="rules",
                        help="what makes the memories: the offline extractor, or (a stress test) every "
                        "sentence the person says")
    parser.add_argument("--fc-sizes", default="6k,32k,64k,262k", help="FactConsolidation files")
    parser.add_argument("--fc-through", default="memories,extraction",
                        help="how facts are recorded: as memories, and/or said in a conversation "
                        "and extracted")
    parser.add_argument("--embedder", default=None,
                        help="Lore's embedder (default: LORE_EMBEDDER, else Lore's default)")
    parser.add_argument("--baselines", default="e5-small-v2",
                        help="embedders of the brute-force cosine baselines (comma list; empty: none)")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "retrieval", reuse=args.reuse) as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    home = servers.home
    chosen = {"embedder": args.embedder} if args.embedder else {}
    settings = servers.settings(home=home, **chosen)
    model = open_embedder(settings)
    lore = bootstrap(settings, embedder=model)
    lore.search.ranking = replace(lore.search.ranking, access_weight=0.0)
    if args.memories == "every-sentence" and lore.extraction is not None:
        lore.extraction.extractor = EverySentence()
    if not args.reuse:
        lore.projector.wipe()
    baselines = [model if model is not None and name == settings.embedder
                 else open_embedder(Settings(home=home, kafka_bootstrap=None, embedder=name))
                 for name in args.baselines.split(",") if name]
    with TestClient(create_app(lambda: lore)) as client:
        if args.conversations or args.lifechats:
            run_retrieval(lore, client, [b for b in baselines if b is not None], args.conversations,
                          args.lifechats, args.reuse, args.fusion_grid)
        if args.fc_sizes:
            for through in [t for t in args.fc_through.split(",") if t]:
                run_factconsolidation(lore, client, [s for s in args.fc_sizes.split(",") if s], through)


if __name__ == "__main__":
    main()
