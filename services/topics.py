"""What a person's memory holds about a topic: Lore's own search, held to a relevance floor.

Forgetting "everything about my old job at Acme" must take what talks about it and leave the rest,
and a person reviews it first (a dry run). The text source finds every memory, turn and session
summary of the person that holds a word of the topic; each is then weighed by how much of the topic
it names: the share of the topic's words it holds, each word weighed by how rare it is in the
language (wordfreq's Zipf frequency: `8 - zipf`), so that a name or an unusual word carries a topic
("Acme" weighs 5.1, "job" 2.5, "old" 2.3) and a turn about another job is not about this one. Words
of the topic that none of the person's things holds are left out of the weighing. The floor is per
request (`min_relevance`, default `RELEVANCE_FLOOR`, chosen on bench/data/topics.jsonl: bench.topics).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from wordfreq import zipf_frequency

from projections.bm25 import FUNCTION_WORDS, STOP_WORDS, terms
from projections.search import ItemType, Window
from services.search import SearchService

# Chosen on the first half of bench/data/topics.jsonl (bench.topics: precision 93.8 %, recall 100 %;
# on the half held out 81.2 % and 86.7 %).
RELEVANCE_FLOOR = 0.45
# The most things one topic takes (a larger topic is forgotten in parts).
MOST = 1_000
_TYPES: tuple[ItemType, ...] = ("memory", "message", "summary")
_WORD = re.compile(r"\w+(?:'\w+)?", re.UNICODE)


@dataclass(frozen=True)
class TopicItem:
    type: ItemType
    id: str
    content: str
    relevance: float
    at: datetime | None
    fields: dict[str, Any] = field(default_factory=dict)


def topic_words(topic: str) -> dict[str, float]:
    """The words a topic is looked for by (as the index reads them), each with its weight: how rare
    it is in the language. None: the topic names nothing (only words such as "what", "my")."""
    weights: dict[str, float] = {}
    for word in _WORD.findall(topic.lower()):
        if word in STOP_WORDS or word in FUNCTION_WORDS:
            continue
        for stem in terms(word):
            weights[stem] = max(weights.get(stem, 0.0), max(8.0 - zipf_frequency(word, "en"), 1.0))
    return weights


def relevance(wanted: dict[str, float], text: str) -> float:
    """The weighted share of the topic's words that `text` holds (0 to 1)."""
    total = sum(wanted.values())
    if not total:
        return 0.0
    return sum(w for t, w in wanted.items() if t in set(terms(text))) / total


def said(wanted: dict[str, float], texts: list[str]) -> dict[str, float]:
    """The topic's words that some of the person's things hold (the others cannot tell them apart)."""
    held = {t for text in texts for t in terms(text)}
    return {t: w for t, w in wanted.items() if t in held} or wanted


class TopicFinder:
    def __init__(self, search: SearchService) -> None:
        self.search = search

    def find(self, user_id: str, topic: str, since: datetime | None = None, until: datetime | None = None,
             floor: float = RELEVANCE_FLOOR) -> list[TopicItem]:
        """What the person has about `topic` (said between `since` and `until`, when given), most
        about it first."""
        # Each kind on its own: the search shows a memory and the turn it came from as one hit, and
        # forgetting a topic takes both.
        window = Window(valid_at=None, known_at=None, include_history=True)
        hits = [hit for kind in _TYPES
                for hit in self.search.search(user_id, topic, window, limit=MOST, sources=("text",),
                                              types=(kind,))]
        texts = [str(h.fields.get("content") or "") for h in hits]
        wanted = said(topic_words(topic), texts)
        found = []
        for hit, text in zip(hits, texts, strict=True):
            at = hit.fields.get("valid_from" if hit.type == "memory" else "occurred_at")
            if (since is not None and at is not None and at < since) or \
                    (until is not None and at is not None and at >= until):
                continue
            score = relevance(wanted, text)
            if score >= floor:
                found.append(TopicItem(hit.type, hit.id, text, round(score, 4), at, hit.fields))
        return sorted(found, key=lambda i: (-i.relevance, i.type, i.id))
