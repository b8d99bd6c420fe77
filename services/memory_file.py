"""A person's memory as a Markdown file (services/markdown.py), read from the graph page by page,
and the one revision an edited file asks for."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from domain.access import split_person
from domain.model import MemoryKind
from lore.schemas import MemoryView
from projections.temporal import TemporalQueries
from services.markdown import TITLES, Parsed, Plan, Profile, parse, plan, render

PAGE = 500


def markdown(queries: TemporalQueries, layers: Any, person: str, now: datetime) -> Iterator[str]:
    """The file of `person` as it stands at `now`, a line at a time."""
    found = layers.profiles(person, limit=1)
    profile = None
    if found:
        p = found[0]
        profile = Profile(p.version, p.narrative, [(b.key, b.value) for b in p.basic_info], p.revised_at)
    sections = ((kind, _with_history(queries, person, kind)) for kind in TITLES)
    return render(split_person(person)[1], now, profile, sections)


def _with_history(queries: TemporalQueries, person: str,
                  kind: MemoryKind) -> Iterator[tuple[MemoryView, list[MemoryView]]]:
    skip = 0
    while True:
        page = queries.memories(person, status="active", kind=kind.value, skip=skip, limit=PAGE)
        replaced = queries.replaced(person, [m.memory_id for m in page]) if page else {}
        for memory in page:
            yield memory, _chain(queries, person, replaced.get(memory.memory_id, []))
        if len(page) < PAGE:
            return
        skip += PAGE


def _chain(queries: TemporalQueries, person: str, first: list[MemoryView],
           most: int = 20) -> list[MemoryView]:
    """What a memory replaced, and what those replaced, newest first (at most `most`)."""
    chain: list[MemoryView] = []
    step = first
    while step and len(chain) < most:
        chain += sorted(step, key=lambda m: m.valid_from, reverse=True)
        step = [m for ms in queries.replaced(person, [m.memory_id for m in step]).values() for m in ms]
    return chain[:most]


def revision(queries: TemporalQueries, person: str, text: str) -> tuple[Parsed, Plan]:
    """What an edited file changes for `person`; a MarkdownError names a line it cannot read."""
    parsed = parse(text)
    current: dict[str, MemoryView] = {}
    skip = 0
    while True:
        page = queries.memories(person, status="active", skip=skip, limit=PAGE)
        current.update((m.memory_id, m) for m in page)
        if len(page) < PAGE:
            break
        skip += PAGE
    other_ids = [line.memory_id for line in parsed.lines if line.memory_id and line.memory_id not in current]
    known = {m.memory_id: m for m in queries.memories_by_id(person, other_ids)}
    edited = [line.memory_id for line in parsed.lines if line.memory_id in current]
    return parsed, plan(parsed, current, known, queries.entities(person, edited) if edited else {})
