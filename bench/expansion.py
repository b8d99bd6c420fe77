"""Query expansion: the two ways Lore can add wordings to a search, side by side, to keep one.

    python -m bench.expansion --questions 40

Lore's own chats (`bench/lifechats`, never tuned on) are recorded through the HTTP API (offline
extraction); then a sample of their questions is searched as the default search does (memories and
turns, all sources), once per way of widening the query:

- **none**: the question as asked;
- **offline questions**: `services/questions.py`'s offline expansion (what `/context` uses with no
  model: the words that carry the message);
- **model questions**: `LORE_QUESTIONS=llm`, three questions the memory should answer, from a model;
- **model rewordings**: two rewordings of the query from the same model, with the prompt of the
  query rewriter Lore had (`LORE_REWRITER`, removed after this comparison; kept here so that the
  figure can be measured again).

The model is the local llama.cpp server (Qwen2.5-Coder-1.5B, `infra/local/llm.py`): weak and slow
here, so the sample is small and the latencies are this machine's. Printed: recall_any@5/@10 over the
sample and the median milliseconds the widening added per question.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Callable

from fastapi.testclient import TestClient
from openai import OpenAI
from rich.console import Console
from rich.progress import track
from rich.table import Table

from bench import stack
from bench.retrieval import K, lifechat_people, record, scores, turn_ids, turns_of
from infra.llm.openai import OpenAILLM
from infra.local import llm as local_llm
from projections.search import Window
from services.api import create_app
from services.bootstrap import Lore, bootstrap
from services.questions import LLMQuestions, OfflineExpansion

console = Console()

REWRITE = (
    "You rewrite search queries for a personal memory store of notes about one person and their "
    "past conversations. Give {count} alternative wordings of the user's query, each on its own "
    "line: use other words for the same things (synonyms, the likely answer's terms, names spelled "
    "out), keep any dates or names. No numbering, no commentary."
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")


class OpenAIRewriter:
    """The query rewriter Lore had (infra/rewriting, until this benchmark compared it)."""

    def __init__(self, base_url: str | None, api_key: str, model: str, count: int, timeout_s: float) -> None:
        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=0)
        self.model = model
        self.count = count

    def rewrite(self, query: str) -> list[str]:
        response = self._client.chat.completions.create(
            model=self.model, temperature=0,
            messages=[{"role": "system", "content": REWRITE.format(count=self.count)},
                      {"role": "user", "content": query}])
        text = (response.choices[0].message.content or "") if response.choices else ""
        found: dict[str, None] = {}
        for line in text.splitlines():
            wording = _BULLET.sub("", line).strip().strip('"')
            if wording and wording.lower() != query.strip().lower():
                found.setdefault(wording, None)
        return list(found)[:self.count]


def ranked_turns(lore: Lore, dia: dict[tuple[str, int], str], user: str, question: str,
                 also: tuple[str, ...]) -> list[str]:
    hits = lore.search.search(user, question, Window(valid_at=None, known_at=None), limit=K, also=also)
    return turns_of(hits, dia)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=40, help="questions sampled (evenly) of 173")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "expansion") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    lore = bootstrap(servers.settings(home=servers.home, questions="offline"))
    lore.projector.wipe()
    people = lifechat_people()
    dia = turn_ids(people)
    asked = [(p.user, qa.question, qa.evidence) for p in people for qa in p.questions]
    step = max(1, len(asked) // args.questions)
    sample = asked[::step][:args.questions]
    # The app closes `lore` when it stops: everything is asked while it runs.
    with TestClient(create_app(lambda: lore)) as client:
        record(client, people)
        measure(lore, dia, sample, servers)


def measure(lore: Lore, dia: dict[tuple[str, int], str], sample: list[tuple[str, str, set[str]]],
            servers: stack.BenchServers) -> None:
    process, url = local_llm.start(log_file=servers.home / "llama.log")
    try:
        model = OpenAILLM(base_url=url, api_key="none", model=local_llm.MODEL_NAME, timeout_s=300,
                          max_answer_tokens=256)
        rewriter = OpenAIRewriter(base_url=url, api_key="none", model=local_llm.MODEL_NAME, count=2,
                                  timeout_s=300)
        offline, questions = OfflineExpansion(), LLMQuestions(model)
        # What a rewriter returns is searched as `also` is (services/search.py: each wording through
        # every source, fused), so every way is measured through the same call.
        ways: dict[str, Callable[[str], list[str]]] = {
            "none": lambda q: [],
            "offline questions": offline.questions,
            "model questions": questions.questions,
            "model rewordings": rewriter.rewrite,
        }
        table = Table(title=f"{len(sample)} lifechats questions, default search (memories + turns)")
        for column in ("widening", "recall_any@5", "recall_any@10", "median ms added"):
            table.add_column(column, justify="right")
        for name, widen in ways.items():
            at5 = at10 = 0.0
            took = []
            for user, question, evidence in track(sample, description=name, console=console):
                started = time.perf_counter()
                wordings = tuple(widen(question))
                took.append((time.perf_counter() - started) * 1000)
                got = scores(ranked_turns(lore, dia, user, question, wordings), evidence)
                at5, at10 = at5 + got["any@5"], at10 + got["any@10"]
            table.add_row(name, f"{100 * at5 / len(sample):.1f}", f"{100 * at10 / len(sample):.1f}",
                          f"{statistics.median(took):.0f}")
        console.print(table)
    finally:
        process.terminate()
        process.wait(30)


if __name__ == "__main__":
    main()
