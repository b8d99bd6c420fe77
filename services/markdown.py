"""A person's memory as a Markdown file they can read, edit and give back.

    # What Lore remembers of ada
    <!-- lore-markdown/1 exported 2026-03-01T10:00:00+00:00 -->
    ## Who ada is now                  (read only: the profile)
    ## Preferences
    - Ada prefers the light editor theme <!-- id:2b6e… · editor_theme = light · since 2026-03-01 -->
      - was: Ada prefers the dark editor theme (2026-01-01 → 2026-03-01)
    ## To-dos
    - [ ] Renew the passport <!-- id:91f0… · due 2026-03-20 -->

Read back (`plan`), each line under a kind's heading is compared with the memory its id names: a
line without an id is a new memory of that kind, a line whose words changed is a correction, a
memory in force at the export whose line is gone is forgotten, a to-do's box ticked or cleared
completes or reopens it. The indented `was:` lines and the profile are read only. A line that is
none of these is an error naming it, and nothing is applied: the plan is one ReviseMemories.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from domain.commands import IDENTIFIER_PATTERN, MAX_MEMORY_CHARS, Correction, NewMemory
from domain.model import MemoryKind, normalized
from lore.schemas import MemoryView

FORMAT = "lore-markdown/1"
TITLES: dict[MemoryKind, str] = {
    MemoryKind.PREFERENCE: "Preferences", MemoryKind.FACT: "Facts", MemoryKind.PERSON: "People",
    MemoryKind.GOAL: "Goals", MemoryKind.EVENT: "Events", MemoryKind.LESSON: "Lessons",
    MemoryKind.TODO: "To-dos", MemoryKind.CONTEXT: "Context",
}
_KIND_OF = {title.lower(): kind for kind, title in TITLES.items()}
PROFILE_TITLE = "Who {user} is now"
_HEADER = re.compile(rf"<!--\s*{re.escape(FORMAT)}\s+exported\s+(\S+)\s*-->")
_ID = re.compile(r"\bid:(\S+)")
_SLOT_VALUE = re.compile(r"(?:^|·)\s*[^·=]+?\s=\s([^·]*?)\s*(?:·|$)")
_BOX = re.compile(r"^\[( |x|X)\]\s+")
_IDENTIFIER = re.compile(IDENTIFIER_PATTERN)


class MarkdownError(ValueError):
    """A line that cannot be read as part of a person's memory: `line` names it (from 1)."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


# ---- out -------------------------------------------------------------------------------------


def _day(moment: datetime | None) -> str:
    return moment.date().isoformat() if moment else "…"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def memory_line(m: MemoryView) -> str:
    notes = [f"id:{m.memory_id}"]
    if m.attribute:
        notes.append(f"{m.attribute} = {_one_line(m.value or '')}")
    notes.append(f"since {_day(m.valid_from)}" + (f" until {_day(m.valid_until)}" if m.valid_until else ""))
    if m.due_at:
        notes.append(f"due {_day(m.due_at)}")
    box = ("[x] " if m.completed_at else "[ ] ") if m.kind == MemoryKind.TODO else ""
    return f"- {box}{_one_line(m.content)} <!-- {' · '.join(notes)} -->"


def history_line(older: MemoryView) -> str:
    if older.valid_until is not None and older.valid_until <= older.valid_from:
        return f"  - was worded: {_one_line(older.content)} (corrected)"
    return f"  - was: {_one_line(older.content)} ({_day(older.valid_from)} → {_day(older.valid_until)})"


@dataclass(frozen=True)
class Profile:
    version: int
    narrative: str
    basic_info: Sequence[tuple[str, str]]
    revised_at: datetime | None


def render(user: str, exported_at: datetime, profile: Profile | None,
           sections: Iterable[tuple[MemoryKind, Iterable[tuple[MemoryView, Sequence[MemoryView]]]]],
           ) -> Iterator[str]:
    """The file, a line at a time (each ends with a newline): who the person is now, then each
    kind's memories in force, each with the values and wordings it replaced."""
    yield f"# What Lore remembers of {user}\n\n"
    yield f"<!-- {FORMAT} exported {exported_at.isoformat()} -->\n"
    yield (f"Edit this file and give it back (`lore import --markdown FILE --user {user}`): a new line "
           "under a heading becomes a memory of that kind, a changed line corrects the memory, a removed "
           "line forgets it, a to-do's box ticked or cleared completes or reopens it. Keep the `<!-- id -->` "
           "at the end of each line. The profile and the indented `was` lines are read only.\n\n")
    yield f"## {PROFILE_TITLE.format(user=user)}\n\n"
    if profile is None or not profile.version:
        yield "No profile yet.\n\n"
    else:
        yield f"Profile version {profile.version}, revised {_day(profile.revised_at)}.\n\n"
        for paragraph in profile.narrative.split("\n\n"):
            if paragraph.strip():
                yield f"> {_one_line(paragraph)}\n>\n"
        for key, value in profile.basic_info:
            yield f"- **{_one_line(key)}:** {_one_line(value)}\n"
        yield "\n"
    for kind, memories in sections:
        yield f"## {TITLES[kind]}\n\n"
        for memory, replaced in memories:
            yield memory_line(memory) + "\n"
            for older in replaced:
                yield history_line(older) + "\n"
        yield "\n"


# ---- in --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    number: int
    kind: MemoryKind
    content: str
    memory_id: str | None = None
    value: str | None = None
    done: bool | None = None  # a to-do's box: ticked, cleared, or no box


@dataclass(frozen=True)
class Parsed:
    exported_at: datetime | None
    lines: list[Line]


def parse(text: str) -> Parsed:
    """The memory lines of an edited file; a MarkdownError names the first line that is not one."""
    exported_at: datetime | None = None
    kind: MemoryKind | None = None
    read_only = True  # before the first kind's heading: the title, the note, the profile
    lines: list[Line] = []
    seen: dict[str, int] = {}
    titled = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not titled and line.strip():
            if not (line.lstrip() + " ").startswith("# "):
                raise MarkdownError(number, "a memory file begins with its title ('# What Lore remembers "
                                    "of ...'), as the export writes it")
            titled = True
            continue
        if header := _HEADER.search(line):
            exported_at = _moment(header.group(1), number)
            continue
        if line.startswith("## "):
            title = line[3:].strip()
            if title.lower().startswith("who ") and title.lower().endswith(" is now"):
                kind, read_only = None, True
                continue
            kind = _KIND_OF.get(title.lower())
            if kind is None:
                raise MarkdownError(number, f"unknown section {title!r}: the sections are "
                                    f"{', '.join(TITLES.values())} (and the profile's)")
            read_only = False
            continue
        if line.startswith("#") and not line.startswith("## "):
            if line.startswith("# "):
                continue
            raise MarkdownError(number, f"a heading of another level ({line.split()[0]}): use '## Kind'")
        if read_only or not line.strip():
            continue
        if raw[:1] in (" ", "\t"):
            if line.strip().startswith("- was"):
                continue  # what a memory replaced: read only
            raise MarkdownError(number, "an indented line that is not a `- was` line of the memory above")
        if not line.startswith("- "):
            raise MarkdownError(number, "a memory is a list item ('- ' then its words)")
        assert kind is not None
        parsed = _memory(line[2:], number, kind)
        if parsed.memory_id is not None:
            if parsed.memory_id in seen:
                raise MarkdownError(number, f"memory {parsed.memory_id} is on line {seen[parsed.memory_id]} "
                                    "already")
            seen[parsed.memory_id] = number
        lines.append(parsed)
    if not titled:
        raise MarkdownError(1, "an empty file: a memory file begins with its title ('# What Lore remembers "
                            "of ...'), as the export writes it")
    return Parsed(exported_at, lines)


def _moment(text: str, number: int) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise MarkdownError(number, f"the export time {text!r} is not a time") from None
    if moment.tzinfo is None:
        raise MarkdownError(number, f"the export time {text!r} has no time zone")
    return moment


def _memory(item: str, number: int, kind: MemoryKind) -> Line:
    done = None
    if box := _BOX.match(item):
        done = box.group(1) != " "
        item = item[box.end():]
    words, _, rest = item.partition("<!--")
    memory_id = value = None
    if rest:
        comment, closed, after = rest.partition("-->")
        if not closed or after.strip():
            raise MarkdownError(number, "a note `<!-- … -->` must close at the end of its line")
        found = _ID.search(comment)
        if found is None:
            raise MarkdownError(number, "the note at the end names no memory (`id:…`)")
        memory_id = found.group(1)
        if not _IDENTIFIER.match(memory_id) or len(memory_id) > 200:
            raise MarkdownError(number, f"{memory_id!r} is not a memory id")
        slot = _SLOT_VALUE.search(comment[found.end():])
        value = slot.group(1).strip() if slot else None
    content = _one_line(words)
    if not content:
        raise MarkdownError(number, "a memory without words (remove the line to forget it)")
    if len(content) > MAX_MEMORY_CHARS:
        raise MarkdownError(number, f"a memory holds at most {MAX_MEMORY_CHARS:,} characters")
    if done is not None and kind is not MemoryKind.TODO:
        raise MarkdownError(number, "a box [ ] is for to-dos (under '## To-dos')")
    return Line(number, kind, content, memory_id, value, done)


# ---- the changes -----------------------------------------------------------------------------

Action = Literal["record", "correct", "forget", "complete", "reopen"]


@dataclass(frozen=True)
class Change:
    action: Action
    line: int | None  # None: a memory whose line was removed
    content: str
    kind: str
    memory_id: str | None = None
    was: str | None = None


@dataclass
class Plan:
    changes: list[Change] = field(default_factory=list)
    record: list[NewMemory] = field(default_factory=list)
    correct: list[Correction] = field(default_factory=list)
    forget: list[str] = field(default_factory=list)
    complete: list[str] = field(default_factory=list)
    reopen: list[str] = field(default_factory=list)
    kept: int = 0  # lines that change nothing

    @property
    def empty(self) -> bool:
        return not self.changes


def plan(parsed: Parsed, current: Mapping[str, MemoryView], known: Mapping[str, MemoryView],
         entities: Mapping[str, Sequence[str]]) -> Plan:
    """What the edited file changes. `current`: the person's memories in force (active), by id;
    `known`: any other memory of theirs the file names (superseded, forgotten...); `entities`: what
    each memory is about (a correction keeps it). A memory in force that was recorded after the
    export is not in the file and stays."""
    out = Plan()
    named: set[str] = set()
    for line in parsed.lines:
        if line.memory_id is None:
            out.record.append(NewMemory(content=line.content, kind=line.kind))
            out.changes.append(Change("record", line.number, line.content, line.kind.value))
            continue
        named.add(line.memory_id)
        memory = current.get(line.memory_id)
        if memory is None:
            _not_current(line, known.get(line.memory_id))
            out.kept += 1
            continue
        if memory.kind != line.kind.value:
            raise MarkdownError(line.number, f"memory {line.memory_id} is a {memory.kind}: it stays under "
                                f"'## {TITLES[MemoryKind(memory.kind)]}' (write a new line to add a "
                                f"{line.kind.value})")
        changed = _corrected(line, memory, entities.get(memory.memory_id, ()))
        if changed is not None:
            out.correct.append(changed)
            out.changes.append(Change("correct", line.number, line.content, memory.kind, memory.memory_id,
                                      was=memory.content))
        if line.done is not None and line.done != (memory.completed_at is not None):
            (out.complete if line.done else out.reopen).append(memory.memory_id)
            out.changes.append(Change("complete" if line.done else "reopen", line.number, line.content,
                                      memory.kind, memory.memory_id))
        elif changed is None:
            out.kept += 1
    exported = parsed.exported_at
    for memory in current.values():
        if memory.memory_id in named or (exported is not None and memory.recorded_at > exported):
            continue
        out.forget.append(memory.memory_id)
        out.changes.append(Change("forget", None, memory.content, memory.kind, memory.memory_id))
    return out


def _not_current(line: Line, memory: MemoryView | None) -> None:
    """A line whose memory is no longer in force: fine unchanged, an error when edited."""
    if memory is None:
        raise MarkdownError(line.number, f"memory {line.memory_id} is not one of this person's")
    if normalized(memory.content) != normalized(line.content):
        raise MarkdownError(line.number, f"memory {line.memory_id} is {memory.status} since the export: "
                            "export again and edit the memory that holds it now")


def _corrected(line: Line, memory: MemoryView, entities: Sequence[str]) -> Correction | None:
    value = memory.value
    if memory.attribute and line.value is not None and normalized(line.value) != normalized(value or ""):
        value = line.value
    if normalized(line.content) == normalized(memory.content) and value == memory.value:
        return None
    return correction(memory, line.content, value, entities)


def correction(memory: MemoryView, content: str, value: str | None, entities: Sequence[str]) -> Correction:
    """New words (and slot value) for `memory`, carrying over what else it held."""
    return Correction(memory_id=memory.memory_id, content=content, attribute=memory.attribute, value=value,
                      category=memory.category, entities=tuple(entities), episode_id=memory.episode_id,
                      due_at=memory.due_at, remind_at=memory.remind_at)
