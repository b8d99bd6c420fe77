"""A short answer to the assistant's question: "What's your dog's name?" — "Biscuit." The answer
alone says nothing; with the question it is a memory. Only questions whose answer can be read
without doubt: a named pet or relative, and where the person lives."""

from __future__ import annotations

import re
from datetime import datetime

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.clauses import Clause, is_question
from domain.extraction.rules.identity import lives_in
from domain.extraction.rules.people import theirs
from domain.extraction.rules.said import Said, one
from domain.text.parse import Sentence, joined

_NAME_ASKED = re.compile(
    r"\bwhat(?:'s| is) (?:your|the) (?P<who>[a-z][a-z -]*?)(?:'s|s') name\b"
    r"|\bwhat(?:'s| is) (?:your|the) (?P<who2>[a-z][a-z -]*?) called\b"
    r"|\bwhat do you call (?:your|the) (?P<who3>[a-z][a-z -]*?)\b",
    re.IGNORECASE,
)
_HOME_ASKED = re.compile(
    r"\bwhere (?:do you live|are you (?:based|living)|do you call home)\b", re.IGNORECASE
)
SHORT = 8  # words: a longer reply says its own things, which the other rules read


def answers(question: str, sentences: list[Sentence], position: int, at: datetime) -> list[Candidate]:
    """What a short reply to `question` (the assistant's message before it) tells of the person."""
    if not question.rstrip().endswith("?") or not sentences:
        return []
    first = sentences[0]
    words = [w for w in first.words if w.pos != "PUNCT"]
    if not words or len(words) > SHORT or is_question(first):
        return []
    if any(w.pos in ("VERB", "AUX") and w.lower not in ("'s", "is") for w in words[:1]):
        return []  # "Called him Rex, ...": a clause of its own, for the other rules
    root = next((w for w in first.words if w.dep == "ROOT"), first.words[0])
    said = Said(Clause(first, root, None, "i", False, False, False, False), position, at, ())
    if any(w.dep == "neg" or w.lower in ("not", "no", "dunno", "maybe") for w in words):
        return []  # "Not sure yet"
    lead = []  # the proper name the reply opens with ("Biscuit", "Porto, in the north")
    for w in words:
        if w.pos != "PROPN":
            break
        lead.append(w)
    alone = [w for w in words if w.lower not in lex.DISCOURSE and w.lower not in lex.CHAT_NOISE]
    if not lead and len(alone) == 1 and alone[0].text[:1].isupper() and alone[0].pos in ("NOUN", "PROPN"):
        lead = alone  # "Biscuit.": a one-word reply, capitalised, is the name asked for
    proper = lead
    asked = _NAME_ASKED.search(question)
    if asked and proper:
        who = (asked.group("who") or asked.group("who2") or asked.group("who3") or "").strip().lower()
        noun = who.split()[-1] if who else ""
        name = joined([w for w in first.words if w.i in {p.i for p in proper}][:3]).strip(" ,.")
        if noun.endswith("s") and noun[:-1] in lex.PETS:
            return []  # "your dogs' names": more than one
        pet = lex.PETS.get(noun)
        if pet is not None or noun in lex.OWN_PEOPLE:
            return one(theirs(said, noun, pet, name, rule="answer", confidence=0.8))
        return []
    if _HOME_ASKED.search(question):
        places = [ws for kind, ws in first.entities() if kind == "GPE"]
        if len(places) == 1 or (not places and proper):
            city = joined(places[0] if places else proper)
            return one(lives_in(said, "answer", city, confidence=0.8))
    return []
