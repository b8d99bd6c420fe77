"""The context block an assistant puts into its system prompt: what always matters about the
person (preferences, lessons: what works for them), then what is relevant to this message,
within a token budget."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from projections.search import Window
from projections.temporal import TemporalQueries
from projections.views import MemoryView
from services.search import Hit, SearchService

T = TypeVar("T")
ALWAYS_LOADED = ("preference", "lesson")
CHARS_PER_TOKEN = 4


def tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


@dataclass
class ContextBlock:
    text: str
    tokens: int
    always: list[MemoryView]
    relevant: list[Hit]


def _line(content: str, since: datetime | None) -> str:
    return f"- {content}" + (f" (since {since:%Y-%m-%d})" if since else "")


def _hit_line(hit: Hit) -> str:
    f = hit.fields
    if hit.type == "message":
        when = f.get("occurred_at")
        return f"- [{when:%Y-%m-%d}, {f.get('role')}] {f.get('content')}" if when else f"- {f.get('content')}"
    return _line(str(f.get("content")), f.get("valid_from"))


def build_context(queries: TemporalQueries, search: SearchService, user_id: str, message: str,
                  recent: list[str], budget: int, now: datetime) -> ContextBlock:
    always = sorted(
        (m for kind in ALWAYS_LOADED for m in queries.memories(user_id, valid_at=now, kind=kind, limit=200)),
        key=lambda m: (-m.importance, m.memory_id),
    )
    query = " ".join([message, *recent[-3:]])
    hits = search.search(user_id, query, Window(valid_at=now, known_at=None), limit=20)
    loaded = {m.memory_id for m in always}
    relevant = [h for h in hits if h.id not in loaded]

    header = f"What you know about this person (as of {now:%Y-%m-%d}):"
    lines, used = [header], tokens(header)
    kept_always, used = _pack("Always keep in mind:", always, lambda m: _line(m.content, m.valid_from),
                              lines, used, budget)
    kept_hits, used = _pack("Relevant to this message:", relevant, _hit_line, lines, used, budget)
    text = "\n".join(lines)
    return ContextBlock(text, tokens(text), kept_always, kept_hits)


def _pack(title: str, items: list[T], render: Callable[[T], str], lines: list[str], used: int,
          budget: int) -> tuple[list[T], int]:
    """Append a section's lines while they fit the budget; the items that made it, and the tokens used."""
    kept: list[T] = []
    for item in items:
        text = render(item)
        cost = tokens(text) + (0 if kept else tokens(title))
        if used + cost > budget:
            break
        if not kept:
            lines.append(title)
        lines.append(text)
        used += cost
        kept.append(item)
    return kept, used
