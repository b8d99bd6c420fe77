"""A person's profile: a few paragraphs that say who they are, always loaded, kept in versions.

When a new version is due (`due_reason`), and how the offline writer composes one from what is
known (`compose`): a narrative of who the person is now — the slots in force with what they were
before ("The person lives in Lisbon (since 1 Feb 2026; before that Berlin, ...)"), then what they
are, prefer, want, who their people are and what happened lately — then the gist of each of the
latest sessions, what the last ones were about and left open. A
model writes better prose; `carried_over` keeps what the previous version knew that nothing
contradicts, whoever wrote the new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.layers.model import BasicInfo

SUMMARIES_PER_VERSION = 5
ALONG_THE_WAY = 12  # sessions whose gist a profile keeps, the latest
REVISE_AFTER = timedelta(days=7)


def due_reason(
    version: int, summaries_since: int, revised_at: datetime | None, now: datetime, slot_changed: str | None
) -> str | None:
    """Why a new version of the profile is due now, or None: the first session summary gives the
    first version (a profile is of a person who talks to the assistant); then a slot that changed
    (something important was said), five new session summaries, or a new summary seven days or
    more after the last version."""
    if slot_changed and version:
        return f"{slot_changed} changed"
    if not summaries_since:
        return None
    if version == 0:
        return "first profile"
    if summaries_since >= SUMMARIES_PER_VERSION:
        return f"{summaries_since} new session summaries"
    if revised_at is not None and now - revised_at >= REVISE_AFTER:
        return f"{(now - revised_at).days} days since version {version}"
    return None


@dataclass(frozen=True)
class SlotValue:
    """One value a slot held, and when."""

    attribute: str
    value: str
    valid_from: datetime
    valid_until: datetime | None


@dataclass(frozen=True)
class Known:
    """A memory without a slot, as a profile reads it."""

    kind: str
    content: str
    importance: float


@dataclass(frozen=True)
class Brief:
    """A session summary, as a profile reads it."""

    summary: str
    topics: tuple[str, ...]
    unresolved: str | None
    at: datetime
    key_facts: tuple[str, ...] = ()

    def lead(self) -> str:
        """What the session says in one sentence: its first key fact, else the summary's first sentence."""
        if self.key_facts:
            return self.key_facts[0].rstrip(".")
        return self.summary.split(". ")[0].rstrip(".")


@dataclass(frozen=True)
class ProfileInputs:
    """What a new version is written from: the version before, and what is known now."""

    version: int = 0
    narrative: str = ""
    basic_info: tuple[BasicInfo, ...] = ()
    slots: tuple[SlotValue, ...] = ()  # every value of every slot, current or not
    memories: tuple[Known, ...] = ()  # active memories without a slot
    summaries: tuple[Brief, ...] = ()  # the latest sessions, newest first
    new_summaries: int = 0  # how many of them came since the version before
    forgotten: tuple[str, ...] = ()  # slots whose every value the person forgot: nothing to carry over


def _day(moment: datetime) -> str:
    return f"{moment.day} {moment:%b %Y}"


def label(attribute: str) -> str:
    return attribute.replace("_", " ").strip().capitalize()


def timelines(slots: Sequence[SlotValue]) -> dict[str, list[SlotValue]]:
    """Per slot, its values oldest first."""
    found: dict[str, list[SlotValue]] = {}
    for value in sorted(slots, key=lambda s: (s.attribute, s.valid_from)):
        found.setdefault(value.attribute, []).append(value)
    return found


def current(values: Sequence[SlotValue]) -> SlotValue | None:
    latest = values[-1] if values else None
    return latest if latest is not None and latest.valid_until is None else None


def slot_sentence(attribute: str, values: Sequence[SlotValue]) -> str:
    """`Home city: Lisbon since 1 Feb 2026 (before that Berlin, from 10 Jan 2026).`"""
    now = current(values)
    earlier = [v for v in values if v is not now]
    if now is None:
        last = values[-1]
        return f"{label(attribute)}: {last.value} until {_day(last.valid_until or last.valid_from)}."
    text = f"{label(attribute)}: {now.value} since {_day(now.valid_from)}"
    if earlier:
        text += (
            " (before that "
            + "; ".join(f"{v.value}, from {_day(v.valid_from)}" for v in reversed(earlier))
            + ")"
        )
    return text + "."


_SECTIONS = (
    ("fact", "About them", 8),
    ("health", "Their health", 5),
    ("preference", "Preferences", 10),
    ("lesson", "What works for them", 5),
    ("goal", "Goals", 5),
    ("plan", "Plans ahead", 5),
    ("person", "Their people", 8),
    ("event", "In their life lately", 4),
)
_SLOT_PHRASES = {
    "home_city": "lives in {v}",
    "employer": "works at {v}",
    "job_title": "works as {a} {v}",
    "partner": "has a partner, {v}",
    "manager": "has a manager, {v}",
    "diet": "is {v}",
    "editor": "uses {v} as their editor",
    "editor_theme": "prefers the {v} theme",
    "name": "goes by {v}",
}


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def slot_clause(attribute: str, values: Sequence[SlotValue]) -> str | None:
    """A slot in force said of the person: "lives in Lisbon (since 1 Feb 2026; before that Berlin,
    from 10 Jan 2026)"; None when it holds no value now."""
    now = current(values)
    if now is None:
        return None
    if attribute.startswith("pet_"):
        phrase = f"has a {attribute.removeprefix('pet_').replace('_', ' ')} named {now.value}"
    elif attribute.startswith("favorite_"):
        phrase = (
            f"names {now.value} as their favourite {attribute.removeprefix('favorite_').replace('_', ' ')}"
        )
    elif attribute in _SLOT_PHRASES:
        phrase = _SLOT_PHRASES[attribute].format(v=now.value, a=_article(now.value))
    else:
        phrase = f"has {label(attribute).lower()} {now.value}"
    earlier = [v for v in values if v is not now]
    since = f"since {_day(now.valid_from)}"
    if earlier:
        since += "; before that " + "; ".join(
            f"{v.value}, from {_day(v.valid_from)}" for v in reversed(earlier)
        )
    return f"{phrase} ({since})"


def _said_of(content: str) -> str:
    """A memory inside a sentence about the person: its first letter small, unless a name's."""
    first = content.split(" ", 1)[0]
    text = content.rstrip(".")
    return (
        text if first in ("I", "My") or (first.isupper() and len(first) > 1) else text[:1].lower() + text[1:]
    )


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def compose(inputs: ProfileInputs) -> tuple[str, tuple[BasicInfo, ...]]:
    """The offline profile: a narrative of who the person is now, deterministic, every clause from
    what they said — the slots in force (with what they were before), then what they are, like,
    want and who their people are, then what the latest sessions were about and left open."""
    paragraphs: list[str] = []
    lines = timelines(inputs.slots)
    in_force = [c for a, v in lines.items() if (c := slot_clause(a, v))]
    if in_force:
        paragraphs.append(f"The person {_listed(in_force)}.")
    ended = [slot_sentence(a, v) for a, v in lines.items() if current(v) is None]
    if ended:
        paragraphs.append(" ".join(ended))
    for kind, title, limit in _SECTIONS:
        said = sorted((m for m in inputs.memories if m.kind == kind), key=lambda m: -m.importance)[:limit]
        if said:
            paragraphs.append(f"{title}: " + "; ".join(_said_of(m.content) for m in said) + ".")
    if inputs.summaries:
        along = reversed(inputs.summaries[:ALONG_THE_WAY])
        paragraphs.append("Along the way: " + "; ".join(f"{_day(b.at)}: {b.lead()}" for b in along) + ".")
        recent = inputs.summaries[:3]
        topics = list(dict.fromkeys(t for b in recent for t in b.topics))[:8]
        text = f"Lately ({_day(recent[-1].at)} to {_day(recent[0].at)}): talked about {', '.join(topics)}."
        open_ = [b.unresolved for b in recent if b.unresolved]
        if open_:
            text += f" Left open: {open_[0].rstrip('.?')}."
        paragraphs.append(text)
    basic = tuple(BasicInfo(key=a, value=now.value) for a, v in lines.items() if (now := current(v)))
    return "\n\n".join(paragraphs), carried_over(inputs, basic)


def carried_over(inputs: ProfileInputs, basic: Sequence[BasicInfo]) -> tuple[BasicInfo, ...]:
    """The new basic information, and what the version before knew that nothing now contradicts:
    a key the new one leaves out is kept unless its slot has ended since, or the person forgot it."""
    keys = {b.key for b in basic}
    ended = {a for a, v in timelines(inputs.slots).items() if current(v) is None} | set(inputs.forgotten)
    kept = [b for b in inputs.basic_info if b.key not in keys and b.key not in ended]
    return (*basic, *kept)
