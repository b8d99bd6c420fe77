"""The offline extractor: deterministic rules over what the person says of themselves.

No model, nothing invented: a rule fires on a first-person statement of a kind it knows —
where the person lives, works, what they prefer, who their people are, what they plan, what
they ask to be reminded of — and the candidate keeps the person's own sentence as its content.
What it does not recognise, it leaves: lower recall, no guesses. Questions, hypotheticals and
denials assert nothing and are skipped (a request to be reminded may be put as a question).
Times ("last month", "since 2019", "next Friday") are resolved with `dateparser` against the
time of the message that says them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from dateparser.search import search_dates

from domain.commands import Message
from domain.extraction.candidate import Candidate, Relation
from domain.extraction.slots import canonical_slot
from domain.model import MemoryKind, utc

# A proper name: capitalised words, with the small words names hold ("Bank of America").
NAME = (r"(?P<name>[A-Z][\w'&+-]*(?:\.(?=\w))?[\w'&+-]*"
        r"(?:\s+(?:[A-Z][\w'&+-]*|of|de|da|do|la|le|von|van|the)(?=\s+[A-Z]|\b))*)")
REST = r"(?P<what>[^,.;!?]+)"
# What is liked must be a thing, not a pronoun of the moment ("I love it!") or a manner of speaking.
_SOMETHING = r"(?!(?:it|this|that|these|those|you|them|him|her|to think)\b)"
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_ASKED = re.compile(r"\?\s*$")
_HYPOTHETICAL = re.compile(r"^\s*(?:if|when|whether|maybe|perhaps|suppose)\b"
                           r"|\b(?:would|could|might|should)\b(?! like)",
                           re.IGNORECASE)
_DENIED = re.compile(r"\b(?:not|never|no longer|anymore|any more)\b|n't\b", re.IGNORECASE)
_WHEN = re.compile(r"\d|\b(?:yesterday|today|tonight|tomorrow|last|next|ago|week|month|year|weekend|morning|"
                   r"evening|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|"
                   r"april|may|june|july|august|september|october|november|december)\b", re.IGNORECASE)
_SINCE_YEAR = re.compile(r"\bsince (?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
EDITORS = ("VS Code", "VSCode", "Visual Studio Code", "Vim", "Neovim", "Emacs", "Sublime Text", "Sublime",
           "IntelliJ", "PyCharm", "WebStorm", "Zed", "Cursor", "Helix", "Atom", "Nano", "Kate", "Xcode")
_SINGLE = {"wife": "partner", "husband": "partner", "partner": "partner", "girlfriend": "partner",
           "boyfriend": "partner", "fiance": "partner", "fiancee": "partner", "boss": "manager",
           "manager": "manager"}
_PEOPLE = ("wife|husband|partner|girlfriend|boyfriend|fiancee|fiance|sister|brother|mother|mom|mum|father|"
           "dad|son|daughter|boss|manager|best friend|friend|cousin|aunt|uncle|grandmother|grandfather")


@dataclass(frozen=True)
class Said:
    """One sentence the person said: its text, the message it is in, and when."""

    text: str
    position: int
    at: datetime


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], Said], Candidate | None]
    asked: bool = False   # may fire in a question ("can you remind me to ...?")
    denied: bool = False  # may fire in a denial ("I don't like ...")


def sentences(messages: Sequence[Message], at: datetime) -> list[Said]:
    """What the person said, sentence by sentence (the assistant's words are not theirs)."""
    return [Said(s.group().strip(), position, utc(message.timestamp or at))
            for position, message in enumerate(messages) if message.role == "user"
            for s in _SENTENCE.finditer(message.content) if s.group().strip()]


def since(said: Said, future: bool = False) -> datetime | None:
    """The time a sentence names, resolved against when it was said (None: it names none)."""
    return resolve(said.text, said.at, future)


def resolve(text: str, at: datetime, future: bool = False) -> datetime | None:
    """The time `text` names ("last month", "since 2019", "next Friday at 10"), resolved against
    `at`, in the past unless `future`; None when it names none."""
    if not future and (year := _SINCE_YEAR.search(text)):
        return datetime(int(year.group("year")), 1, 1, tzinfo=UTC)
    found = search_dates(text, languages=["en"], settings={
        "RELATIVE_BASE": at.astimezone(UTC).replace(tzinfo=None),
        "PREFER_DATES_FROM": "future" if future else "past", "PREFER_DAY_OF_MONTH": "first",
        "RETURN_AS_TIMEZONE_AWARE": False})
    for phrase, moment in found or []:
        if _WHEN.search(phrase) and phrase.strip().lower() not in {"may", "march", "sun"}:
            return moment.replace(tzinfo=UTC)
    return None


def _candidate(said: Said, kind: MemoryKind, rule: str, *, attribute: str | None = None,
               value: str | None = None, entities: tuple[str, ...] = (), confidence: float = 0.9,
               due_at: datetime | None = None, typed: str | None = None,
               relation: str | None = None) -> Candidate:
    """`typed`: the type of the entities; `relation`: how the person stands to the (one) entity."""
    content = said.text[0].upper() + said.text[1:]
    return Candidate(kind=kind, content=content, attribute=attribute, value=value,
                     valid_from=since(said) or said.at if kind is not MemoryKind.TODO else said.at,
                     due_at=due_at, entities=entities, confidence=confidence, positions=(said.position,),
                     entity_types=tuple((name, typed) for name in entities) if typed else (),
                     relations=tuple(Relation(predicate=relation, object=name) for name in entities)
                     if relation else (),
                     extractor=f"rules:{rule}")


# What a slot's value is, and how the person stands to it.
_SLOT_TYPES = {"home_city": ("place", "lives_in"), "employer": ("organization", "works_at")}


def _slot(kind: MemoryKind, slot: str, rule: str) -> Callable[[re.Match[str], Said], Candidate]:
    typed, relation = _SLOT_TYPES.get(slot, (None, None))

    def build(match: re.Match[str], said: Said) -> Candidate:
        name = match.group("name").strip()
        return _candidate(said, kind, rule, attribute=slot, value=name, entities=(name,), typed=typed,
                          relation=relation)
    return build


def _favourite(match: re.Match[str], said: Said) -> Candidate:
    value = match.group("what").strip()
    return _candidate(said, MemoryKind.PREFERENCE, "favourite",
                      attribute=canonical_slot(f"favorite_{match.group('thing')}"), value=value)


def _editor(match: re.Match[str], said: Said) -> Candidate | None:
    name = match.group("name").strip()
    named = next((e for e in EDITORS if name.lower().startswith(e.lower())), None)
    if named is None and not re.search(r"\b(?:editor|IDE)\b", said.text, re.IGNORECASE):
        return None
    value = named or name
    return _candidate(said, MemoryKind.PREFERENCE, "editor", attribute="editor", value=value,
                      entities=(value,), typed="software", relation="uses")


def _theme(match: re.Match[str], said: Said) -> Candidate:
    return _candidate(said, MemoryKind.PREFERENCE, "theme", attribute="editor_theme",
                      value=match.group("theme").lower())


def _person(match: re.Match[str], said: Said) -> Candidate:
    relation, name = match.group("rel").lower(), match.group("name").strip()
    slot = _SINGLE.get(relation.replace("é", "e"))
    return _candidate(said, MemoryKind.PERSON, "person", attribute=slot, value=name if slot else None,
                      entities=(name,), typed="person", relation=re.sub(r"\W+", "_", relation))


def _plain(kind: MemoryKind, rule: str, confidence: float) -> Callable[[re.Match[str], Said], Candidate]:
    def build(match: re.Match[str], said: Said) -> Candidate:
        return _candidate(said, kind, rule, confidence=confidence)
    return build


def _reminder(match: re.Match[str], said: Said) -> Candidate:
    what = match.group("what").strip().rstrip("?!. ")
    return Candidate(kind=MemoryKind.TODO, content=f"Remind me to {what}", valid_from=said.at,
                     due_at=since(said, future=True), confidence=0.9, positions=(said.position,),
                     extractor="rules:reminder")


def _i(words: str) -> str:
    """The opening of a first-person statement, any case: `I` + words (contractions allowed)."""
    return rf"(?i:\bI(?:'m| am|'ve| have)?\s+{words})"


RULES: tuple[Rule, ...] = (
    Rule("residence", re.compile(_i(r"(?:just |recently |finally )?(?:moved|relocated) to ") + NAME),
         _slot(MemoryKind.FACT, "home_city", "residence")),
    Rule("residence", re.compile(_i(r"(?:now |currently )?(?:live|living|based|settled) in ") + NAME),
         _slot(MemoryKind.FACT, "home_city", "residence")),
    # "I lived in Rome" is the past; "I've lived in Osaka since 2019" is where they live.
    Rule("residence", re.compile(r"(?i:\bI(?:'ve| have) (?:lived|been living) in )" + NAME),
         _slot(MemoryKind.FACT, "home_city", "residence")),
    Rule("employer", re.compile(_i(r"(?:now |currently )?(?:work|working) (?:at|for) ") + NAME),
         _slot(MemoryKind.FACT, "employer", "employer")),
    Rule("employer", re.compile(_i(r"(?:just |recently )?(?:started|joined|began)"
                                   r"(?: a new job| working| work)?(?: at| with)? ") + NAME),
         _slot(MemoryKind.FACT, "employer", "employer")),
    Rule("job", re.compile(_i(r"work as an? ") + r"(?P<name>[\w -]+?)(?= at\b| for\b|[,.;!]|$)"),
         _slot(MemoryKind.FACT, "job_title", "job")),
    Rule("favourite", re.compile(r"(?i:\bmy favou?rite (?P<thing>\w+(?: \w+)?) is )" + REST), _favourite),
    Rule("editor", re.compile(_i(r"(?:just )?(?:switched|moved|changed)(?: my (?:code )?editor| editors)?"
                                 r"(?: from [\w ]+?)? to ") + NAME), _editor),
    Rule("editor", re.compile(_i(r"(?:now )?use ") + NAME + r"(?i: (?:as my editor|for (?:coding|editing)))"),
         _editor),
    Rule("theme", re.compile(r"(?i:\bI (?:prefer|use|like|switched to) (?:the )?(?P<theme>dark|light|"
                             r"solarized|monokai|dracula|nord|high.contrast) (?:theme|mode))"), _theme),
    Rule("person", re.compile(rf"(?i:\bmy (?P<rel>{_PEOPLE})(?:'s name)?(?: is called| is named| is|,) )"
                              + NAME), _person),
    Rule("diet", re.compile(_i(r"(?:a )?(?:strict )?")
                            + r"(?i:(?P<name>vegetarian|vegan|pescatarian|keto))\b"),
         _slot(MemoryKind.FACT, "diet", "diet")),
    Rule("allergy", re.compile(_i(r"(?:severely |very )?allergic to ") + REST),
         _plain(MemoryKind.FACT, "allergy", 0.9)),
    Rule("dislike", re.compile(_i(r"(?:really |absolutely )?(?:hate|dislike|can't stand|cannot stand|"
                                  r"don't like|do not like) ") + _SOMETHING + REST),
         _plain(MemoryKind.PREFERENCE, "dislike", 0.8), denied=True),
    Rule("like", re.compile(_i(r"(?:really |absolutely |much )?(?:love|like|enjoy|prefer|adore) ")
                            + _SOMETHING + REST),
         _plain(MemoryKind.PREFERENCE, "like", 0.8)),
    Rule("goal", re.compile(r"(?i:\b(?:I want to|I'd like to|I would like to|I'm planning to|"
                            r"I am planning to|I plan to|my goal is to|I'm trying to|I am trying to|"
                            r"I hope to|I intend to|I've decided to|I have decided to|"
                            r"I'm saving (?:up )?for|I am saving (?:up )?for|"
                            r"I'm (?:thinking|dreaming) (?:of|about)|"
                            r"I am (?:thinking|dreaming) (?:of|about)|I'm looking forward to|"
                            r"I am looking forward to) )" + _SOMETHING + REST),
         _plain(MemoryKind.GOAL, "goal", 0.8)),
    # What lasts in a life, said in the first person; a one-off errand ("I joined the meeting") is
    # left alone, and so is what is passing ("I'm a bit tired").
    Rule("life_event", re.compile(_i(r"(?:just |recently |finally |also )?(?:adopted|graduated|retired|"
                                     r"got (?:married|engaged|divorced|promoted|sober)|"
                                     r"had a (?:baby|son|daughter)|"
                                     r"bought (?:a|my first|our first) (?:house|home|car|flat|apartment)|"
                                     r"ran (?:a|my first) (?:marathon|half.marathon|5k|10k|race)|"
                                     r"published|won) ?") + r"(?P<what>[^,.;!?]*)"),
         _plain(MemoryKind.EVENT, "life_event", 0.8)),
    Rule("trip", re.compile(_i(r"(?:just |recently |finally |also )?(?:went|traveled|travelled|flew) to ")
                            + NAME),
         _plain(MemoryKind.EVENT, "trip", 0.7)),
    Rule("trip", re.compile(_i(r"(?:just |recently |finally |also )?visited ") + NAME),
         _plain(MemoryKind.EVENT, "trip", 0.7)),
    Rule("household", re.compile(r"(?i:\bI(?:'ve| have)(?: got)? (?:a|an|one|two|three|four|five|six|\d+) "
                                 r"(?:\w+ )?(?:kids?|children|sons?|daughters?|sisters?|brothers?|siblings|"
                                 r"dogs?|cats?|pets?|grandchildren|grandkids)\b)"),
         _plain(MemoryKind.FACT, "household", 0.85)),
    Rule("household", re.compile(_i(r"(?:been )?(?:married|together) (?:for|since) ")),
         _plain(MemoryKind.FACT, "household", 0.85)),
    Rule("fan", re.compile(r"(?i:\bI(?:'m| am) (?:a )?(?:big |huge |long-time |lifelong )?fan of )"
                           + _SOMETHING + REST),
         _plain(MemoryKind.PREFERENCE, "fan", 0.8)),
    Rule("identity", re.compile(r"(?i:\bI(?:'m| am) (?:a|an) (?!(?:bit|little|lot|few|mess|wreck|fan|"
                                r"big fan|huge fan)\b))" + REST),
         _plain(MemoryKind.FACT, "identity", 0.7)),
    Rule("reminder", re.compile(r"(?i:\b(?:remind me to|remind me that I need to|don't let me forget to) )"
                                r"(?P<what>[^.!]+)"), _reminder, asked=True, denied=True),
)


def extract(messages: Sequence[Message], at: datetime) -> list[Candidate]:
    """The candidates the rules find in a conversation, one per thing said (the first statement
    of a slot's value or of a sentence wins; later ones add their positions)."""
    found: dict[tuple[str | None, str], Candidate] = {}
    for said in sentences(messages, at):
        asked, supposed = bool(_ASKED.search(said.text)), bool(_HYPOTHETICAL.search(said.text))
        denied = bool(_DENIED.search(said.text))
        for rule in RULES:
            if (asked and not rule.asked) or (supposed and not rule.asked) or (denied and not rule.denied):
                continue
            match = rule.pattern.search(said.text)
            candidate = rule.build(match, said) if match else None
            if candidate is None:
                continue
            key = (candidate.attribute, (candidate.value or candidate.content).casefold())
            if key in found:
                earlier = found[key]
                found[key] = earlier.model_copy(update={"positions": (*earlier.positions, said.position)})
            else:
                found[key] = candidate
            break  # one candidate per sentence: the most specific rule, listed first
    return list(found.values())
