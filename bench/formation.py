"""Memory formation on a labelled set of our own: what an extractor keeps of what people said.

    python -m bench.formation                     # the offline rules: the seen parts, then the fresh one
    python -m bench.formation --part seen         # the parts the rules were developed on (dev + heldout)
    python -m bench.formation --part fresh        # round two's held-out part (its errors were looked at once)
    python -m bench.formation --part fresh2       # round three's held-out part, reported on only
    python -m bench.formation --part fresh3       # a fourth held-out part of plain chats, reported on only
    python -m bench.formation --part dev2         # plain chats written to develop on (round five)
    python -m bench.formation --part fresh4       # plain chats written after rules/6, reported on only
    python -m bench.formation --part fresh5       # plain chats written after rules/7, reported on only
    python -m bench.formation --part fresh6       # plain chats written after rules/9, reported on only
    python -m bench.formation --part fresh7       # plain chats written after rules/12, reported on only
    python -m bench.formation --part fresh8       # plain chats written after rules/13, developed on
    python -m bench.formation --part fresh9       # plain chats written after rules/14, developed on
    python -m bench.formation --part fresh10      # plain chats written after rules/15, developed on
    python -m bench.formation --part fresh11      # plain chats written after rules/16, developed on
    python -m bench.formation --part fresh12      # plain chats written after rules/17, developed on
    python -m bench.formation --part fresh13      # plain chats written after rules/18, reported on only
    python -m bench.formation --part fresh14      # plain chats written after rules/21, reported on only
    python -m bench.formation --part fresh15      # plain chats written after rules/22, reported on only
    python -m bench.formation --extractor llm --sessions 4 --cache /tmp/llm.jsonl
                                                  # a model (LORE_LLM_*), on a sample of sessions

The set (`bench/labelled/`, how it was made in its README) is invented chats, each user line
labelled with the memories a careful person would keep from it, or none. Each session is
extracted as Lore extracts a conversation (all its messages, each with its time). A memory found
is right when it matches a labelled memory of the statement it comes from:
- its kind is the label's (or one the label also allows);
- a slot, where either names one, is the label's, with the same value;
- its time (`valid_from`; `due_at` for a to-do) falls in the label's `when` (`due`), or is the
  time the statement was made when the label gives none;
- its words: every name and number of the label is in it, at least half the label's detail words
  (the text module's `detail` analyzer, calendar words aside) are in it, and at least a third of
  its own are the label's (one fact, not two);
- its form: no first person, no opener ("However, ..."), no hedge, no speaker prefix, no relative
  time left unresolved ("last month").
Reported per kind and part: precision (memories found that are right), recall (labelled memories
found), the slots filled right, what was found in statements that should give nothing, and every
error.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from domain.commands import Message
from domain.extraction.candidate import Candidate
from domain.model import normalized
from domain.text import analyzer
from domain.text.chinese import DETAIL as ZH_DETAIL
from domain.text.chinese import has_han

console = Console(width=180)
FOLDER = Path(__file__).parent / "labelled"
PARTS = ("dev", "heldout", "fresh", "fresh2", "fresh3", "dev2", "fresh4", "fresh5", "fresh6", "fresh7",
         "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14",
         "fresh15")
ZH_PARTS = ("zh-dev", "zh-heldout")  # the Chinese set (issue 31), read by the rules of LORE_LANGUAGE=zh
# what each choice of --part reports: one table per group, its parts taken together
GROUPS = {"dev": ("dev",), "heldout": ("heldout",), "fresh": ("fresh",), "fresh2": ("fresh2",),
          "fresh3": ("fresh3",), "dev2": ("dev2",), "fresh4": ("fresh4",), "fresh5": ("fresh5",),
          "fresh6": ("fresh6",), "fresh7": ("fresh7",), "fresh8": ("fresh8",),
          "fresh9": ("fresh9",), "fresh10": ("fresh10",), "fresh11": ("fresh11",),
          "fresh12": ("fresh12",), "fresh13": ("fresh13",), "fresh14": ("fresh14",),
          "fresh15": ("fresh15",),
          "seen": ("dev", "heldout"),
          "zh-dev": ("zh-dev",), "zh-heldout": ("zh-heldout",)}
_DETAIL = analyzer("detail")
_CALENDAR = frozenset(str.split(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday jan feb mar apr jun jul aug sep sept oct "
    "nov dec week weekend month year day morning evening night on in at of the"))
_NAME = re.compile(r"[^\W_][\w'.-]*")
_FIRST_PERSON = re.compile(r"\bI\b|\b(?:I'm|I've|I'd|I'll|my|me|mine|myself)\b", re.IGNORECASE)
_OPENER = re.compile(r"^\W*(?:however|but|and|so|well|also|actually|honestly|btw|anyway|oh|yeah|yes|no|ok|"
                     r"okay|haha|lol|um|hmm)\b", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:i think|i guess|maybe|probably|kind of|sort of|varies|i suppose|not sure)\b",
                    re.IGNORECASE)
_SPEAKER = re.compile(r"^\s*[A-Z][\w-]*\s*:")
# In Chinese: a name or a number is written in Latin letters or digits inside the Chinese; the
# detail words are jieba's; a memory in the first person says 我; these times are left relative.
_ZH_NAME = re.compile(r"[A-Za-z][A-Za-z0-9.'+#-]*|\d+")
_ZH_CALENDAR = frozenset(["年", "月", "日", "号", "周", "星期", "底", "初", "中", "那一周", "周末"])
_ZH_FIRST_PERSON = re.compile(r"我")
_ZH_OPENER = re.compile(r"^(?:不过|但是|所以|而且|还有|对了|哈哈|嗯|唉|其实)")
_ZH_HEDGE = re.compile(r"可能|大概|好像|也许|应该是|说不定")
_ZH_RELATIVE = re.compile(r"上个?月|下个?月|这个?月|上周|下周|这周|本周|明天|昨天|今天|今年|去年|明年|"
                          r"前年|后年|前天|后天|今晚|昨晚|(?:\d+|[一二三四五六七八九十两半]+)个?(?:天|周|星期|月|年)(?:前|后|以前|以后|之前|之后)")
_RELATIVE = re.compile(r"\b(?:yesterday|tomorrow|tonight|today|ago|(?:last|next|this|coming) (?:week|weekend|"
                       r"month|year|night|summer|winter|spring|autumn|fall|monday|tuesday|wednesday|"
                       r"thursday|friday|saturday|sunday|time))\b", re.IGNORECASE)


@dataclass
class Label:
    kind: str
    content: str
    kinds: frozenset[str]
    slot: tuple[str, str] | None = None
    when: tuple[date, date] | None = None
    due: tuple[date, date] | None = None


@dataclass
class Statement:
    chat: str
    session: int
    position: int           # in its session
    text: str
    at: datetime
    labels: list[Label] = field(default_factory=list)


@dataclass
class Session:
    chat: str
    number: int
    messages: list[Message]
    statements: dict[int, Statement]


def _period(text: str) -> tuple[date, date]:
    """`2026`, `2026-02`, `2026-02-03` or `a/b` as the first and last day it covers."""
    if "/" in text:
        first, last = text.split("/")
        return _period(first)[0], _period(last)[1]
    parts = [int(p) for p in text.split("-")]
    if len(parts) == 1:
        return date(parts[0], 1, 1), date(parts[0], 12, 31)
    if len(parts) == 2:
        nxt = date(parts[0] + parts[1] // 12, parts[1] % 12 + 1, 1)
        return date(parts[0], parts[1], 1), nxt - timedelta(days=1)
    day = date(*parts)
    return day, day


def _label(line: str) -> Label:
    kind, content, *rest = [p.strip() for p in line.lstrip().removeprefix("+").split("|")]
    label = Label(kind, content, frozenset({kind}))
    for item in rest:
        key, _, value = item.partition("=")
        if key == "slot":
            slot, _, slot_value = value.partition(":")
            label.slot = (slot, slot_value)
        elif key in ("when", "due"):
            setattr(label, key, _period(value))
        elif key == "also":
            label.kinds = label.kinds | set(value.split(","))
        else:
            raise ValueError(f"unknown key {key!r} in {line!r}")
    return label


def load(part: str) -> list[Session]:
    sessions: list[Session] = []
    chat = ""
    last: Statement | None = None
    for number, line in enumerate((FOLDER / f"{part}.chats").read_text().splitlines(), 1):
        if line.startswith("#") and not line.startswith("## "):
            continue
        try:
            if line.startswith("## "):
                chat, n = line[3:].strip(), 0
            elif line.startswith("@ "):
                n += 1
                at = datetime.fromisoformat(line[2:].strip().replace("Z", "+00:00"))
                sessions.append(Session(chat, n, [], {}))
            elif line.startswith(("U: ", "A: ")):
                session = sessions[-1]
                when = at + timedelta(minutes=len(session.messages))
                role = "user" if line[0] == "U" else "assistant"
                session.messages.append(Message(role=role, content=line[3:].strip(), timestamp=when))
                last = None
                if role == "user":
                    last = Statement(chat, n, len(session.messages) - 1, line[3:].strip(), when)
                    session.statements[last.position] = last
            elif line.startswith("  +"):
                assert last is not None, "a label follows a user line"
                last.labels.append(_label(line))
        except Exception as error:
            raise ValueError(f"{part}.chats line {number}: {error}") from error
    return sessions


def _name_key(word: str) -> str:
    """A name as it is compared: "Zainab's" is Zainab (a label may say "sister Zainab's wedding"
    where a memory says "Sister Zainab is getting married")."""
    return re.sub(r"['’]s$", "", word.casefold()).strip(".'")


def _names(text: str) -> set[str]:
    if has_han(text):
        return {w.casefold() for w in _ZH_NAME.findall(text) if not re.fullmatch(r"(?:19|20)\d\d", w)}
    words = _NAME.findall(text)
    named = {w for w in words[1:] if w[0].isupper() or w[0].isdigit()}
    return {_name_key(w) for w in named} - _CALENDAR - {"i"} - {
        w for w in (x.casefold() for x in named) if re.fullmatch(r"(?:19|20)\d\d", w)}


def _detail(text: str) -> set[str]:
    if has_han(text):
        return {w for w in ZH_DETAIL.words(text)
                if w not in _ZH_CALENDAR and not re.fullmatch(r"(?:19|20)\d\d|\d{1,2}", w)}
    return {w for w in _DETAIL.words(text) if w not in _CALENDAR and not re.fullmatch(r"(?:19|20)\d\d", w)}


def form_fault(content: str) -> str | None:
    if has_han(content):
        for name, pattern in (("first person", _ZH_FIRST_PERSON), ("opener", _ZH_OPENER),
                              ("hedge", _ZH_HEDGE), ("relative time", _ZH_RELATIVE)):
            if pattern.search(content):
                return name
        return None
    for name, pattern in (("first person", _FIRST_PERSON), ("opener", _OPENER), ("hedge", _HEDGE),
                          ("speaker prefix", _SPEAKER), ("relative time", _RELATIVE)):
        if pattern.search(content):
            return name
    return None


def _mentions(content: str, period: tuple[date, date]) -> bool:
    """Whether a memory's words name a period: its year, and its month when it is within one."""
    first, last = period
    if has_han(content):
        if f"{first.year}年" not in content and not (first.year != last.year and f"{last.year}年" in content):
            return False
        return (first.year, first.month) != (last.year, last.month) or f"{first.month}月" in content
    words = {w.casefold() for w in _NAME.findall(content)}
    if str(first.year) not in words and not (first.year != last.year and str(last.year) in words):
        return False
    same_month = (first.year, first.month) == (last.year, last.month)
    return not same_month or first.strftime("%B").casefold() in words


def _within(moment: datetime | None, period: tuple[date, date]) -> bool:
    return moment is not None and period[0] <= moment.date() <= period[1]


# The slots a label can name (bench/labelled/README.md). A slot the scheme has no name for (the
# person's own `name`) cannot be in a label, so it is not held against a memory whose label names none.
_LABELLED_SLOTS = frozenset({"home_city", "employer", "job_title", "partner", "manager", "diet", "editor"})


def _labelled_slot(attribute: str | None) -> bool:
    return attribute is not None and (
        attribute in _LABELLED_SLOTS or attribute.startswith(("favorite_", "pet_")))


def mismatch(found: Candidate, label: Label, said: Statement) -> str | None:
    """Why `found` is not `label` (None: it is)."""
    if found.kind.value not in label.kinds:
        return f"kind {found.kind.value}, not {'/'.join(sorted(label.kinds))}"
    if label.slot or _labelled_slot(found.attribute):
        mine = (found.attribute, normalized(found.value or ""))
        if label.slot is None or mine != (label.slot[0], normalized(label.slot[1])):
            return f"slot {found.attribute}={found.value!r}, not {label.slot}"
    if found.kind.value == "todo" and label.due:
        if not _within(found.due_at, label.due):
            return f"due {found.due_at and found.due_at.date()}, not {label.due[0]}..{label.due[1]}"
    elif label.when and label.when[0] > said.at.date():
        # a time ahead (a plan, a wish): written in the memory, which holds from when it was said
        if found.valid_from.date() != said.at.date():
            return f"valid_from {found.valid_from.date()}: a plan holds from when it was said"
        if not _mentions(found.content, label.when):
            return f"does not say when ({label.when[0]}..{label.when[1]})"
    elif label.when:
        if not _within(found.valid_from, label.when):
            return f"valid_from {found.valid_from.date()}, not {label.when[0]}..{label.when[1]}"
    elif found.kind.value != "todo" and found.valid_from.date() != said.at.date():
        return f"valid_from {found.valid_from.date()}: a time the statement does not give"
    said = (_ZH_NAME if has_han(label.content) else _NAME).findall(found.content)
    missing = _names(label.content) - {_name_key(w) for w in said}
    if missing:
        return f"leaves out {', '.join(sorted(missing))}"
    theirs, mine_words = _detail(label.content), _detail(found.content)
    shared = theirs & mine_words
    if len(shared) < max(1, math.ceil(len(theirs) / 2)) or len(shared) * 3 < len(mine_words):
        return f"other words (shares {len(shared)} of {len(theirs)})"
    return None


@dataclass
class Scored:
    found: Counter[str] = field(default_factory=Counter)     # per kind, memories found
    right: Counter[str] = field(default_factory=Counter)     # per kind, found and right
    loose: Counter[str] = field(default_factory=Counter)     # per kind, right but for the form
    labelled: Counter[str] = field(default_factory=Counter)  # per kind, labelled memories
    recalled: Counter[str] = field(default_factory=Counter)  # per kind, labelled and found
    slots: Counter[str] = field(default_factory=Counter)     # labelled slots / filled right
    statements: int = 0
    empty: int = 0            # statements that should give nothing
    empty_hit: int = 0        # ... and gave something
    errors: list[str] = field(default_factory=list)


def score(sessions: list[Session], found: dict[tuple[str, int], list[Candidate]]) -> Scored:
    out = Scored()
    for session in sessions:
        candidates = found[(session.chat, session.number)]
        for statement in session.statements.values():
            out.statements += 1
            mine = [c for c in candidates if c.positions and c.positions[0] == statement.position]
            where = f"{session.chat}#{session.number}.{statement.position}"
            if not statement.labels:
                out.empty += 1
                out.empty_hit += bool(mine)
            matched: set[int] = set()
            for candidate in mine:
                out.found[candidate.kind.value] += 1
                fault = form_fault(candidate.content)
                reasons = [mismatch(candidate, label, statement) for label in statement.labels]
                hit = next((i for i, r in enumerate(reasons) if r is None and i not in matched), None)
                out.loose[candidate.kind.value] += hit is not None
                if fault is None and hit is not None:
                    matched.add(hit)
                    out.right[candidate.kind.value] += 1
                    continue
                why = f"form: {fault}" if fault else "; ".join(r for r in reasons if r) or "nothing to keep"
                out.errors.append(f"[wrong] {where} {statement.text!r}\n    -> {candidate.kind.value}: "
                                  f"{candidate.content!r} {_slot(candidate)}({why})")
            for i, label in enumerate(statement.labels):
                for kind in (label.kind,):
                    out.labelled[kind] += 1
                    out.recalled[kind] += i in matched
                if label.slot:
                    out.slots["labelled"] += 1
                    out.slots["filled"] += i in matched
                if i not in matched:
                    out.errors.append(f"[missed] {where} {statement.text!r}\n    -> {label.kind}: "
                                      f"{label.content!r}")
    return out


def _slot(candidate: Candidate) -> str:
    return f"[{candidate.attribute}={candidate.value}] " if candidate.attribute else ""


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "—"


def report(title: str, scored: Scored) -> None:
    table = Table(title=title)
    for column in ("kind", "labelled", "recalled", "recall", "found", "right", "precision",
                   "precision, form aside"):
        table.add_column(column, justify="left" if column == "kind" else "right")
    kinds = sorted(set(scored.labelled) | set(scored.found))
    for kind in [*kinds, "all"]:
        pick = (lambda c: sum(c.values())) if kind == "all" else (lambda c, k=kind: c[k])
        table.add_row(kind, str(pick(scored.labelled)), str(pick(scored.recalled)),
                      _pct(pick(scored.recalled), pick(scored.labelled)), str(pick(scored.found)),
                      str(pick(scored.right)), _pct(pick(scored.right), pick(scored.found)),
                      _pct(pick(scored.loose), pick(scored.found)))
    console.print(table)
    console.print(f"statements {scored.statements}; that should give nothing {scored.empty}, of which "
                  f"{scored.empty_hit} gave something; slots filled right {scored.slots['filled']} of "
                  f"{scored.slots['labelled']}")


def extract_all(extractor: object, sessions: list[Session], cache: Path | None
                ) -> tuple[dict[tuple[str, int], list[Candidate]], float]:
    kept: dict[str, list[Candidate]] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text().splitlines():
            row = json.loads(line)
            kept[row["key"]] = [Candidate.model_validate(c) for c in row["candidates"]]
    found: dict[tuple[str, int], list[Candidate]] = {}
    spent = 0.0
    for session in sessions:
        key = f"{session.chat}/{session.number}/{extractor.name}"  # type: ignore[attr-defined]
        if key not in kept:
            began = time.perf_counter()
            result = extractor.extract(session.messages, session.messages[0].timestamp)  # type: ignore[attr-defined]
            spent += time.perf_counter() - began
            kept[key] = result.candidates
            if cache is not None:
                with cache.open("a") as out:
                    out.write(json.dumps({"key": key, "candidates": [c.model_dump(mode="json")
                                                                      for c in result.candidates]}) + "\n")
        found[(session.chat, session.number)] = kept[key]
    return found, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=[*GROUPS, "all", "zh"], default="all",
                        help="all: seen (dev + heldout, developed on), fresh (round two's held-out part, "
                        "looked at once) and fresh2 (round three's, held out), three tables; "
                        "fresh3: a fourth held-out part of plain chats, reported on its own; "
                        "dev2: plain chats written to develop the rules on (round five); "
                        "fresh4: plain chats written after rules/6, reported on only; "
                        "fresh5: plain chats written after rules/7, reported on only; "
                        "fresh6: plain chats written after rules/9 (endings among them), reported on only; "
                        "fresh7: plain chats written after rules/12 (developed on since rules/14); "
                        "fresh8: plain chats written after rules/13 (developed on since rules/15); "
                        "fresh9: plain chats written after rules/14 (developed on since rules/16); "
                        "fresh10: plain chats written after rules/15 (developed on since rules/17); "
                        "fresh11: plain chats written after rules/16 (developed on since rules/18); "
                        "fresh12: plain chats written after rules/17 (developed on since rules/19); "
                        "fresh13: plain chats written after rules/18, held out; "
                        "fresh14: plain chats written after rules/21, held out; "
                        "fresh15: plain chats written after rules/22, held out; "
                        "zh: the Chinese set (zh-dev, zh-heldout)")
    parser.add_argument("--extractor", choices=["rules", "llm"], default="rules")
    parser.add_argument("--sessions", type=int, default=0,
                        help="a sample: the first session of every Nth chat... (0: every session)")
    parser.add_argument("--cache", type=Path, default=None, help="JSON Lines of extractions to reuse")
    parser.add_argument("--errors", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    if args.extractor == "rules":
        from services.extraction.extractors import RulesExtractor
        extractor: object = RulesExtractor(language="zh" if args.part.startswith("zh") else "en")
    else:
        from infra.settings import Settings
        from services.bootstrap import open_extractor
        extractor = open_extractor(Settings(extractor="llm"))
    chosen = {"all": ("seen", "fresh", "fresh2"), "zh": ZH_PARTS}.get(args.part, (args.part,))
    for part in chosen:
        sessions = [session for name in GROUPS[part] for session in load(name)]
        if args.sessions:
            sessions = sample(sessions, args.sessions)
        found, spent = extract_all(extractor, sessions, args.cache)
        scored = score(sessions, found)
        report(f"{part}: {extractor.name} on {len(sessions)} sessions "  # type: ignore[attr-defined]
               f"({spent:.1f} s extracting)", scored)
        if args.errors:
            for error in scored.errors:
                console.print(error, markup=False, highlight=False)


def sample(sessions: list[Session], count: int) -> list[Session]:
    """`count` sessions spread over the chats: each chat's first session, in turn, then second ones."""
    ordered = sorted(sessions, key=lambda s: (s.number, [x.chat for x in sessions].index(s.chat)))
    return ordered[:count]


if __name__ == "__main__":
    main()
