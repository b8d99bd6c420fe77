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
        return []
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
