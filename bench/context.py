"""Context blocks: how many of their relevant items bear on the question, how many are filler, and
whether the answer is there — and the relevance floor they are built with.

    python -m bench.context --keep-stack   # then --reuse: measure again on the store it left
    python -m bench.context                # records LoCoMo and lifechats first (servers of its own)

1. **The floor, chosen on LoCoMo conversations 0-4.** For each question, the relevant items a
   block would take with no floor (search, then the block's rules); then, for each floor, how
   often an answer-bearing item (an evidence turn, or a memory extracted from one) is still among
   them and how many items are left. Reported for 0-4 and the held-out 5-9.
2. **Blocks on lifechats (never tuned on),** built as `/context` builds them (default floor, the
   offline question synthesis), one per question. Each item of the "Relevant to this message"
   section is labelled by the criteria of bench/lifechats/README.md: relevant (it is, was
   extracted from, or summarizes a session with, a turn of the topic of one of the question's
   evidence turns), filler (a turn marked `~`, or a memory extracted from one), answer-bearing
   (an evidence turn, or a memory extracted from one). `--show N` prints N blocks with their
   labels, to read them by hand.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from fastapi.testclient import TestClient
from rich.console import Console
from rich.progress import track
from rich.table import Table

from bench import chats, stack
from bench.retrieval import HELD_OUT, OWN, TUNED, Person, lifechat_people, locomo_people, record, turn_ids
from infra.embedding import open_embedder
from projections.search import Window
from services.api import create_app
from services.bootstrap import Lore, bootstrap
from services.context import RELEVANT, default_floor
from services.search import Hit
from services.selection import select

console = Console(width=160)
FLOORS = (None, 0.70, 0.72, 0.74, 0.76, 0.78, 0.80, 0.82, 0.84)
MARGINS = (None, 0.10, 0.08, 0.07, 0.06, 0.05, 0.04, 0.03, 0.02)


def sources(hit: Hit, dia: dict[tuple[str, int], str]) -> list[str]:
    """The turn ids an item stands for: a turn itself; a memory, the turns it was extracted from."""
    if hit.type == "message":
        return [dia[(hit.fields["episode_id"], hit.fields["position"])]]
    return referred(hit.fields.get("messages") or [], dia)


def referred(refs: list[str], dia: dict[tuple[str, int], str]) -> list[str]:
    """The turn ids of message references as the graph keeps them (`episode_id#position`)."""
    return [dia[(r.rpartition("#")[0], int(r.rpartition("#")[2]))] for r in refs]


def within(hits: list[Hit], margin: float | None) -> list[Hit]:
    """The hits no more than `margin` below the closest one's cosine (a cut measured, not made)."""
    if margin is None or not hits:
        return hits
    closest = max(h.scores.get("cosine", 0.0) for h in hits)
    return [h for h in hits if h.scores.get("cosine", 0.0) >= closest - margin]


def floor_sweep(lore: Lore, people: list[Person], dia: dict[tuple[str, int], str]) -> None:
    lore_floor = default_floor(lore.search.embedder.model if lore.search.embedder else None)
    window = Window(valid_at=None, known_at=None)
    found: dict[str, list[tuple[set[str], list[Hit]]]] = defaultdict(list)
    asked = [(p, q) for p in people if p.part != OWN for q in p.questions]
    for person, question in track(asked, description="blocks' relevant items, no floor", console=console):
        hits = lore.search.search(person.user, question.question, window, limit=RELEVANT * 2,
                                  types=("memory", "message"), measure=True)
        found[person.part].append((question.evidence, select(hits, [question.question], None, RELEVANT * 2)))
    sweep(found, dia, "floor", "Relevance floor (cosine of an item's own vector to the question): "
          "answer-bearing item among the block's relevant items, and items per block (of at most 10)",
          {"none" if floor is None else f"{floor:.2f}" + (" (Lore)" if floor == lore_floor else ""):
           lambda hits, floor=floor: select(hits, [], floor, RELEVANT) for floor in FLOORS})
    sweep(found, dia, "margin", f"Margin below the closest item's cosine, on top of the floor {lore_floor}: "
          "answer-bearing item among the block's relevant items, and items per block",
          {"none" if margin is None else f"{margin:.3f}":
           lambda hits, margin=margin: select(within(hits, margin), [], lore_floor, RELEVANT)
           for margin in MARGINS})


def sweep(found: dict[str, list[tuple[set[str], list[Hit]]]], dia: dict[tuple[str, int], str], setting: str,
          title: str, cuts: dict[str, Callable[[list[Hit]], list[Hit]]]) -> None:
    """One row a setting: per part, how often an answer-bearing item is among what the cut keeps
    of each block's items, and how many items it keeps."""
    table = Table(title=title)
    for column in (setting, *(f"{part}: {what}" for part in found for what in ("answer there", "items"))):
        table.add_column(column, justify="right")
    for name, cut in cuts.items():
        cells = []
        for blocks in found.values():
            kept = [(evidence, cut(hits)) for evidence, hits in blocks]
            there = sum(any(set(sources(h, dia)) & evidence for h in hits) for evidence, hits in kept)
            cells += [f"{100 * there / len(kept):.1f}", f"{statistics.mean(len(h) for _, h in kept):.1f}"]
        table.add_row(name, *cells)
    console.print(table)


def precision(lore: Lore, people: list[Person], dia: dict[tuple[str, int], str], show: int) -> None:
    turns = {f"lifechats-{c.person}": {t.id: t for t in c.turns()} for c in chats.load()}
    answers = {(f"lifechats-{c.person}", q.text): q.answer for c in chats.load() for q in c.questions}
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    shown = 0
    now = datetime.now(UTC)
    asked = [(p, q) for p in people if p.part == OWN for q in p.questions]
    for person, question in track(asked, description="context blocks of lifechats", console=console):
        block = lore.context.build(person.user, question.question, [], 1000, now)
        chat = turns[person.user]
        topics = {chat[e].topic for e in question.evidence}
        items = block.relevant
        labels = []
        for hit in items:
            ids = [chat[i] for i in sources(hit, dia)]
            labels.append((any(t.topic in topics for t in ids), bool(ids) and all(t.filler for t in ids),
                           any(t.id in question.evidence for t in ids)))
        for group in (question.category, "overall"):
            r = rows[group]
            r["blocks"] += 1
            r["items"] += len(items)
            r["relevant"] += sum(rel for rel, _, _ in labels)
            r["filler"] += sum(fill for _, fill, _ in labels)
            r["answer"] += any(ans for _, _, ans in labels)
        if shown < show:
            shown += 1
            answer = answers[(person.user, question.question)]
            console.print(f"\n[bold]{person.user}: {question.question}[/bold] (answer: {answer})")
            for hit, (rel, fill, ans) in zip(items, labels, strict=True):
                mark = ("A" if ans else "R" if rel else "-") + ("F" if fill else " ")
                console.print(f"  {mark} {hit.type:7} {hit.fields.get('content')!s:.130}")
    floor = default_floor(lore.search.embedder.model if lore.search.embedder else None)
    table = Table(title=f"Context blocks on lifechats (never tuned on): the 'Relevant to this message' "
                        f"section, floor {floor}, at most {RELEVANT} items, budget 1,000 tokens")
    for column in ("questions", "blocks", "items per block", "relevant items", "filler items",
                   "answer-bearing item present"):
        table.add_column(column, justify="right")
    for group in ["overall", *chats.CATEGORIES]:
        r = rows[group]
        table.add_row(group, f"{r['blocks']:.0f}", f"{r['items'] / max(r['blocks'], 1):.1f}",
                      f"{100 * r['relevant'] / max(r['items'], 1):.1f} %", f"{r['filler']:.0f}",
                      f"{100 * r['answer'] / max(r['blocks'], 1):.1f} %")
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=10, help="LoCoMo conversations (of 10)")
    parser.add_argument("--lifechats", type=int, default=6, help="people of bench/lifechats")
    parser.add_argument("--reuse", action="store_true",
                        help="the store an earlier run left (run that one with --keep-stack)")
    parser.add_argument("--show", type=int, default=0, help="print this many lifechats blocks, labelled")
    parser.add_argument("--no-sweep", action="store_true", help="only the lifechats blocks")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "context", reuse=args.reuse) as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    settings = servers.settings(home=servers.home)
    lore = bootstrap(settings, embedder=open_embedder(settings))
    lore.search.ranking = replace(lore.search.ranking, access_weight=0.0)
    people = locomo_people(args.conversations) + lifechat_people()[:args.lifechats]
    dia = turn_ids(people)
    if not args.reuse:
        lore.projector.wipe()
    with TestClient(create_app(lambda: lore)) as client:
        if not args.reuse:
            record(client, people)
        if not args.no_sweep:
            floor_sweep(lore, people, dia)
        precision(lore, people, dia, args.show)
    console.print(f"parts: {TUNED}, {HELD_OUT}, {OWN}")


if __name__ == "__main__":
    main()
