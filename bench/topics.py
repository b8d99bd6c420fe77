"""How well "forget a topic" tells what is about a topic (services/topics.py), by relevance floor.

bench/data/topics.jsonl: topics of my own, each with five things a person might have said about it
and five that share a word or a theme but are not about it. The floor is chosen on the first half
of the topics and reported on the second, which it was not chosen on.

    python -m bench.topics
"""

from __future__ import annotations

import json
from pathlib import Path

from services.topics import RELEVANCE_FLOOR, relevance, said, topic_words

DATA = Path(__file__).parent / "data" / "topics.jsonl"
FLOORS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7)


def judged(rows: list[dict]) -> list[tuple[float, bool]]:
    """(relevance, about it?) for every thing of every topic, the topic's things as the person's."""
    out = []
    for row in rows:
        things = [(t, True) for t in row["about"]] + [(t, False) for t in row["not"]]
        wanted = said(topic_words(row["topic"]), [t for t, _ in things])
        out += [(relevance(wanted, text), about) for text, about in things]
    return out


def scores(pairs: list[tuple[float, bool]], floor: float) -> tuple[float, float]:
    taken = [about for score, about in pairs if score >= floor]
    relevant = sum(about for _, about in pairs)
    precision = sum(taken) / len(taken) if taken else 1.0
    return precision, sum(taken) / relevant


def main() -> None:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    half = len(rows) // 2
    parts = {f"chosen on (topics 1-{half})": rows[:half],
             f"held out (topics {half + 1}-{len(rows)})": rows[half:]}
    print(f"{len(rows)} topics, {sum(len(r['about']) + len(r['not']) for r in rows)} things")
    print("floor   " + "   ".join(f"{name:>28}" for name in parts))
    for floor in FLOORS:
        cells = []
        for part in parts.values():
            p, r = scores(judged(part), floor)
            cells.append(f"precision {p:6.1%} recall {r:6.1%}")
        mark = "  <- default" if floor == RELEVANCE_FLOOR else ""
        print(f"{floor:5.2f}   " + "   ".join(f"{c:>28}" for c in cells) + mark)


if __name__ == "__main__":
    main()
