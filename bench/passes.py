"""Use that is use: the same questions asked five times over, as an assistant asks them, leave the
ranking as it was (issue 28, item 2).

Each pass asks every question of Lore's own chats (bench/lifechats) the way an assistant does: a
context block for the question (which cites memories: recorded as use, and a citation lifts a
memory a little, boundedly, fading), then the default search, measured (what a search lists keeps
memories from fading but lifts nothing, so it is asked in process here). The use each pass leaves is
flushed to the log before the next. With the ranking's default use weight, recall_any@5/@10 per pass
should not move.

    python -m bench.passes [--passes 5] [--lifechats N]
"""

from __future__ import annotations

import argparse

from fastapi.testclient import TestClient
from rich.console import Console
from rich.progress import track
from rich.table import Table

from bench import chats, stack
from bench.retrieval import lifechat_people, lore_ranker, record, scores, turn_ids
from services.api import create_app
from services.bootstrap import bootstrap

console = Console()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--lifechats", type=int, default=len(chats.load()),
                        help="people of bench/lifechats")
    stack.add_arguments(parser)
    args = parser.parse_args()
    with stack.bench_servers(args, "passes") as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    lore = bootstrap(servers.settings(home=servers.home))
    lore.projector.wipe()
    people = lifechat_people()[:args.lifechats]
    dia = turn_ids(people)
    ranked = lore_ranker(lore, ("vector", "text", "graph"), dia, ("memory", "message"))  # the default search
    table = Table(title=f"The same {sum(len(p.questions) for p in people)} questions, asked again "
                        f"(default search, use weight {lore.search.ranking.access_weight})")
    for column in ("pass", "recall_any@5", "recall_any@10", "memories cited so far"):
        table.add_column(column, justify="right")
    with TestClient(create_app(lambda: lore)) as client:
        record(client, people)
        asked = [(p, q) for p in people for q in p.questions]
        for n in range(1, args.passes + 1):
            at5 = at10 = 0.0
            for person, qa in track(asked, description=f"pass {n}", console=console):
                client.post(f"/v1/users/{person.user}/context", json={"message": qa.question})
                got = scores(ranked(person.user, qa.question), qa.evidence)
                at5, at10 = at5 + got["any@5"], at10 + got["any@10"]
            lore.use.flush()
            listed = [client.get(f"/v1/users/{p.user}/memories", params={"limit": 1000}).json()["items"]
                      for p in people]
            cited = sum(m["cited_count"] for items in listed for m in items)
            table.add_row(str(n), f"{100 * at5 / len(asked):.1f}", f"{100 * at10 / len(asked):.1f}",
                          f"{cited:,}")
    console.print(table)


if __name__ == "__main__":
    main()
