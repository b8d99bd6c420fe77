"""What the person asks to be reminded of, or must do by a date."""

from __future__ import annotations

from domain.extraction.candidate import Candidate
from domain.extraction.render import written_words
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    names_a_thing,
    one,
)
from domain.model import MemoryKind

# --- requests -------------------------------------------------------------------------------------------


def reminder(said: Said) -> list[Candidate]:
    """ "Remind me to renew my licence next Friday" — asked as a question or not."""
    clause = said.clause
    if clause.lemma != "remind" or clause.negated:
        return []
    if not any(w.lower == "me" for w in children(said, clause.head, "dobj", "nsubj")):
        return []
    task = next(
        (
            w
            for w in children(said, clause.head, "xcomp", "ccomp")
            if w.pos in ("VERB", "AUX") and not children(said, w, "nsubj")
        ),
        None,
    )
    if task is None:
        # "I need to register with a GP, remind me on Monday": the need said before it
        task = next(
            (
                w
                for w in said.sentence.words
                if w.dep == "xcomp"
                and w.i < clause.head.i
                and said.sentence.words[w.head].lemma.lower() in ("need", "have")
            ),
            None,
        )
    if task is None:
        return _what_came_before(said)
    words = [
        w
        for w in said.sentence.subtree(task.i)
        if not (w.dep == "aux" and w.lower == "to")
        and not (w.lower in ("here", "there") and w.dep == "advmod")
    ]
    if not names_a_thing(said, words):
        return []
    due = said.due()
    inside = {w.i for w in words}
    dated = [d for d in said.dated if d.first in inside or d.first + 1 in inside]
    text = written_words(words, dated, drop_subject_agreement=False)
    if due is not None and not dated:
        text += " " + said.dated[0].text if said.dated else ""
    return one(candidate(said, MemoryKind.TODO, "reminder", text, due_at=due, confidence=0.9))


def _what_came_before(said: Said) -> list[Candidate]:
    """ "Dentist on Friday at 10, remind me?": the errand named before the request, with its time —
    a noun phrase with a time, no verb of its own (a verb would be someone's clause)."""
    sentence, head = said.sentence, said.clause.head
    before = [w for w in sentence.words if w.i < head.i and w.pos not in ("PUNCT",)]
    while before and (
        before[-1].lower in ("can", "could", "will", "would", "please", "pls", "so", "and", "you", "u")
        or before[-1].pos in ("CCONJ", "INTJ")
    ):
        before = before[:-1]
    if before and before[0].lower == "my":
        before = before[1:]  # "my car service on Monday": the errand, not whose
    errand = bool(before) and before[0].tag == "VB" and before[0].pos == "VERB"  # "Call mum on Friday, ..."
    if not before or any(
        (w.pos in ("VERB", "AUX") and not (errand and w is before[0]))
        or (w.pos == "PRON" and w.dep != "poss")
        for w in before
    ):
        return []
    inside = {w.i for w in before}
    dated = [d for d in said.dated if d.first in inside or d.first + 1 in inside]
    due = next((d.when.moment() for d in dated if d.when.moment().date() >= said.at.date()), None)
    if due is None or not names_a_thing(
        said, [w for w in before if not any(d.first <= w.i <= d.last for d in dated)]
    ):
        return []
    text = written_words(before, dated, drop_subject_agreement=False)
    return one(candidate(said, MemoryKind.TODO, "reminder", text, due_at=due, confidence=0.8))


def need(said: Said) -> list[Candidate]:
    """ "I need to hire two engineers by April": a to-do, when it has a time."""
    clause = said.clause
    if clause.person != "i" or clause.lemma not in ("need", "have") or not clause.asserted:
        return []
    task = next((w for w in children(said, clause.head, "xcomp") if w.pos in ("VERB", "AUX")), None)
    due = said.due()
    if task is None or due is None or any(w.lemma.lower() == "remind" for w in said.sentence.words):
        return []
    words = [
        w
        for w in said.sentence.subtree(task.i)
        if not (w.dep == "aux" and w.lower == "to")
        and not (w.lower in ("here", "there") and w.dep == "advmod")
    ]
    if not names_a_thing(said, words):
        return []
    inside = {w.i for w in words}
    dated = [d for d in said.dated if d.first in inside or d.first + 1 in inside]
    return one(
        candidate(
            said,
            MemoryKind.TODO,
            "need",
            written_words(words, dated, drop_subject_agreement=False),
            due_at=due,
            confidence=0.8,
        )
    )
