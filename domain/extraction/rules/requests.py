"""What the person asks to be reminded of, or must do by a date."""

from __future__ import annotations

import re

from domain.extraction.candidate import Candidate
from domain.extraction.render import written_words
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    names_a_thing,
    one,
)
from domain.extraction.times import written
from domain.model import MemoryKind
from domain.text.parse import Word

# --- requests -------------------------------------------------------------------------------------------


def reminder(said: Said) -> list[Candidate]:
    """ "Remind me to renew my licence next Friday" — asked as a question or not."""
    clause = said.clause
    if clause.lemma in ("forget", "remember"):
        return _not_to_forget(said)
    if clause.lemma != "remind" or clause.negated:
        return []
    if not any(w.lower == "me" for w in children(said, clause.head, "dobj", "nsubj")):
        return []
    about = next((p for p in children(said, clause.head, "prep") if p.lower in ("about", "of")), None)
    if about is not None and not children(said, clause.head, "xcomp", "ccomp"):
        return _errand(said, [w for w in said.sentence.subtree(about.i) if w is not about])
    task = next(
        (
            w
            for w in children(said, clause.head, "xcomp", "ccomp")
            if w.pos in ("VERB", "AUX") and not children(said, w, "nsubj")
        ),
        None,
    )
    if task is None:
        # "remind me to text claire tomorrow": a verb that is a noun too, read as one, with its "to"
        task = next((x for x in children(said, clause.head, "xcomp") if x.pos in ("NOUN", "PROPN") and any(
            c.dep == "aux" and c.lower == "to" for w in said.sentence.subtree(x.i) for c in [w])), None)
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
        return _what_came_before(said) or _said_beside(said)
    words = [
        w
        for w in said.sentence.subtree(task.i)
        if not (w.dep == "aux" and w.lower in ("to", "ta"))  # "gotta pay": "got" + "ta"
        and not (w.lower in ("here", "there") and w.dep == "advmod")
    ]
    # "remind me to call mum tomorrow about the party": what it is about, hung on "remind"
    words += [w for p in children(said, clause.head, "prep") if p.lower == "about" and p.i > task.i
              for w in said.sentence.subtree(p.i)]
    return _task(said, sorted(words, key=lambda w: w.i))


def _said_beside(said: Said) -> list[Candidate]:
    """ "please remind me, on the 12th I must tune the Steinway": the errand in a clause of its own
    that the request hangs on, the person's duty or intent ("I must", "I'll", "I will"); "remind me
    physio is thurs 18th at 7.30am": a thing on a day, said after the request."""
    sentence, head = said.sentence, said.clause.head
    duty = sentence.words[head.head] if head.dep == "advcl" else None
    if duty is not None and duty.pos == "VERB" and any(
            c.dep == "nsubj" and c.lower == "i" for c in sentence.children(duty.i)) and any(
            c.dep == "aux" and c.lower in ("must", "'ll", "will") for c in sentence.children(duty.i)):
        mine = {w.i for w in sentence.subtree(head.i)}
        words = [w for w in sentence.subtree(duty.i) if w.i not in mine and w.pos != "PUNCT"
                 and not (w.head == duty.i and w.dep in ("nsubj", "aux"))]
        if said.due() is None:
            return []
        return [_day_after(found) for found in _task(said, words)]
    for thing in children(said, head, "ccomp"):
        subject = next(iter(children(said, thing, "nsubj")), None)
        if thing.lemma.lower() != "be" or subject is None or subject.pos not in ("NOUN", "PROPN"):
            continue
        words = [w for w in said.sentence.subtree(thing.i) if w is not thing and w.pos != "PUNCT"]
        return _errand(said, words)
    return []


_DAY_FIRST = re.compile(r"^(On|By) (\d{1,2} [A-Z][a-z]+ \d{4}|[A-Z][a-z]+day) (?P<rest>.+)$")


def _day_after(found: Candidate) -> Candidate:
    """ "On 12 March 2026 tune the Steinway" written as a to-do is: "Tune the Steinway on 12 March 2026"."""
    day = _DAY_FIRST.match(found.content)
    if day is None:
        return found
    rest = day["rest"]
    return found.model_copy(update={"content": f"{rest[:1].upper()}{rest[1:]} {day[1].lower()} {day[2]}"})


def _task(said: Said, words: list[Word]) -> list[Candidate]:
    """The to-do the person asked to be reminded of: its words, with the time the sentence names."""
    if not names_a_thing(said, words):
        return []
    due = said.due()
    inside = {w.i for w in words}
    dated = [d for d in said.dated if any(i in inside for i in range(d.first, d.last + 1))]
    text = written_words(words, dated, drop_subject_agreement=False)
    if due is not None and not dated:
        text += " " + said.dated[0].text if said.dated else ""
    elif due is not None and said.dated and said.dated[0] not in dated:
        # "remind me to text Ana tomorrow about the weekend of the 18th": the day it is due, too
        text = f"{text}, {said.dated[0].text}"
    return one(candidate(said, MemoryKind.TODO, "reminder", text, due_at=due, confidence=0.9))


def _errand(said: Said, words: list[Word]) -> list[Candidate]:
    """ "Remind me about the dentist on Friday": the thing itself is the to-do, written as a noun
    ("The dentist on 20 March 2026"), kept only with a time (else it says nothing to do)."""
    if said.due() is None or any(w.pos == "PRON" and w.dep != "poss" for w in words):
        return []
    return _task(said, words)


# "must", "mustn't", "can't", "need to", "have to", "got to": said of what one has to remember.
_BOUND = frozenset({"must", "can", "ca", "need", "have", "got", "gotta", "should"})


def _not_to_forget(said: Said) -> list[Candidate]:
    """What the person must not forget: "don't let me forget to pay the gas bill on the 3rd", "make
    sure I remember to call mum on Sunday", "I mustn't forget to renew my passport" — a request to
    be reminded, or a duty said with a time. Not "I forgot to call mum" (done), not "don't forget
    to drink water" (advice said to anyone), not someone else's."""
    sentence, head, clause = said.sentence, said.clause.head, said.clause
    if clause.asked and not clause.reported:
        return []
    subject = next((c for c in sentence.children(head.i) if c.dep in ("nsubj", "nsubjpass")), None)
    if subject is None or subject.lower not in ("i", "me"):
        return []
    governor = sentence.words[head.head] if head.dep != "ROOT" else None
    denied = any(c.dep == "neg" for c in sentence.children(head.i))
    bound = any(c.lower in _BOUND for c in sentence.children(head.i) if c.dep == "aux")
    let_denied = (governor is not None and governor.lemma.lower() == "let" and subject.lower == "me"
                  and any(c.dep == "neg" for c in sentence.children(governor.i)))
    sure = governor is not None and governor.lower == "sure"
    if head.lemma.lower() == "forget":
        asked = let_denied or (denied and bound and said.due() is not None)
    else:  # remember
        asked = not denied and (sure or (bound and said.due() is not None))
    if not asked:
        return []
    task = next((w for w in sentence.children(head.i)
                 if w.dep == "xcomp" and w.pos in ("VERB", "AUX") and not children(said, w, "nsubj")), None)
    if task is not None:
        return _task(said, [w for w in sentence.subtree(task.i) if not (w.dep == "aux" and w.lower == "to")])
    thing = next((w for w in sentence.children(head.i) if w.dep == "dobj"), None)
    if thing is not None:
        return _errand(said, sentence.subtree(thing.i))
    # "don't let me forget my passport expires in June": a thing of theirs that falls due
    due_thing = next((w for w in sentence.children(head.i) if w.dep == "ccomp" and any(
        s.dep == "nsubj" and any(p.lower in ("my", "our") for p in sentence.children(s.i))
        for s in sentence.children(w.i))), None)
    if due_thing is None:
        return []
    return _errand(said, [w for w in sentence.subtree(due_thing.i)
                          if not (w.dep == "mark" and w.lower == "that")])


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


# Errands one says one will run: "I'll call the GP tomorrow", "I'm going to book the vet on Monday".
_ERRANDS = frozenset({"call", "ring", "phone", "text", "email", "message", "book", "pay", "send", "post",
                      "renew", "cancel", "return", "collect", "order", "drop", "pick", "submit", "file"})


def _errand_ahead(said: Said) -> list[Candidate]:
    """ "I'll call the vårdcentral tomorrow": an errand the person says they will run on a day
    soon is a to-do, as if they had asked to be reminded (not "I might call", "will you call")."""
    clause = said.clause
    verb = clause.head
    if clause.lemma == "go" and verb.tag == "VBG":  # "I'm going to book the vet on Monday"
        verb = next((x for x in children(said, verb, "xcomp") if x.lemma.lower() in _ERRANDS), verb)
    if clause.person != "i" or not clause.looking_ahead or not clause.asserted or (
            verb.lemma.lower() not in _ERRANDS):
        return []
    due = said.due()
    if due is None or (due.date() - said.at.date()).days > 45:
        return []  # "I'll buy a house in 2030": a wish, not an errand
    objects = children(said, verb, "dobj")
    if not objects or objects[0].lower in ("you", "u", "it", "that", "them", "this"):
        return []  # "I'll call you tomorrow", "I'll send it on Monday": of what?
    text = re.sub(r"^(?:Will|Is going to|Am going to|Going to) ", "", said.text())
    return one(candidate(said, MemoryKind.TODO, "errand", text[:1].upper() + text[1:], due_at=due,
                         confidence=0.75))


def need(said: Said) -> list[Candidate]:
    """ "I need to hire two engineers by April": a to-do, when it has a time."""
    clause = said.clause
    if clause.lemma in _ERRANDS or clause.lemma == "go":
        return _errand_ahead(said)
    if clause.person != "i" or clause.lemma not in ("need", "have") or not clause.asserted:
        return []
    task = next((w for w in children(said, clause.head, "xcomp") if w.pos in ("VERB", "AUX")), None)
    due = said.due()
    if task is None or due is None or any(w.lemma.lower() == "remind" for w in said.sentence.words):
        return []
    if any(o.i < task.i for o in children(said, clause.head, "dobj")) or any(
            w.lower in ("somewhere", "something", "someone", "somebody", "anywhere")
            for w in said.sentence.words):
        return []  # "I need somewhere to live in Dublin": a thing needed, not a task to do
    words = [
        w
        for w in said.sentence.subtree(task.i)
        if not (w.dep == "aux" and w.lower in ("to", "ta"))  # "gotta pay": "got" + "ta"
        and not (w.lower in ("here", "there") and w.dep == "advmod")
    ]
    if not names_a_thing(said, words):
        return []
    # "I need to call the bank tomorrow": the parser hangs the time on "need"; it is the task's.
    parts = [said.sentence.subtree(c.i)
             for c in children(said, clause.head, "npadvmod", "prep", "advmod")]
    when_words = [w for part in parts
                  if any(d.first in {x.i for x in part} for d in said.dated) for w in part]
    before = [w for w in when_words if w.i < task.i]
    words = [*sorted({*words, *(w for w in when_words if w.i > task.i)}, key=lambda w: w.i), *before]
    inside = {w.i for w in words}
    dated = [d for d in said.dated if d.first in inside or d.first + 1 in inside]
    text = written_words(words, dated, drop_subject_agreement=False)
    if not dated:
        # the time was said in a clause of its own ("the application closes on the 30th, I need to
        # send my transcripts"; "it expires on the 28th, need to redo the course before then"): a
        # to-do says by when
        when = said.due_dated()
        if when is not None:
            text, told = _THEN.subn(lambda m: written(when.when, m.group(1).lower()), text, count=1)
            if not told:
                text = f"{text} {written(when.when, 'by')}"
    return one(candidate(said, MemoryKind.TODO, "need", text, due_at=due, confidence=0.8))


# "before then", "by then": the time said before, in a to-do that has it from another clause
_THEN = re.compile(r"\b(before|by|until|till) then\b", re.IGNORECASE)
