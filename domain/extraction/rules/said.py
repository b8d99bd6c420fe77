"""A clause as the rules read it, and the helpers every rule shares: the candidate it makes, the
place or organisation it names, whether its words name a thing."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate, Relation
from domain.extraction.clauses import Clause
from domain.extraction.render import Dated, clause_words, tidy, written_words
from domain.model import MemoryKind
from domain.text.parse import Sentence, Word, joined

# 11: chat typed in haste, places taken for organisations, "since", medicines one is on, ages with names
# 12: one of theirs with where they live, a pet's breed and age, doses, requests with no verb
# 21: where the person writes from ("Good morning from Perth"), the city of a business they run
# 22: a home found with the day one moves in, the job talked of got with no name, chat shortcuts no name
RULES_VERSION = "rules/23"
_NOT_A_START = frozenset(
    {
        "to",
        "that",
        "which",
        "who",
        "whom",
        "when",
        "if",
        "because",
        "and",
        "but",
        "or",
        "so",
        "why",
        "what",
        "where",
        "how",
        "though",
        "although",
        "while",
        "as",
        "than",
    }
)
NOT_A_THING = frozenset({"few", "some", "bit", "lots", "couple"}) | frozenset(
    {
        "it",
        "this",
        "that",
        "these",
        "those",
        "them",
        "you",
        "him",
        "her",
        "one",
        "something",
        "anything",
        "everything",
        "nothing",
        "what",
        "which",
        "u",
        "lot",
        "stuff",
    }
)
_SLOT_TYPES = {"home_city": ("place", "lives_in"), "employer": ("organization", "works_at")}


@dataclass(frozen=True)
class Said:
    """A clause of the person's, where it was said, and the times its sentence names."""

    clause: Clause
    position: int
    at: datetime
    dated: tuple[Dated, ...]
    # The person's people named earlier in the conversation, by name: {"Dev": "husband"}.
    known: Mapping[str, str] = field(default_factory=dict)
    # Words of the clause left out of its memory: the others listed in "I'm 34 and a nurse".
    drop: frozenset[int] = frozenset()
    # The sentences of the same message before this one: what "there" or "it" may stand for.
    earlier: tuple[Sentence, ...] = ()

    @property
    def sentence(self) -> Sentence:
        return self.clause.sentence

    def text(self, drop: Sequence[int] = (), words: Sequence[Word] | None = None) -> str:
        """The clause (or `words`) as a memory; with `words` that keep their own subject ("knees
        are sore"), the verb agrees with it as said."""
        chosen = list(words) if words is not None else clause_words(self.clause, {*drop, *self.drop})
        inside = {w.i for w in chosen}
        subject = self.clause.subject
        own_subject = words is not None and subject is not None and subject.i in inside
        text = written_words(
            chosen,
            [d for d in self.dated if d.first in inside or d.first + 1 in inside],
            drop_subject_agreement=not own_subject,
        )
        if self.clause.has_got and text.startswith("Got "):
            text = "Has " + text[4:]  # "got a dentist appointment on the 19th": has, for that day
        partners = self.together()
        return f"{text} with {partners}" if words is None and partners and text else text

    def together(self) -> str | None:
        """Who the person did it with when they said "my wife Leila and I": "their wife Leila"."""
        subject = self.clause.subject
        if subject is None or subject.lower in ("i", "we"):
            return None
        conj = [c for c in self.sentence.subtree(subject.i) if c.dep == "conj"]
        if not any(c.lower == "i" for c in conj):
            return None
        appos = [a for a in self.sentence.children(subject.i) if a.dep == "appos"]
        named = [a for a in appos if a.i == subject.i + 1]  # "my husband Dev and I"
        listed = [a for a in appos if a.i != subject.i + 1]  # "my girlfriend, Toby and I": two people
        others = [
            w
            for w in self.sentence.subtree(subject.i)
            if w.i <= subject.i or any(w.i == a.i or (w.head == a.i and w.dep == "compound") for a in named)
        ]
        text = written_words(others, [], drop_subject_agreement=False) if others else ""
        text = text[:1].lower() + text[1:] if text.startswith("Their ") else text
        for other in listed:
            text += " and " + joined([w for w in self.sentence.subtree(other.i)
                                      if w.i == other.i or (w.head == other.i and w.dep == "compound")])
        return text or None

    def when(self, past_only: bool = True) -> datetime | None:
        """The time the clause names, when it is in the past (else None: it holds from when said)."""
        inside = {w.i for w in clause_words(self.clause, self.drop)}
        for dated in self.dated:
            if dated.first in inside or dated.first + 1 in inside:
                moment = dated.when.moment()
                if not past_only or moment.date() <= self.at.date():
                    return moment
        return None

    def since(self) -> datetime | None:
        """The past time the clause says it has held since ("since 2019", "since October")."""
        inside = {w.i for w in clause_words(self.clause, self.drop)}
        for dated in self.dated:
            if self.sentence.words[dated.first].lower == "since" and (
                dated.first in inside or dated.first + 1 in inside
            ):
                moment = dated.when.moment()
                if moment.date() <= self.at.date():
                    return moment
        return None

    def due_dated(self) -> Dated | None:
        """The time a to-do falls due by: the first said that is ahead or still under way."""
        return next((d for d in self.dated if d.when.moment().date() >= self.at.date()
                     or d.when.last_day() >= self.at.date()), None)

    def due(self) -> datetime | None:
        """When a to-do said with a time falls due: the time's first day, or, for a period already
        under way ("this week" said on a Sunday, "this month"), its last day."""
        dated = self.due_dated()
        if dated is None:
            return None
        if dated.when.moment().date() >= self.at.date():
            return dated.when.moment()
        end = dated.when.last_day()
        return datetime(end.year, end.month, end.day, tzinfo=UTC)


def candidate(
    said: Said,
    kind: MemoryKind,
    rule: str,
    content: str,
    *,
    attribute: str | None = None,
    value: str | None = None,
    entities: tuple[str, ...] = (),
    typed: str | None = None,
    relation: str | None = None,
    confidence: float = 0.9,
    valid_from: datetime | None = None,
    due_at: datetime | None = None,
    ends: tuple[str, ...] = (),
    ended_value: str | None = None,
) -> Candidate | None:
    content = tidy(content)
    if said.clause.has_got and content.startswith("Has got "):
        content = "Has " + content[len("Has got "):]  # "I've got two cats": has two cats
    if len(content.split()) < 2 or content.split()[0].lower() in _NOT_A_START:
        return None  # a fragment ("To relax by reading", "That got ...")
    if attribute in _SLOT_TYPES and typed is None:
        typed, relation = _SLOT_TYPES[attribute]
    if ends and ended_value is None and valid_from is None and _ended_at_an_unsaid_time(said.sentence):
        ends = ()  # "I broke up with my boyfriend years ago": not the partner of now
    if valid_from is None and kind not in (MemoryKind.PLAN, MemoryKind.TODO, MemoryKind.GOAL):
        valid_from = said.since()  # "I've been vegan since 2019": true from then, not from when said
    return Candidate(
        kind=kind,
        content=content,
        attribute=attribute,
        value=value,
        valid_from=valid_from or said.at,
        due_at=due_at,
        ends=ends,
        ended_value=ended_value,
        entities=entities,
        confidence=confidence,
        positions=(said.position,),
        entity_types=tuple((name, typed) for name in entities) if typed else (),
        relations=tuple(Relation(predicate=relation, object=name) for name in entities) if relation else (),
        extractor=f"{RULES_VERSION}:{rule}",
    )


# Words that place what is told at a past time no date holds: "years ago", "back then", "once".
_UNDATED_PAST = frozenset({"ago", "back", "once", "then", "long"})
_WHEN_MARKS = frozenset({"when", "before", "after", "while", "since"})


def _ended_at_an_unsaid_time(sentence: Sentence) -> bool:
    """Whether a sentence places what ended at a past time it gives no date for ("years ago",
    "when I was 30", "back then"): an ending that names no value is then no ending of the value
    in force now, which may have begun since. Said with no time at all, it ended lately."""
    return any(w.lower in _UNDATED_PAST and w.pos in ("ADV", "ADP", "ADJ") for w in sentence.words) or any(
        w.dep == "advcl" and any(c.dep in ("mark", "advmod") and c.lower in _WHEN_MARKS
                                 for c in sentence.children(w.i))
        for w in sentence.words)


Rule = Callable[[Said], list[Candidate]]


def children(said: Said, word: Word, *deps: str) -> list[Word]:
    return [w for w in said.sentence.children(word.i) if not deps or w.dep in deps]


def place(said: Said, under: Word, named: bool = False, organisations: bool = False) -> str | None:
    """The place named under a word (a city, a country); `named`: any proper name there that is
    not an organisation will do (a small model often takes a city for a person); `organisations`:
    one taken for an organisation too, where nothing else is meant ("I live in Hackney")."""
    inside = {w.i for w in said.sentence.subtree(under.i)}
    for kind, words in said.sentence.entities():
        if kind in ("GPE", "LOC") and words[0].i in inside:
            return joined(words)
    if named:
        # written with a capital ("a van route": "van" is no name, whatever its tag)
        proper = [w for w in said.sentence.subtree(under.i)
                  if w.pos == "PROPN" and (w.ent != "FAC" or not _a_street(said.sentence, w)
                                           if organisations else w.ent != "ORG")
                  and not w.text[:1].islower()]  # with organisations, no building or street: "Hope Street"
        # "to Tom's": someone's home, no place; "to Davao for my friend's wedding" is a place
        named_at = {w.i for w in proper}
        possessed = any(w.tag == "POS" and w.head in named_at for w in said.sentence.subtree(under.i))
        if proper and not possessed and len(proper) <= 3:
            return joined(proper)
    return None


# The last word of a street's or a building's name: "Hope Street", "Carlton House".
_STREETS = frozenset({"street", "st", "road", "rd", "avenue", "ave", "lane", "drive", "close", "way",
                      "terrace", "crescent", "square", "court", "gardens", "place", "row", "house",
                      "hall", "tower", "towers", "building", "centre", "center", "hospital", "station"})


def _a_street(sentence: Sentence, word: Word) -> bool:
    """Whether a name tagged as a facility is a street's or a building's ("Hope Street"), not a town
    that a small model took for one by its last word ("Hebden Bridge", "Burnham Market")."""
    for kind, words in sentence.entities():
        if kind == "FAC" and any(w.i == word.i for w in words):
            return words[-1].lower in _STREETS
    return True


def organisation(said: Said, under: Word) -> str | None:
    return organisation_in(said.sentence, under)


def organisation_in(sentence: Sentence, under: Word) -> str | None:
    """The name under a word ("at [Casa Verde]"), as the model tags it or as it is capitalised."""
    inside = {w.i for w in sentence.subtree(under.i)}
    for kind, words in sentence.entities():
        if kind in ("ORG", "GPE", "PERSON", "FAC") and words[0].i in inside and words[-1].i in inside:
            return joined(words).rstrip(".")
    # a time is no one's name: "at a food bank on Saturdays"
    proper = [w for w in sentence.subtree(under.i)
              if w.pos == "PROPN" and w.ent not in ("DATE", "TIME", "CARDINAL", "ORDINAL")]
    return joined(proper) if proper and len(proper) <= 4 else None


def objects(said: Said, word: Word) -> list[Word]:
    return children(said, word, "dobj", "attr", "oprd", "xcomp", "ccomp", "pobj", "acomp")


def names_a_thing(said: Said, words: Sequence[Word]) -> bool:
    """Whether words say what they are about (not "it", "that one", "something")."""
    nouns = [
        w
        for w in words
        if w.pos in ("NOUN", "PROPN", "NUM")
        or (w.pos == "VERB" and w.tag == "VBG")
        or (w.dep in ("dobj", "pobj") and w.pos not in ("PRON", "DET"))
    ]
    following = said.sentence.words
    return bool(nouns) and not any(
        w.lower in NOT_A_THING
        and w.pos in ("PRON", "DET", "NOUN", "NUM")
        and w.dep in ("dobj", "pobj", "nsubj", "attr")
        # "down to one a day": a count, not "that one"
        and not (w.lower == "one" and w.i + 1 < len(following)
                 and following[w.i + 1].lower in ("a", "an", "per", "each", "every"))
        for w in words
    )


def in_one_stretch(words: Sequence[Word]) -> bool:
    """Whether words follow one another in their sentence, none left out between them."""
    return all(b.i == a.i + 1 for a, b in zip(words, words[1:], strict=False))


def a_home(words: Sequence[Word]) -> str:
    """A home named as any home ("our new flat in Leith" -> "a new flat in Leith")."""
    return re.sub(r"^(?:my|our|the)\b", "a", joined(words), flags=re.IGNORECASE)


def one(found: Candidate | None) -> list[Candidate]:
    return [found] if found else []


def _counted(said: Said, word: Word) -> bool:
    """ "five coffees (a day)", "20 miles (a week)": a number of things, said per day or week."""
    return word.pos == "NUM" or (
        word.pos == "NOUN" and any(c.dep == "nummod" for c in said.sentence.children(word.i)))


def _counted_above(said: Said, word: Word) -> bool:
    """ "three coffees a day", "five cups of tea a day": the thing counted, or what it is a count of."""
    for _ in range(3):  # "tea" of "of" of "cups"
        if _counted(said, word):
            return True
        if word.head == word.i:
            return False
        word = said.sentence.words[word.head]
    return False


def frequency(said: Said) -> bool:
    words = clause_words(said.clause)
    return (
        any(w.lower in lex.FREQUENCY for w in words)
        or any(
            w.lower in ("for", "since")
            and any(
                c.ent in ("DATE",) or c.lemma.lower() in ("year", "month", "week")
                for c in said.sentence.subtree(w.i)
            )
            for w in words
        )
        or any(
            w.lower == "a"
            and said.sentence.words[w.head].lemma.lower() in ("week", "day", "month", "year")
            and w.i > 0
            and (said.sentence.words[w.i - 1].lemma.lower() in ("time", "day", "twice", "once")
                 or _counted_above(said, said.sentence.words[w.i - 1]))
            for w in words
        )
    )
