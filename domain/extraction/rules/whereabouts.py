"""Where the person is as they write, said in passing: "Good morning from Perth", "writing from our
new flat in Walthamstow", "I'm in Tucson now", "the twins are in school here in Tucson". A place
one writes from is most often home; a visit says so ("hello from Rome, the hotel is lovely") and
gives nothing. Unless the message speaks of having moved, the home is a guess (not asserted): it
never replaces a home city the person said themselves."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from datetime import datetime

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.render import times
from domain.extraction.rules.identity import lives_in
from domain.extraction.rules.said import Said, a_home, children, in_one_stretch, one
from domain.text.parse import Sentence, Word, joined

# What one greets with; "hiii", "heyyy" are the same words typed long.
_GREETINGS = frozenset({
    "hi", "hello", "hey", "hiya", "hallo", "hola", "howdy", "greetings", "morning", "afternoon",
    "evening", "bonjour", "ciao", "salut", "yo", "sup",
})
# A stay that is not home: "hello from Rome, the hotel is lovely", "writing from the airport".
_VISITING = frozenset({
    "hotel", "holiday", "holidays", "vacation", "trip", "visit", "visiting", "conference", "hostel",
    "airbnb", "honeymoon", "layover", "airport", "cruise", "tour", "touring", "festival",
    "sightseeing", "travelling", "traveling", "backpacking", "getaway", "stopover", "business",
})
# Having moved, said in the same message: the place is home, as the person says.
_MOVED = frozenset({"move", "moved", "moving", "settle", "settled", "unpack", "unpacked", "relocate",
                    "relocated", "box", "boxes", "key", "keys"})


def _greeting(word: Word) -> bool:
    return re.sub(r"(.)\1+$", r"\1", word.lower) in _GREETINGS or word.lower in _GREETINGS


def home_where_they_are(said: Said, message: Sequence[Sentence]) -> list[Candidate]:
    """The home a sentence of the person's places them in, with the rest of their message saying
    whether it is a visit, or a move."""
    if said.sentence.text.rstrip().endswith("?"):
        return []  # asked: "are we in Bristol now that we've unpacked?"
    words = [w for s in message for w in s.words]
    if any(w.lower in _VISITING or w.lemma.lower() in _VISITING for w in words):
        return []
    where, said_so = _written_from(said) or _here_in(said) or _in_now(said) or (None, False)
    if where is None:
        return []
    moved = said_so or any(w.lower in _MOVED or w.lemma.lower() in _MOVED for w in words) or any(
        w.lower == "new" and i + 1 < len(words) and words[i + 1].lemma.lower() in lex.HOMES
        for i, w in enumerate(words))
    made = lives_in(said, "whereabouts", where, confidence=0.8 if moved else 0.6)
    if made is not None and moved and (since := _moved_on(said, message)) is not None:
        made = made.model_copy(update={"valid_from": since})  # "We moved in on the 1st."
    if made is not None and (home := _home_in(message, where)):
        made = made.model_copy(update={"content": f"{made.content}, in {home}"})
    return one(made if made is None or moved else made.model_copy(update={"asserted": False}))


def _moved_on(said: Said, message: Sequence[Sentence]) -> datetime | None:
    """The day gone by that the message says the move was: "We moved in on the 1st"."""
    for sentence in message:
        if any(w.lemma.lower() in ("move", "relocate") and w.tag == "VBD" for w in sentence.words):
            for dated in times(sentence, said.at, False):
                moment = dated.when.moment()
                if moment.date() <= said.at.date():
                    return moment
    return None


def _home_in(message: Sequence[Sentence], city: str) -> str | None:
    """ "found a flat in Friedrichshain", "we're in a flat in Tiong Bahru": the home the message
    names in a part of the city, said with it ("a flat in Friedrichshain")."""
    for sentence in message:
        for home in sentence.words:
            # "a flat" however tagged (a small model takes "flat" for an adjective), with its article
            if home.lower not in lex.HOMES or not any(
                    c.dep in ("det", "poss") for c in sentence.subtree(home.i) if c.i < home.i):
                continue
            for prep in sentence.children(home.i):
                if prep.lower not in ("in", "near") or prep.dep != "prep":
                    continue
                below = list(itertools.takewhile(lambda w: w.pos != "PUNCT", sentence.subtree(prep.i)))
                named = [w for w in below if w.pos == "PROPN" and not w.text[:1].islower()]
                if not named or joined(named) == city or len(named) > 3:
                    continue
                before = [w for w in sentence.subtree(home.i) if w.i < home.i]
                words = [*before, home, *below]
                if in_one_stretch(words):
                    return a_home(words)
    return None


def _named_place(said: Said, prep: Word) -> str | None:
    """A place named under a preposition: one the parser calls a place, or a capitalised name it
    calls nothing (not a person or an organisation: "hello from Tom", "writing from Acme")."""
    inside = {w.i for w in said.sentence.subtree(prep.i)}
    for kind, found in said.sentence.entities():
        if found[0].i in inside:
            return joined(found) if kind in ("GPE", "LOC") else None
    proper = [w for w in said.sentence.subtree(prep.i) if w.pos == "PROPN" and not w.text[:1].islower()]
    return joined(proper) if 0 < len(proper) <= 3 else None


def _written_from(said: Said) -> tuple[str | None, bool] | None:
    """ "Good morning from Perth", "hallo from Graz!", "writing from our new flat in Walthamstow",
    "now I write you from Aarhus"."""
    sentence = said.sentence
    for prep in sentence.words:
        if prep.lower != "from" or prep.dep != "prep":
            continue
        head = sentence.words[prep.head]
        writing = head.lemma.lower() == "write" and not any(
            c.dep == "nsubj" and c.lower not in ("i", "we") for c in sentence.children(head.i))
        if not (_greeting(head) and head.dep in ("ROOT", "intj")) and not writing:
            continue
        homes = [o for o in children(said, prep, "pobj") if o.lemma.lower() in lex.HOMES]
        if homes:  # "writing from our new flat in Walthamstow": the place the home is in
            ins = [p for p in (*children(said, head, "prep"), *children(said, homes[0], "prep"))
                   if p.lower == "in"]
            where = next((w for p in ins if (w := _named_place(said, p))), None)
            return (where, True) if where else None
        where = _named_place(said, prep)
        if where:
            return where, False
    return None


def _here_in(said: Said) -> tuple[str | None, bool] | None:
    """ "Single dad of two here in Dublin", "the twins are in school here in Tema": "here" is where
    the one who writes is (not in a question, not of a time gone: "when I was here in 2019")."""
    sentence = said.sentence
    for here in sentence.words:
        if here.lower != "here":
            continue
        verb = next((a for a in sentence.ancestors(here.i) if a.pos in ("VERB", "AUX")), None)
        if verb is not None and verb.tag in ("VBD",):
            continue
        for prep in sentence.children(here.i):
            if prep.lower == "in" and (where := _named_place(said, prep)):
                return where, False
    return None


def _in_now(said: Said) -> tuple[str | None, bool] | None:
    """ "I'm in Tucson now", "Now I am in Edmonton, in a small apartment": where one is now, said
    as where one is (not "I'm in Paris now for the week", "until Friday": a stay)."""
    sentence = said.sentence
    for be in sentence.words:
        if be.lemma.lower() != "be" or be.tag not in ("VBP", "VBZ"):
            continue
        subject = next((c for c in sentence.children(be.i) if c.dep == "nsubj"), None)
        if subject is None or subject.lower not in ("i", "we"):
            continue
        below = sentence.children(be.i)
        if not any(c.lower == "now" and c.dep == "advmod" for c in below):
            continue
        if any(c.dep == "neg" for c in below) or any(
                c.lower in ("until", "till", "for") and c.dep == "prep" for c in below):
            continue
        for prep in below:
            if prep.lower == "in" and prep.dep == "prep" and (where := _named_place(said, prep)):
                return where, False
    return None
