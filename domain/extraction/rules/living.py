"""How the person lives: habits, health, household, what they do without."""

from __future__ import annotations

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.render import clause_words
from domain.extraction.rules.identity import EDITORS
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    frequency,
    names_a_thing,
    one,
    place,
)
from domain.model import MemoryKind
from domain.text.parse import joined

# --- how they live -------------------------------------------------------------------------------------

_DEFINING = frozenset(
    {
        "grow",
        "play",
        "speak",
        "teach",
        "study",
        "write",
        "collect",
        "coach",
        "stream",
        "raise",
        "own",
        "volunteer",
        "mentor",
    }
)


def habit(said: Said) -> list[Candidate]:
    clause = said.clause
    lemma = clause.lemma
    if clause.person != "i" or not clause.asserted:
        return []
    if lemma == "use" and clause.head.tag in ("VBD",) and children(said, clause.head, "xcomp"):
        return one(candidate(said, MemoryKind.FACT, "used_to", said.text(), confidence=0.75))
    present = clause.head.tag in ("VBP", "VBZ") or (
        clause.head.tag in ("VBN", "VBG")
        and any(w.lemma == "have" and w.tag in ("VBP", "VBZ") for w in children(said, clause.head, "aux"))
    )
    if not present:
        return []
    if lemma in ("pick", "choose", "order", "opt") and any(
        w.lower in ("always", "usually") for w in children(said, clause.head, "advmod")
    ):
        return one(candidate(said, MemoryKind.PREFERENCE, "choice", said.text(), confidence=0.75))
    if lemma in lex.TOOLS and (objects := children(said, clause.head, "dobj")):
        if not names_a_thing(said, clause_words(clause)):
            return []
        used = joined([w for w in said.sentence.subtree(objects[0].i) if w.pos == "PROPN"])
        editor = next((e for e in EDITORS if used and used.lower().startswith(e.lower())), None)
        return one(
            candidate(
                said,
                MemoryKind.PREFERENCE,
                "uses",
                said.text(),
                attribute="editor" if editor else None,
                value=editor,
                entities=(editor,) if editor else (),
                typed="software" if editor else None,
                relation="uses" if editor else None,
                confidence=0.8 if editor else 0.75,
            )
        )
    if lemma not in lex.HABITS and not (lemma in ("deal", "struggle", "suffer", "live") and _condition(said)):
        return []
    steady = (
        frequency(said) or (lemma in _DEFINING and children(said, clause.head, "dobj")) or _condition(said)
    )
    if not steady or not names_a_thing(said, [w for w in clause_words(clause) if w.i > clause.head.i]):
        return []
    return one(candidate(said, MemoryKind.FACT, "habit", said.text(), confidence=0.75))


def _condition(said: Said) -> bool:
    return any(w.lemma.lower() in lex.CONDITIONS for w in clause_words(said.clause))


def health(said: Said) -> list[Candidate]:
    """ "I have asthma", "I was diagnosed with diabetes in May", "my back hurts since Tuesday"."""
    clause = said.clause
    if not clause.asserted:
        return []
    if clause.person == "i" and clause.lemma == "diagnose":
        return one(candidate(said, MemoryKind.FACT, "diagnosis", said.text(), valid_from=said.when()))
    if clause.person == "i" and clause.lemma in ("have", "get") and not clause.past:
        objects = children(said, clause.head, "dobj")
        if objects and (
            objects[0].lemma.lower() in lex.CONDITIONS
            or (objects[0].lemma.lower() in lex.BODY_PARTS and children(said, objects[0], "amod"))
        ):
            return one(candidate(said, MemoryKind.FACT, "condition", said.text()))
    if (
        clause.person == "my"
        and clause.subject is not None
        and clause.subject.lemma.lower() in lex.BODY_PARTS
    ):
        subject = [w for w in said.sentence.subtree(clause.subject.i) if w.lower != "my"]
        rest = clause_words(clause)
        words = sorted({*subject, *rest}, key=lambda w: w.i)
        return one(candidate(said, MemoryKind.FACT, "body", said.text(words=words), valid_from=said.when()))
    return []


def household(said: Said) -> list[Candidate]:
    """ "I have four grandchildren", "I have two dogs"."""
    clause = said.clause
    if clause.person not in ("i", "we") or not clause.asserted or clause.lemma != "have" or clause.past:
        return []
    for obj in children(said, clause.head, "dobj"):
        counted = any(c.dep == "nummod" or c.lower in ("a", "an") for c in children(said, obj))
        noun = obj.lemma.lower()
        if (
            counted
            and (
                noun in lex.FAMILY
                or noun in ("kid", "child", "grandchild", "grandkid", "sibling")
                or noun in lex.PETS
                or noun.rstrip("s") in lex.PETS
            )
            and not children(said, obj, "acl")
        ):
            return one(candidate(said, MemoryKind.FACT, "household", said.text(), confidence=0.85))
    return []


def negative(said: Said) -> list[Candidate]:
    """What the person does not do or have, said plainly: "I don't eat pork", "I don't have a car"."""
    clause = said.clause
    if clause.person != "i" or not clause.negated or clause.supposed or clause.reported or clause.asked:
        return []
    lemma = clause.lemma
    objects = children(said, clause.head, "dobj")
    if lemma in ("eat", "drink", "smoke") and (objects or lemma == "smoke"):
        return one(candidate(said, MemoryKind.FACT, "abstains", said.text(), confidence=0.8))
    if (
        lemma in ("have", "own")
        and objects
        and objects[0].lemma.lower()
        in ("car", "kid", "child", "pet", "dog", "cat", "licence", "license", "tv", "sibling")
    ):
        return one(candidate(said, MemoryKind.FACT, "lacks", said.text(), confidence=0.8))
    if (
        lemma == "be"
        and any(w.lower == "never" for w in children(said, clause.head))
        and any(p.lower == "to" and place(said, p) for p in children(said, clause.head, "prep"))
    ):
        return one(candidate(said, MemoryKind.FACT, "never_been", said.text(), confidence=0.8))
    return []
