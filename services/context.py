"""The context block an assistant puts into its system prompt, in layers: who the person is (the
profile), what recent sessions were about, what always matters (preferences, what works for them),
what is due, and only then the memories and turns relevant to this message — each section only if
it has something, all within a token budget counted by a real tokenizer (cl100k_base).

Each layer may take at most a share of the budget, so that a long profile cannot crowd out what is
relevant now; what a layer leaves unused goes to the layers after it. Every memory, summary and
turn the block holds is cited by id, so that a UI can show where a sentence came from.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from infra.tokens import TokenCounter
from projections.layers import ProfileView, SummaryView
from projections.search import Window
from projections.temporal import TemporalQueries
from projections.views import MemoryView
from services.questions import QuestionSynthesizer
from services.search import Hit, SearchService
from services.selection import select

Format = Literal["text", "markdown", "json"]
SUMMARIES = 5
TODOS = 5
RELEVANT = 10
# The least cosine of an item's own vector to the message (or a question synthesized from it) for
# it to count as relevant, in each embedder's own scale; chosen on LoCoMo conversations 0-4
# (bench/README, "Context blocks"). A model not measured has no floor.
FLOORS = {"e5-small-v2-int8-onnx": 0.76}
# The block's first line: how the model is to use it.
INSTRUCTION = ("Use these notes only where they help with the person's message; where two disagree, "
               "the newer holds.")


def default_floor(model: str | None) -> float | None:
    """The relevance floor measured for an embedder (None: none measured, no floor)."""
    return FLOORS.get(model) if model else None


# The most of the budget each layer may take (what one leaves goes to those after it).
SHARES = {"profile": 0.3, "recent_sessions": 0.2, "always": 0.4, "todos": 0.1, "relevant": 1.0}
TITLES = {"profile": "About them", "recent_sessions": "Recent conversations", "always": "Always keep in mind",
          "todos": "To do", "relevant": "Relevant to this message"}


@dataclass(frozen=True)
class Labels:
    """The block's words in the person's language (LORE_LANGUAGE): what the assistant reads."""

    header: str          # {day}: the day the block is as of
    instruction: str
    titles: dict[str, str]
    since: str           # {day}
    due: str             # {day}
    still_open: str      # {text}


LABELS = {
    "en": Labels("What you know about this person (as of {day})", INSTRUCTION, TITLES, " (since {day})",
                 " (due {day})", " Still open: {text}"),
    "zh": Labels("关于这个人你所知道的（截至{day}）",
                 "这些笔记只在对回答此人的消息有帮助时使用；两条相互矛盾时，以较新的为准。",
                 {"profile": "关于此人", "recent_sessions": "最近的对话", "always": "始终牢记",
                  "todos": "待办", "relevant": "与这条消息相关"},
                 "（自{day}起）", "（{day}前）", " 尚未解决：{text}"),
}


class LayerReads(Protocol):
    def profiles(self, user_id: str, version: int | None = ..., limit: int = ...) -> list[ProfileView]: ...

    def summaries(self, user_id: str, limit: int = ..., offset: int = ...) -> list[SummaryView]: ...


def always_loaded(spec: str) -> list[tuple[str, int | None]]:
    """`preference:all,lesson:5` -> [("preference", None), ("lesson", 5)]: kinds, and how many of each."""
    found: list[tuple[str, int | None]] = []
    for part in spec.split(","):
        kind, _, count = part.strip().partition(":")
        if not kind:
            continue
        if count and count != "all" and not count.isdigit():
            raise ValueError(f"context_always: {part.strip()!r} is not kind:all or kind:N")
        found.append((kind, None if count in ("", "all") else int(count)))
    return found


@dataclass
class Item:
    type: Literal["profile", "summary", "memory", "message"]
    id: str
    text: str


@dataclass
class Section:
    name: str
    title: str
    items: list[Item] = field(default_factory=list)


@dataclass
class ContextBlock:
    text: str
    tokens: int
    tokenizer: str
    sections: list[Section]
    always: list[MemoryView]
    todos: list[MemoryView]
    relevant: list[Hit]
    profile_version: int
    questions: list[str]
    timings_ms: dict[str, float]
    instruction: str = INSTRUCTION
    relevant_found: int = 0     # relevant items that passed the rules, before the budget
    floor: float | None = None

    def cited(self, kind: str) -> list[str]:
        return list(dict.fromkeys(i.id for s in self.sections for i in s.items if i.type == kind))


def _day(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d}" if moment else ""


def memory_line(m: MemoryView, labels: Labels = LABELS["en"]) -> str:
    return f"{m.content}" + (labels.since.format(day=_day(m.valid_from)) if m.valid_from else "")


def todo_line(m: MemoryView, labels: Labels = LABELS["en"]) -> str:
    return m.content + (labels.due.format(day=_day(m.due_at)) if m.due_at else "")


def summary_line(s: SummaryView, labels: Labels = LABELS["en"]) -> str:
    text = f"{_day(s.said_until)}: {s.summary.summary}"
    return text + (labels.still_open.format(text=s.summary.unresolved) if s.summary.unresolved else "")


def hit_line(hit: Hit, labels: Labels = LABELS["en"]) -> str:
    f = hit.fields
    if hit.type == "message":
        when = f.get("occurred_at")
        return f"[{_day(when)}, {f.get('role')}] {f.get('content')}" if when else str(f.get("content"))
    return memory_line_of(f, labels)


def memory_line_of(f: dict[str, Any], labels: Labels = LABELS["en"]) -> str:
    since = f.get("valid_from")
    dated = labels.since.format(day=_day(since)) if isinstance(since, datetime) else ""
    return str(f.get("content")) + dated


class Renderer:
    """Lays sections out as text or Markdown, and counts what each line costs."""

    def __init__(self, counter: TokenCounter, form: Format, labels: Labels = LABELS["en"]) -> None:
        self.counter = counter
        self.form = form
        self.labels = labels

    def header(self, now: datetime) -> str:
        title = self.labels.header.format(day=f"{now:%Y-%m-%d}")
        return (f"# {title}" if self.form == "markdown" else f"{title}:") + f"\n{self.labels.instruction}"

    def title(self, section: Section) -> str:
        return f"\n## {section.title}" if self.form == "markdown" else f"\n{section.title}:"

    def item(self, section: Section, item: Item) -> str:
        return item.text if section.name == "profile" else f"- {item.text}"

    def render(self, now: datetime, sections: Sequence[Section]) -> str:
        if self.form == "json":
            return json.dumps({"as_of": now.isoformat(), "instruction": self.labels.instruction, "sections": [
                {"name": s.name, "title": s.title, "items": [{"type": i.type, "id": i.id, "text": i.text}
                                                             for i in s.items]} for s in sections]},
                              ensure_ascii=False)
        lines = [self.header(now)]
        for section in sections:
            lines.append(self.title(section))
            lines += [self.item(section, i) for i in section.items]
        return "\n".join(lines)

    def cost(self, text: str) -> int:
        return self.counter.count(text) + 1   # and its line break


def _sentences_within(text: str, budget: int, cost: Callable[[str], int]) -> str:
    """The profile's paragraphs, then sentences, while they fit `budget` tokens."""
    kept: list[str] = []
    for paragraph in text.split("\n\n"):
        candidate = "\n\n".join([*kept, paragraph])
        if cost(candidate) <= budget:
            kept.append(paragraph)
            continue
        words: list[str] = []
        for sentence in paragraph.replace("; ", ";\x00").replace(". ", ".\x00").split("\x00"):
            if cost("\n\n".join([*kept, " ".join([*words, sentence])])) > budget:
                break
            words.append(sentence)
        if words:
            kept.append(" ".join(words))
        break
    return "\n\n".join(kept)


class ContextBuilder:
    def __init__(self, queries: TemporalQueries, layers: LayerReads, search: SearchService,
                 counter: TokenCounter, always: str = "preference:all,lesson:5",
                 synthesizer: QuestionSynthesizer | None = None, language: str = "en") -> None:
        self.labels = LABELS.get(language, LABELS["en"])
        self.queries = queries
        self.layers = layers
        self.search = search
        self.counter = counter
        self.always = always_loaded(always)
        self.synthesizer = synthesizer

    def build(self, user_id: str, message: str, recent: Sequence[str], budget: int, now: datetime,
              form: Format = "text", synthesize: bool = True, floor: float | None = None,
              relevant: int = RELEVANT) -> ContextBlock:
        """`floor`: the least cosine of a relevant item to what was asked (None: the embedder's
        default); `relevant`: how many relevant items at most."""
        if floor is None:
            floor = default_floor(self.search.embedder.model if self.search.embedder else None)
        timings: dict[str, float] = {}
        started = time.perf_counter()
        layers = self._layers(user_id, now)
        timings["layers"] = _ms(started)

        started = time.perf_counter()
        questions = self.synthesizer.questions(message, recent) if self.synthesizer and synthesize else []
        timings["questions"] = _ms(started)
        render = Renderer(self.counter, form, self.labels)
        packer = self._layer_sections(render, budget, now, layers)
        started = time.perf_counter()
        relevant_hits = self._relevant(user_id, message, questions, layers, packer.held(), now, floor,
                                       relevant)
        timings["search"] = _ms(started)
        packer.pack("relevant", [Item(h.type, h.id, hit_line(h, self.labels))  # type: ignore[arg-type]
                                 for h in relevant_hits])
        sections = packer.sections
        text, tokens = _fitted(render, now, sections, budget)
        kept = {(s.name, i.id) for s in sections for i in s.items}
        profile = layers.profile
        return ContextBlock(
            text=text, tokens=tokens, tokenizer=self.counter.name, sections=sections,
            always=[m for m in layers.always if ("always", m.memory_id) in kept],
            todos=[m for m in layers.todos if ("todos", m.memory_id) in kept],
            relevant=[h for h in relevant_hits if ("relevant", h.id) in kept],
            profile_version=profile.version if profile is not None and any(
                s.name == "profile" for s in sections) else 0,
            questions=questions, timings_ms=timings, instruction=self.labels.instruction,
            relevant_found=len(relevant_hits), floor=floor)

    def _layers(self, user_id: str, now: datetime) -> _Layers:
        """What a block holds whatever was asked: the profile, recent sessions, always-on kinds, to-dos."""
        always = [m for kind, count in self.always
                  for m in sorted(self.queries.memories(user_id, valid_at=now, kind=kind, limit=count or 200),
                                  key=lambda m: (-m.importance, m.memory_id))[:count or None]]
        todos = sorted((m for m in self.queries.memories(user_id, valid_at=now, kind="todo", limit=200)
                        if m.completed_at is None),
                       key=lambda m: (m.due_at is None, m.due_at or now, m.memory_id))[:TODOS]
        return _Layers(next(iter(self.layers.profiles(user_id)), None),
                       self.layers.summaries(user_id, limit=SUMMARIES), always, todos)

    def _relevant(self, user_id: str, message: str, questions: list[str], layers: _Layers, held: set[str],
                  now: datetime, floor: float | None, relevant: int) -> list[Hit]:
        """What bears on the message, by the block's rules (services/selection.py), nothing the
        layers already show (`held`: what of them fitted in the budget; a summary left out of the
        block cannot stand in for a turn it holds)."""
        loaded = {m.memory_id for m in [*layers.always, *layers.todos] if m.memory_id in held}
        hits = self.search.search(user_id, message, Window(valid_at=now, known_at=None), limit=relevant * 2,
                                  types=("memory", "message"), also=tuple(questions), measure=True)
        shown = [m.content for m in [*layers.always, *layers.todos] if m.memory_id in held] + [
            s.summary.summary for s in layers.summaries if s.summary_id in held]
        return select((h for h in hits if h.id not in loaded), [message, *questions], floor, relevant, shown)

    def _layer_sections(self, render: Renderer, budget: int, now: datetime, layers: _Layers) -> _Packer:
        """The sections of what a block holds whatever was asked, in order, each within its share."""
        titles, labels = self.labels.titles, self.labels
        packer = _Packer(render, budget, now, titles)
        profile = layers.profile
        if profile is not None and profile.narrative:
            room = packer.room("profile") - render.cost(titles["profile"]) - 2
            narrative = _sentences_within(profile.narrative, room, self.counter.count)
            if narrative:
                packer.pack("profile", [Item("profile", f"v{profile.version}", narrative)])
        packer.pack("recent_sessions", [Item("summary", s.summary_id, summary_line(s, labels))
                                        for s in layers.summaries])
        packer.pack("always", [Item("memory", m.memory_id, memory_line(m, labels)) for m in layers.always])
        packer.pack("todos", [Item("memory", m.memory_id, todo_line(m, labels)) for m in layers.todos])
        return packer


class _Packer:
    """A block's sections, filled in order, each within its share of the budget (SHARES): what one
    leaves goes to those after it."""

    def __init__(self, render: Renderer, budget: int, now: datetime, titles: dict[str, str]) -> None:
        self.render, self.budget, self.titles = render, budget, titles
        self.used = render.cost(render.header(now))
        self.sections: list[Section] = []

    def room(self, name: str) -> int:
        return min(self.budget - self.used, int(self.budget * SHARES[name]))

    def pack(self, name: str, items: list[Item]) -> None:
        section = Section(name, self.titles[name])
        room = self.room(name)
        spent = self.render.cost(self.render.title(section))
        for item in items:
            cost = self.render.cost(self.render.item(section, item))
            if spent + cost > room:
                break
            section.items.append(item)
            spent += cost
        if section.items:
            self.sections.append(section)
            self.used += spent

    def held(self) -> set[str]:
        """The ids of the items packed so far."""
        return {i.id for s in self.sections for i in s.items}


@dataclass(frozen=True)
class _Layers:
    profile: ProfileView | None
    summaries: list[SummaryView]
    always: list[MemoryView]
    todos: list[MemoryView]


def _fitted(render: Renderer, now: datetime, sections: list[Section], budget: int) -> tuple[str, int]:
    """The block's text and its tokens; where the estimate per line ran over, items are dropped
    from the end until it fits."""
    text = render.render(now, sections)
    tokens = render.counter.count(text)
    while tokens > budget and sections:
        last = sections[-1]
        last.items.pop()
        if not last.items:
            sections.pop()
        text = render.render(now, sections)
        tokens = render.counter.count(text)
    return text, tokens


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
