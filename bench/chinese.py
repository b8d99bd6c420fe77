"""Retrieval in Chinese (issue 31), on Lore's own Chinese chats (bench/zhchats), in one run:

    python -m bench.chinese                  # Lore in zh, the baselines, then Lore with the English defaults
    python -m bench.chinese --people 1 --no-english      # smoke

Every session of bench/zhchats is recorded through Lore's HTTP API as an episode with its date
and ended (so that memories are formed and sessions summarized), then each question is searched.
Reported per part — tuning (01-03, where the Chinese settings were chosen) and held out (04-06,
only reported) — and per category: recall_any@5, recall_any@10, recall_all@10 and NDCG@10 of the
evidence turns, for
- Lore with LORE_LANGUAGE=zh (its default search over memories and turns; turns only; each
  source alone), with bge-small-zh-v1.5;
- baselines on the same turns, measured in the same run: BM25 (bm25s) on jieba's words (the turn
  alone, and the turn in its context as Lore's text source reads it) and a brute-force cosine
  scan with bge-small-zh-v1.5;
- Lore with the English defaults (LORE_LANGUAGE=en, e5-small-v2, the English rules): what a
  Chinese speaker got before issue 31.
`--blocks` also builds one `/context` block per question in the zh store (as the service builds it)
and reports how often an answer-bearing item (an evidence turn, or a memory extracted from one) is
among its relevant items, and how often the block holds the evidence at all (there, in a memory of
its always-on or to-do sections, or in a recent session's summary it shows).
`--analyzer cjk` runs Lore in zh with the alternative that issue 31 measured against jieba:
Neo4j's `cjk` analyzer (bigrams) over the same texts, and BM25 on bigrams.

Needs Neo4j at LORE_NEO4J_URI (`lore infra up`, or a stack of the benchmark's own). It wipes
that database, and drops its vector and language indexes between the runs.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import bm25s
from fastapi.testclient import TestClient
from rich.progress import track
from rich.table import Table

from bench import chats
from bench.context import referred, sources
from bench.retrieval import (
    DEFAULT,
    TURNS,
    Person,
    Ranker,
    ask,
    console,
    cosine_ranker,
    lore_ranker,
    print_tables,
    record,
    turn_ids,
    turn_texts,
)
from domain.retrieval.turn_context import said_on_zh, turn_contexts
from domain.text import chinese
from infra.embedding import open_embedder
from infra.embedding.port import Embedder
from infra.settings import Settings
from projections.graph.schema import drop_language_indexes, drop_vector_indexes
from services.api import create_app
from services.bootstrap import Lore, bootstrap
from services.selection import informative

FOLDER = Path(__file__).resolve().parent / "zhchats"
TUNING, HELD_OUT = "zhchats 01-03 (tuning)", "zhchats 04-06 (held out)"
ENGLISH = "lore, English defaults (en, e5-small-v2): default"
K = 10


def people(count: int) -> list[Person]:
    found = []
    for n, chat in enumerate(chats.load(FOLDER)[:count]):
        person = Person(f"zhchats-{chat.person}", TUNING if n < 3 else HELD_OUT)
        for session in chat.sessions:
            person.sessions.append((f"session-{session.number}", [
                {"role": t.role, "content": t.text, "timestamp": t.at.replace(tzinfo=None).isoformat() + "Z"}
                for t in session.turns], [t.id for t in session.turns]))
        person.questions = [chats_question(q) for q in chat.questions]
        found.append(person)
    return found


def chats_question(q: chats.Question) -> Any:
    from bench.retrieval import Asked
    return Asked(q.category, q.text, set(q.evidence))


def jieba_words(text: str) -> list[str]:
    """jieba's words of a text, lower-cased, without punctuation and the function words Lore leaves
    out of a query: the baseline's tokens."""
    return [w.lower() for w in chinese.segment(text) if w.lower() not in chinese.FUNCTION_WORDS]


def bm25_jieba(turns: dict[str, list[tuple[str, str]]]) -> Ranker:
    indexes = {}
    for user, items in turns.items():
        retriever = bm25s.BM25()
        retriever.index([jieba_words(t) or ["_"] for _, t in items], show_progress=False)
        indexes[user] = retriever

    def rank(user: str, question: str) -> list[str]:
        vocabulary = indexes[user].vocab_dict
        words = [w for w in jieba_words(question) if w in vocabulary]
        if not words:
            return []
        ids, _ = indexes[user].retrieve([words], k=min(K, len(turns[user])), show_progress=False)
        return [turns[user][i][0] for i in ids[0]]
    return rank


def contexts_zh(everyone: list[Person]) -> dict[str, list[tuple[str, str]]]:
    """Each turn in its context as a Chinese store's text source reads it (the day written in Chinese)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for person in everyone:
        found[person.user] = []
        for _, messages, ids in person.sessions:
            days = [datetime.fromisoformat(m["timestamp"]) for m in messages]
            windows = turn_contexts([m["content"] for m in messages], days, said=said_on_zh)
            found[person.user] += list(zip(ids, windows, strict=True))
    return found


def run(settings: Settings, everyone: list[Person], reuse: bool,
        rankers: Callable[[Lore], dict[str, Ranker]],
        blocks: bool = False) -> tuple[dict[str, Ranker], Any, Any]:
    model = open_embedder(settings)
    lore = bootstrap(settings, embedder=model)
    lore.search.ranking = replace(lore.search.ranking, access_weight=0.0)
    if not reuse:
        lore.projector.wipe()
        drop_vector_indexes(lore.driver, settings.neo4j_database)
        drop_language_indexes(lore.driver, settings.neo4j_database)
    with TestClient(create_app(lambda: lore)) as client:
        if not reuse:
            record(client, everyone)
        elif missing := [p.user for p in everyone if not lore.search.queries.counts(p.user).message]:
            # Another run (or a test session on the same Neo4j) wiped it: zeros would look like results.
            raise SystemExit(f"--reuse: the store at {settings.neo4j_uri} holds no turns of "
                             f"{', '.join(missing)}; record it first (run without --reuse)")
        memories = sum(client.get(f"/v1/users/{p.user}/stats").json()["total"] for p in everyone)
        console.print(f"[{settings.language}, {settings.embedder}] extraction "
                      f"({lore.extraction.extractor.name if lore.extraction else 'off'}): {memories} memories"
                      " "
                      f"over {sum(len(ids) for p in everyone for _, _, ids in p.sessions)} turns")
        chosen = rankers(lore)
        totals, counts = ask(everyone, chosen)
        if blocks:
            context_blocks(lore, everyone)
    return chosen, totals, counts


def memories_of(lore: Lore, user: str, dia: dict[tuple[str, int], str]) -> dict[str, tuple[str, set[str]]]:
    """A person's memories: each one's words and the turns (as the questions name them) it came from."""
    records = lore.driver.execute_query(
        "MATCH (m:Memory {user_id: $user}) "
        "RETURN m.memory_id AS id, m.content AS content, m.messages AS refs",
        user=user, database_=lore.settings.neo4j_database).records
    return {r["id"]: (r["content"], set(referred(r["refs"] or [], dia))) for r in records}


def context_blocks(lore: Lore, everyone: list[Person]) -> None:
    """One block per question: is the evidence among its relevant items, or anywhere in it — a
    to-do or always-on memory it shows, or a session summary it shows that names the evidence turn
    in its window or says all that the turn or a memory of it says (the rule by which a block
    leaves an item out as said already: services/selection.py)."""
    dia = turn_ids(everyone)
    said = {turn: m["content"] for p in everyone for _, messages, ids in p.sessions
            for m, turn in zip(messages, ids, strict=True)}
    memories = {p.user: memories_of(lore, p.user, dia) for p in everyone}
    rows: dict[str, list[tuple[int, bool, bool]]] = {}
    asked = [(p, q) for p in everyone for q in p.questions]
    for person, question in track(asked, description="context blocks (zh)", console=console):
        block = lore.context.build(person.user, question.question, [], 1000, datetime.now(UTC))
        among = any(set(sources(h, dia)) & question.evidence for h in block.relevant)
        theirs = memories[person.user]
        in_layer = any(theirs[m.memory_id][1] & question.evidence
                       for m in [*block.always, *block.todos] if m.memory_id in theirs)
        summaries = {s.summary_id: s for s in lore.context.layers.summaries(person.user, limit=100)}
        shown = [summaries[sid] for sid in block.cited("summary") if sid in summaries]
        texts = [said[e] for e in question.evidence] + [
            content for content, turns in theirs.values() if turns & question.evidence]
        in_summary = any(dia.get((r.episode_id, r.position)) in question.evidence
                         for s in shown for r in s.window) or any(
            informative(text) <= informative(s.summary.summary) for s in shown for text in texts)
        rows.setdefault(person.part, []).append((len(block.relevant), among, among or in_layer or in_summary))
    table = Table(title="Context blocks on zhchats (zh): the answer-bearing item among the relevant "
                        "items, and in the block at all (always-on and to-do memories, session "
                        "summaries shown)")
    for column in ("part", "blocks", "relevant items a block", "answer among relevant items",
                   "answer in the block"):
        table.add_column(column, justify="right")
    for part, found in rows.items():
        table.add_row(part, str(len(found)), f"{sum(n for n, _, _ in found) / len(found):.1f}",
                      f"{100 * sum(a for _, a, _ in found) / len(found):.1f} %",
                      f"{100 * sum(b for _, _, b in found) / len(found):.1f} %")
    console.print(table)


def cjk_bigrams_instead() -> None:
    """The alternative measured against jieba (issue 31): the Chinese word indexes made with Neo4j's
    `cjk` analyzer over the texts as said (it cuts them into bigrams), the query asked as said, and
    the BM25 rescoring on the same bigrams."""
    from projections import bm25, keys, search
    from projections.graph import rows, schema

    han = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+|[A-Za-z0-9]+")

    def bigrams(text: str) -> list[str]:
        out: list[str] = []
        for run_ in han.findall(text.lower()):
            if run_[0].isascii():
                out.append(run_)
            else:
                out += [run_[i:i + 2] for i in range(len(run_) - 1)] or [run_]
        return out

    def raw(text: str) -> str | None:
        return text if keys.has_cjk(text) else None

    def terms(text: str, function_words: bool = False, language: str = "en") -> list[str]:
        return bigrams(text)

    def indexed(words: str, function_words: bool, language: str) -> tuple[int, Counter[str]]:
        found = bigrams(words)
        return len(found), Counter(found)

    rows.words_zh = raw  # type: ignore[attr-defined]
    keys.words_zh = raw
    for name, (label, properties, _) in list(schema.LANGUAGE_FULLTEXT["zh"].items()):
        schema.LANGUAGE_FULLTEXT["zh"][name] = (label, properties, "cjk")
    bm25.terms = terms
    bm25._indexed = indexed
    search.chinese_query_words = search.query_words  # the query as said: Lucene cuts it into bigrams


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=6, help="people of bench/zhchats (of 6)")
    parser.add_argument("--english", action=argparse.BooleanOptionalAction, default=True,
                        help="also Lore with the English defaults (a second recording)")
    parser.add_argument("--reuse", action="store_true", help="search the zh store an earlier run left "
                        "(no wipe, nothing recorded; implies --no-english)")
    parser.add_argument("--per-source", action="store_true", help="also each source of Lore alone")
    parser.add_argument("--blocks", action="store_true", help="also one /context block per question (zh)")
    parser.add_argument("--analyzer", choices=("jieba", "cjk"), default="jieba",
                        help="the Chinese word indexes: jieba's words (Lore's), or Neo4j's cjk bigrams")
    args = parser.parse_args()
    if args.analyzer == "cjk":
        cjk_bigrams_instead()
    everyone = people(args.people)
    home = Path(tempfile.mkdtemp(prefix="lore-chinese-"))
    zh = Settings(home=home / "zh", kafka_bootstrap=None, language="zh")
    turns, _ = turn_texts(everyone)
    dia = turn_ids(everyone)
    baseline_model: list[Embedder] = []

    def zh_rankers(lore: Lore) -> dict[str, Ranker]:
        fused = ("vector", "text", "graph")
        found: dict[str, Ranker] = {
            f"{DEFAULT} (zh)": lore_ranker(lore, fused, dia, ("memory", "message")),
            f"{TURNS} (zh)": lore_ranker(lore, fused, dia),
            "lore: memories only (zh)": lore_ranker(lore, fused, dia, ("memory",)),
        }
        if args.per_source:
            found |= {"lore: turns, vector (zh)": lore_ranker(lore, ("vector",), dia),
                      "lore: turns, BM25 (zh)": lore_ranker(lore, ("text",), dia),
                      "lore: graph (zh)": lore_ranker(lore, ("graph",), dia, ("memory", "message"))}
        assert lore.search.embedder is not None
        baseline_model.append(lore.search.embedder)
        return found | {
            "baseline: BM25 (bm25s, jieba), turn alone": bm25_jieba(turns),
            "baseline: BM25 (bm25s, jieba), turn in context": bm25_jieba(contexts_zh(everyone)),
            f"baseline: cosine scan ({lore.search.embedder.model})":
                cosine_ranker(turns, lore.search.embedder),
        }

    rankers, totals, counts = run(zh, everyone, args.reuse, zh_rankers, args.blocks)
    if args.english and not args.reuse:
        english = Settings(home=home / "en", kafka_bootstrap=None, language="en")
        en_rankers, en_totals, _ = run(english, everyone, False, lambda lore: {
            ENGLISH: lore_ranker(lore, ("vector", "text", "graph"), dia, ("memory", "message"))})
        rankers |= en_rankers
        for key, value in en_totals.items():
            totals[key] = value
    print_tables(rankers, totals, counts, [p for p in (TUNING, HELD_OUT) if counts[(p, "overall")]])


if __name__ == "__main__":
    main()
