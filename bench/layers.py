"""The layers on LoCoMo: session summaries, the profile, question synthesis and the context block.

    python -m bench.layers                       # 10 conversations, the offline writers
    python -m bench.layers --conversations 1     # smoke (CI)
    LORE_LLM=openai LORE_LLM_BASE_URL=... python -m bench.layers --llm-sessions 5
                                                 # also a sample summarized by the model

Every session is recorded through the HTTP API and ended, so that it is extracted and summarized
in the background, and the profile follows (each conversation's first speaker is the person,
role user; the other is the assistant). Reported:
- each session's summary against LoCoMo's own `session_summary`: ROUGE-L F1 (rouge-score, with
  stemming) and the cosine of the two (the local MiniLM), mean and median, per summarizer;
- the profile after all sessions of a conversation against LoCoMo's `event_summary` of the
  person: the share of their events that a sentence of the profile says (cosine ≥ 0.6);
- retrieval of evidence turns with question synthesis and without, same run: recall_any@10 and
  NDCG@10, and the latency of the synthesis and of the whole search (median, p95);
- the context block of a LoCoMo speaker at budgets of 500, 1,000 and 2,000 tokens, printed.
Runs on a Neo4j of its own (bench/stack.py), or on --neo4j-uri, which it wipes.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta

import numpy as np
from fastapi.testclient import TestClient
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rouge_score import rouge_scorer

from bench import stack
from bench.retrieval import (
    CATEGORIES,
    load_locomo,
    locomo_people,
    record,
    scores,
    session_time,
    turn_text,
)
from domain.commands import Message
from infra.embedding.local import LocalMiniLM
from infra.llm import open_llm
from infra.settings import Settings
from projections.search import Window
from services.api import create_app
from services.bootstrap import Lore, bootstrap
from services.layers.writers import EXTRACTIVE, LLMSummarizer, OfflineSummarizer
from services.questions import LLMQuestions, OfflineExpansion, QuestionSynthesizer

console = Console(width=160)
EVENT_COSINE = 0.6
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?]?")


def wait_for_layers(lore: Lore) -> None:
    """Until no summary or profile version is due: the layers process works in the background."""
    with Progress(console=console) as progress:
        task = progress.add_task("summaries and profiles", total=None)
        while True:
            due = len(lore.layer_queries.due_summaries(None, limit=1000))
            profiles = len(lore.layer_queries.due_profiles(None, limit=1000))
            progress.update(task, description=f"summaries due: {due}, profiles due: {profiles}")
            if not due and not profiles:
                return
            time.sleep(0.5)


def session_messages(conv: dict, n: int) -> list[Message]:
    c = conv["conversation"]
    when = session_time(c[f"session_{n}_date_time"])
    return [
        Message(
            role="user" if t["speaker"] == c["speaker_a"] else "assistant",
            content=turn_text(t),
            timestamp=when + timedelta(seconds=i),
        )
        for i, t in enumerate(c[f"session_{n}"])
    ]


def cosine(model: LocalMiniLM, a: list[str], b: list[str]) -> np.ndarray:
    x = np.array(model.embed(a), dtype=np.float32)
    y = np.array(model.embed(b), dtype=np.float32)
    return x @ y.T


def summary_quality(lore: Lore, model: LocalMiniLM, data: list[dict], llm_sessions: int) -> None:
    rouge = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    rows: dict[str, list[tuple[float, float]]] = defaultdict(list)
    sample: list[tuple[dict, int]] = []
    for conv in data:
        user = f"locomo-{conv['sample_id']}"
        made = {s.session_id: s.summary.summary for s in lore.layer_queries.summaries(user, limit=1000)}
        for key, reference in conv["session_summary"].items():
            n = int(key.split("_")[1])
            sample.append((conv, n))
            if f"session-{n}" in made:
                ours = made[f"session-{n}"]
                rows[f"offline ({EXTRACTIVE}), every session"].append(
                    (
                        rouge.score(reference, ours)["rougeL"].fmeasure,
                        float(cosine(model, [reference], [ours])[0, 0]),
                    )
                )
    settings = Settings()
    llm = open_llm(settings) if llm_sessions else None
    if llm is not None:
        writer = LLMSummarizer(llm, settings.llm_context_tokens, settings.llm_max_answer_tokens)
        offline = OfflineSummarizer()
        for conv, n in sample[:llm_sessions]:
            reference = conv["session_summary"][f"session_{n}_summary"]
            messages = session_messages(conv, n)
            started = time.perf_counter()
            written = writer.summarize(messages, messages[-1].timestamp or datetime.now(UTC))
            took = time.perf_counter() - started
            for name, text in (
                (
                    f"{llm.model}, first {llm_sessions}",
                    written.value.summary  # type: ignore[union-attr]
                    if not written.fallback
                    else None,
                ),
                (
                    f"offline, the same {llm_sessions}",
                    offline.summarize(messages, datetime.now(UTC)).value.summary,
                ),
            ):  # type: ignore[union-attr]
                if text:
                    rows[name].append(
                        (
                            rouge.score(reference, text)["rougeL"].fmeasure,
                            float(cosine(model, [reference], [text])[0, 0]),
                        )
                    )
            console.print(
                f"{conv['sample_id']} session {n}: {took:.0f} s, "
                f"{written.prompt_tokens + written.completion_tokens} tokens"
                + (f", fell back: {written.failure}" if written.fallback else "")
            )
    table = Table(title="Session summaries against LoCoMo's session_summary")
    for column in ("summarizer", "sessions", "ROUGE-L F1 mean", "median", "cosine mean", "median"):
        table.add_column(column, justify="right" if column != "summarizer" else "left")
    for name, pairs in rows.items():
        r, c = [p[0] for p in pairs], [p[1] for p in pairs]
        table.add_row(
            name,
            str(len(pairs)),
            f"{statistics.mean(r):.3f}",
            f"{statistics.median(r):.3f}",
            f"{statistics.mean(c):.3f}",
            f"{statistics.median(c):.3f}",
        )
    console.print(table)


def profile_coverage(lore: Lore, model: LocalMiniLM, data: list[dict]) -> None:
    table = Table(
        title=f"The profile after all sessions against LoCoMo's event_summary of the person "
        f"(cosine ≥ {EVENT_COSINE} with a sentence of it)"
    )
    for column in ("conversation", "person", "version", "profile tokens", "events", "mentioned"):
        table.add_column(column, justify="right" if column not in ("conversation", "person") else "left")
    total = found = 0
    for conv in data:
        user = f"locomo-{conv['sample_id']}"
        person = conv["conversation"]["speaker_a"]
        events = [e for session in conv["event_summary"].values() for e in session.get(person, [])]
        versions = lore.layer_queries.profiles(user)
        narrative = versions[0].narrative if versions else ""
        sentences = [s.strip() for s in _SENTENCE.findall(narrative) if len(s.strip()) > 3]
        hit = 0
        if events and sentences:
            hit = int((cosine(model, events, sentences).max(axis=1) >= EVENT_COSINE).sum())
        total, found = total + len(events), found + hit
        table.add_row(
            conv["sample_id"],
            person,
            str(versions[0].version if versions else 0),
            str(lore.context.counter.count(narrative)),
            str(len(events)),
            f"{100 * hit / max(len(events), 1):.1f} %",
        )
    table.add_row("all", "", "", "", str(total), f"{100 * found / max(total, 1):.1f} %")
    console.print(table)


def retrieval_with_questions(
    lore: Lore, data: list[dict], synthesizer: QuestionSynthesizer, limit: int
) -> None:
    dia: dict[tuple[str, int], str] = {}
    for conv in data:
        user = f"locomo-{conv['sample_id']}"
        n = 1
        while f"session_{n}" in conv["conversation"]:
            for i, t in enumerate(conv["conversation"][f"session_{n}"]):
                dia[(f"{user}-s{n}", i)] = t["dia_id"]
            n += 1
    questions = [
        (f"locomo-{conv['sample_id']}", q)
        for conv in data
        for q in conv["qa"]
        if q["category"] in CATEGORIES and q.get("evidence")
    ][: limit or None]
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    timings: dict[str, list[float]] = defaultdict(list)
    window = Window(valid_at=None, known_at=None)
    with Progress(console=console) as progress:
        task = progress.add_task("asking LoCoMo questions, with and without synthesis", total=len(questions))
        for user, qa in questions:
            evidence = {e.strip() for e in qa["evidence"]}
            for name, synthesize in (("without", False), (f"with ({synthesizer.name})", True)):
                started = time.perf_counter()
                also = tuple(synthesizer.questions(qa["question"])) if synthesize else ()
                asked = time.perf_counter()
                hits = lore.search.search(
                    user, qa["question"], window, limit=10, types=("message",), also=also
                )
                done = time.perf_counter()
                if synthesize:
                    timings["synthesis"].append(asked - started)
                timings[name].append(done - started)
                ranked = [dia[(h.fields["episode_id"], h.fields["position"])] for h in hits]
                for metric, value in scores(ranked, evidence).items():
                    totals[name][metric] += value
            progress.advance(task)
    table = Table(
        title=f"LoCoMo evidence turns, with question synthesis and without ({len(questions):,} questions, "
        "same run)"
    )
    for column in ("search", "recall_any@10", "NDCG@10", "latency median (ms)", "p95 (ms)"):
        table.add_column(column, justify="right" if column != "search" else "left")
    for name in totals:
        ms = sorted(1000 * t for t in timings[name])
        table.add_row(
            name,
            f"{100 * totals[name]['any@10'] / len(questions):.1f}",
            f"{100 * totals[name]['ndcg@10'] / len(questions):.1f}",
            f"{statistics.median(ms):.1f}",
            f"{ms[int(0.95 * (len(ms) - 1))]:.1f}",
        )
    synthesis = sorted(1000 * t for t in timings["synthesis"])
    table.add_row(
        "  of which synthesis",
        "",
        "",
        f"{statistics.median(synthesis):.2f}",
        f"{synthesis[int(0.95 * (len(synthesis) - 1))]:.2f}",
    )
    console.print(table)


def context_blocks(client: TestClient, conv: dict) -> None:
    user = f"locomo-{conv['sample_id']}"
    question = next(q["question"] for q in conv["qa"] if q["category"] in CATEGORIES)
    for budget in (500, 1000, 2000):
        block = client.post(
            f"/v1/users/{user}/context", json={"message": question, "token_budget": budget}
        ).json()
        console.rule(
            f"context block of {conv['conversation']['speaker_a']} ({user}), budget {budget}: "
            f"{block['tokens']} tokens ({block['tokenizer']}), sections "
            f"{', '.join(s['name'] for s in block['sections'])}; {block['timings_ms']}"
        )
        console.print(block["text"], markup=False, highlight=False)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--conversations", type=int, default=10, help="LoCoMo conversations (of 10)")
    parser.add_argument("--questions", type=int, default=0, help="at most this many questions (0: all)")
    parser.add_argument(
        "--llm-sessions",
        type=int,
        default=0,
        help="also summarize the first N sessions with the model of LORE_LLM (0: none)",
    )
    parser.add_argument(
        "--llm-questions",
        action="store_true",
        help="synthesize questions with the model of LORE_LLM (else the offline expansion)",
    )
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "layers") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    settings = servers.settings(
        home=servers.home,
        layers="offline",
        questions="offline",
        llm="none",
        extraction_poll_s=0.1,
    )
    model = LocalMiniLM()
    lore = bootstrap(settings, embedder=model)
    lore.projector.wipe()
    data = load_locomo(args.conversations)
    with TestClient(create_app(lambda: lore)) as client:
        record(client, locomo_people(args.conversations))
        wait_for_layers(lore)
        summary_quality(lore, model, data, args.llm_sessions)
        profile_coverage(lore, model, data)
        synthesizer: QuestionSynthesizer = OfflineExpansion()
        if args.llm_questions:
            llm = open_llm(Settings())
            if llm is None:
                raise SystemExit("--llm-questions needs LORE_LLM=openai and LORE_LLM_BASE_URL")
            synthesizer = LLMQuestions(llm)
        retrieval_with_questions(lore, data, synthesizer, args.questions)
        context_blocks(client, data[0])


if __name__ == "__main__":
    main()
