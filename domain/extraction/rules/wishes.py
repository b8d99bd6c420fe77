"""What the person likes, wants and asks always to be done."""

from __future__ import annotations

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.render import clause_words, written_words
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    names_a_thing,
    one,
)
from domain.model import MemoryKind
from domain.text.parse import Word

# --- what they like, want and plan ------------------------------------------------------------------


def liking(said: Said) -> list[Candidate]:
    clause = said.clause
    lemma = clause.lemma
    stand = (
        lemma == "stand"
        and clause.negated
        and any(w.lower in ("ca", "can", "cannot") for w in children(said, clause.head, "aux"))
    )
    if clause.person != "i" or (lemma not in lex.LIKING and not stand):
        return []
    if clause.reported or clause.asked or (clause.supposed and not stand):
        return []
    if any(w.lower in ("would", "'d") for w in children(said, clause.head, "aux")):
        return []  # "I'd love to ...": a wish (see `goal`)
    if clause.head.tag == "VBG" and not clause.perfect:
        return []  # "I'm loving the weather", "hating this queue": how it feels now, no lasting taste
    objects = [w for w in children(said, clause.head, "dobj", "xcomp", "ccomp") if w.i > clause.head.i]
    if not objects:
        return []
    words = clause_words(said.clause)
    thing = [w for w in words if w.i > clause.head.i]
    if not names_a_thing(said, thing):
        return []
    if clause.negated and not stand and lemma not in ("like", "love", "enjoy"):
        return []
    return one(
        candidate(
            said,
            MemoryKind.PREFERENCE,
            "dislike" if clause.negated or lemma in ("hate", "dislike", "detest", "loathe") else "like",
            said.text(),
            confidence=0.8,
        )
    )


def goal(said: Said) -> list[Candidate]:
    clause = said.clause
    lemma = clause.lemma
    if clause.reported or clause.asked or clause.negated:
        return []
    if (
        clause.person == "my"
        and clause.subject is not None
        and clause.subject.lemma.lower() in ("goal", "plan", "dream", "aim", "resolution")
        and lemma == "be"
    ):
        xcomp = children(said, clause.head, "xcomp")
        if xcomp:
            words = said.sentence.subtree(xcomp[0].i)
            return one(
                candidate(
                    said,
                    MemoryKind.GOAL,
                    "goal",
                    "Wants " + said.text(words=words)[:1].lower() + said.text(words=words)[1:],
                    confidence=0.8,
                )
            )
        return []
    if clause.person != "i":
        return []
    polite = lemma in ("like", "love") and any(
        w.lower in ("would", "'d") for w in children(said, clause.head, "aux")
    )
    if clause.supposed and not polite:
        return []
    if polite and any(
        w.lower in ("someday", "maybe", "perhaps", "eventually", "one")
        for x in children(said, clause.head, "xcomp")
        for w in said.sentence.subtree(x.i)
    ):
        return []
    xcomp = [w for w in children(said, clause.head, "xcomp") if w.pos in ("VERB", "AUX")]
    if (
        lemma in ("save",)
        and any(p.lower == "for" for p in children(said, clause.head, "prep"))
        or (lemma in ("save",) and any(p.lower == "up" for p in children(said, clause.head, "prt")))
    ):
        return one(candidate(said, MemoryKind.GOAL, "saving", said.text(), confidence=0.8))
    if lemma == "plan" and children(said, clause.head, "dobj"):
        return one(candidate(said, MemoryKind.GOAL, "plan", said.text(), confidence=0.8))
    if (
        lemma in ("train", "apply")
        and any(p.lower == "for" for p in children(said, clause.head, "prep"))
        and (lemma == "train" or clause.looking_ahead)
    ):
        return one(candidate(said, MemoryKind.GOAL, "training", said.text(), confidence=0.8))
    if not xcomp or (lemma not in lex.WANTING and not polite):
        return []
    if lemma == "need":
        return _bettering(said, xcomp[0])  # with a time, a need is a to-do (see `need`)
    own = {w.i for w in clause_words(clause)}
    task = [w for w in said.sentence.subtree(xcomp[0].i) if w.i in own]  # "before I forget them" cut
    if not names_a_thing(said, task) and not any(w.pos == "PROPN" for w in task):
        return []
    return one(candidate(said, MemoryKind.GOAL, "goal", said.text(), confidence=0.8))


# What one needs to do to become someone a little different is a goal, not an errand: a skill, a
# habit given up, weight lost. With no time set it will not be ticked off a list.
_BETTERING = frozenset({"learn", "improve", "practise", "practice", "master"})
_SHED = frozenset({"weight", "pound", "kilo", "kg", "stone", "lb"})


def _bettering(said: Said, task: Word) -> list[Candidate]:
    """ "I need to learn Spanish", "I really need to quit smoking", "I need to lose some weight"."""
    if said.due() is not None or any(w.lower in ("you", "your") for w in said.sentence.subtree(task.i)):
        return []
    objects = {o.lemma.lower() for o in children(said, task, "dobj", "xcomp")}
    lemma = task.lemma.lower()
    if not (
        lemma in _BETTERING
        or (lemma in ("quit", "give", "stop") and objects & lex.GIVEN_UP)
        or (lemma == "lose" and objects & _SHED)
    ):
        return []
    if not names_a_thing(said, said.sentence.subtree(task.i)) and not children(said, task, "xcomp"):
        return []  # "learn to drive": a skill named by its verb
    return one(candidate(said, MemoryKind.GOAL, "bettering", said.text(), confidence=0.75))


_ANSWERING = frozenset(
    {
        "answer",
        "reply",
        "respond",
        "write",
        "use",
        "call",
        "address",
        "format",
        "spell",
        "include",
        "avoid",
        "keep",
        "explain",
        "show",
        "give",
        "list",
        "summarize",
        "summarise",
        "edit",
        "check",
        "add",
        "put",
        "ask",
        "remind",
        "speak",
        "talk",
        "cite",
        "mention",
    }
)


def standing_request(said: Said) -> list[Candidate]:
    """ "Please always use British spelling": how the person wants to be answered, from now on."""
    clause = said.clause
    if clause.head.dep != "ROOT" or clause.subject is not None or clause.head.tag != "VB" or clause.asked:
        return []
    children = said.sentence.children(clause.head.i)
    lasting = (
        any(w.lower in ("always", "never") for w in children) or "from now on" in said.sentence.text.lower()
    )
    about_answers = clause.lemma in _ANSWERING and not any(w.dep == "prt" for w in children)
    if not lasting or not about_answers:
        return []
    words = clause_words(clause, assistant=True)
    negated = clause.negated
    body = written_words(
        [w for w in words if w.lower not in ("please", "always", "never", "do", "n't", "not", "don't")],
        [],
        drop_subject_agreement=False,
        assistant=True,
    )
    if not body:
        return []
    how = "never to" if negated or any(w.lower == "never" for w in children) else "always to"
    text = f"Wants the assistant {how} {body[:1].lower()}{body[1:]}"
    return one(candidate(said, MemoryKind.PREFERENCE, "request", text, confidence=0.8))
