"""What the person says holds no longer: "I no longer work at Google", "I'm not vegan anymore",
"I don't live in London any more" — a memory that ends the value it names (`Candidate.ends`)."""

from __future__ import annotations

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.rules.said import Said, candidate, children, one, place
from domain.model import MemoryKind
from domain.text.parse import Word, joined


def no_longer(said: Said) -> list[Candidate]:
    """A slot's value the person denies now, said as no longer holding: the memory ends it (only
    that value: "I don't work at Google anymore" leaves another employer alone). Plain denials
    ("I don't live in London") say nothing ended, and are left."""
    clause = said.clause
    if clause.person != "i" or not clause.negated or clause.asked or clause.supposed or clause.reported:
        return []
    if not _no_longer_said(said):
        return []
    ended = _what_ended(said)
    if ended is None:
        return []
    slot, value = ended
    # "I don't work there anymore": "there" is the workplace the memory ends, named nowhere in it
    text = said.text() if value is not None else "No longer works at their old workplace"
    return one(candidate(said, MemoryKind.FACT, "no_longer", text, ends=(slot,), ended_value=value,
                         confidence=0.8))


def _no_longer_said(said: Said) -> bool:
    """ "no longer", "anymore", "any more" on the clause's verb."""
    head = said.clause.head
    complements = children(said, head, "acomp", "attr") if head.lemma.lower() == "be" else []
    for word in [*children(said, head, "advmod", "npadvmod"),
                 *(w for c in complements for w in children(said, c, "advmod"))]:
        below = {c.lower for c in children(said, word)}
        if word.lower == "anymore" or (word.lower == "longer" and "no" in below) or (
                word.lower == "more" and "any" in below):
            return True
    return False


def _what_ended(said: Said) -> tuple[str, str | None] | None:
    """The slot and, where named, the value the clause says ended."""
    head = said.clause.head
    lemma = head.lemma.lower()
    preps = children(said, head, "prep")
    if lemma == "work":
        if any(w.lower == "there" for w in children(said, head, "advmod")):
            return "employer", None  # "I don't work there anymore": the employer in force, whoever
        for prep in preps:
            named = [o for o in children(said, prep, "pobj") if o.pos == "PROPN"]
            if prep.lower in ("at", "for") and named:
                return "employer", _name(said, named[0])
        return None
    if lemma == "live":
        for prep in preps:
            where = place(said, prep, named=True) if prep.lower == "in" else None
            if where:
                return "home_city", where
        return None
    diet = next((w.lower for w in [head, *children(said, head, "attr", "acomp")]
                 if w.lower in lex.DIETS or w.lower in lex.DIET_NAMES), None)
    if diet is not None:
        return "diet", lex.DIET_NAMES.get(diet, diet)
    if lemma == "be":
        for prep in preps:
            partner = [o for o in children(said, prep, "pobj") if o.ent == "PERSON"]
            if prep.lower == "with" and partner:
                return "partner", _name(said, partner[0])  # "I'm not with Tom anymore"
    return None


def _name(said: Said, word: Word) -> str:
    """The whole name a word is part of ("Deutsche Bank", not "Bank")."""
    return joined([w for w in said.sentence.subtree(word.i) if w.pos == "PROPN"])


_WITHOUT_WORK = frozenset({"unemployed", "jobless"})


def out_of_work(said: Said) -> list[Candidate]:
    """ "I'm unemployed", "I'm between jobs", "I've been out of work since March": no employer
    and no job now, whoever they were. What was ("I was unemployed for two years") ends nothing."""
    clause = said.clause
    head = clause.head
    if clause.person != "i" or not clause.asserted or head.lemma.lower() != "be":
        return []
    if clause.past and not clause.perfect:
        return []
    without = any(w.lower in _WITHOUT_WORK for w in children(said, head, "acomp")) or any(
        (p.lower == "between" and any(o.lower == "jobs" for o in children(said, p, "pobj")))
        or (p.lower == "out" and any(o.lower == "work" for of in children(said, p, "prep") if of.lower == "of"
                                     for o in children(said, of, "pobj")))
        for p in children(said, head, "prep")
    )
    if not without:
        return []
    return one(candidate(said, MemoryKind.FACT, "out_of_work", said.text(), ends=("employer", "job_title"),
                         valid_from=said.when(), confidence=0.8))
