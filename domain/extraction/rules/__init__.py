"""The offline extractor: what a person says of themselves, kept as a memory they would recognise.

No model, nothing invented. Each sentence the person said (role user; the assistant's words are
not theirs) is parsed (`domain/text/parse.py`), cut into clauses (`clauses.py`), and a clause is
kept only when it asserts something about the person — not asked, denied, supposed, reported
or guessed — and a rule below knows what it is: where they live, work, what they do, prefer,
want, what happened to them, who their people and pets are, what they asked to be reminded of.
A memory is one fact, written in the third person with the times it names resolved against when
it was said ("Moved from Chicago to Denver in February 2026"). What no rule knows is left:
lower recall, no guesses.

`extract` is a pure function of the messages, their times and the parse, and the parse of a text
is always the same: extracting a conversation twice gives the same memories.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from domain.commands import Message
from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.clauses import Clause, clauses, is_question, is_sarcastic
from domain.extraction.render import times
from domain.extraction.rules.answers import answers
from domain.extraction.rules.elided import with_subjects
from domain.extraction.rules.ended import no_longer, out_of_work
from domain.extraction.rules.happenings import (
    done_for_them,
    event,
    family_ahead,
    plan,
    rescheduled,
    scheduled,
    seen_by_medic,
)
from domain.extraction.rules.identity import (
    copula,
    favourite,
    in_a_field,
    origin,
    own_name,
    residence,
    standing,
    switch,
    work,
    years_had,
)
from domain.extraction.rules.job_talk import JobTalk, job_started
from domain.extraction.rules.living import (
    conditions_owned,
    given_up_since,
    habit,
    health,
    household,
    money,
    negative,
    years_spent,
)
from domain.extraction.rules.people import named_after, people, relative, told_next
from domain.extraction.rules.requests import need, reminder
from domain.extraction.rules.said import RULES_VERSION, Rule, Said
from domain.extraction.rules.whereabouts import home_where_they_are
from domain.extraction.rules.wishes import goal, kind_of_person, liking, no_more, standing_request, suits
from domain.model import MemoryKind, utc
from domain.text.english import typed_plainly
from domain.text.parse import Parser

__all__ = ["RULES", "RULES_VERSION", "extract"]

RULES: tuple[Rule, ...] = (
    reminder,
    need,
    rescheduled,
    own_name,
    no_longer,
    out_of_work,
    residence,
    origin,
    work,
    in_a_field,
    health,
    money,
    years_spent,
    years_had,
    kind_of_person,
    copula,
    standing,
    favourite,
    household,
    negative,
    liking,
    suits,
    goal,
    switch,
    event,
    seen_by_medic,
    plan,
    done_for_them,
    scheduled,
    family_ahead,
    habit,
    standing_request,
    relative,
)


# What one is or does now, said with "now" and a day: since that day, whichever side of today it is.
_STATES = frozenset({"live", "work", "stay", "be", "rent", "own"})


def _direction(clause: Clause) -> bool | None:
    """Whether the times of a clause are ahead (a plan, a wish, a reminder) or behind (the past)."""
    if clause.lemma in lex.WANTING or clause.lemma in ("remind", "need", "decide", "plan", "save", "train"):
        return True
    if clause.lemma == "have" and clause.children("xcomp"):
        return True  # "I've got to pay the council tax by Friday": what one has to do is ahead
    if clause.lemma in lex.ARRANGING and any(
            p.lower == "for" for p in clause.children("prep")):
        return True  # "I've booked flights for June": booked now, for a time ahead
    if clause.lemma in ("sign", "register", "enrol", "enroll", *lex.ARRANGING) and clause.past:
        # "I signed up for a course from June", "we booked Nashville, October 8th to 12th": done
        # then, for a time either way
        return None
    if clause.past:
        return False
    if clause.head.tag in ("VBP", "VBZ") and not clause.looking_ahead and clause.lemma in _STATES and any(
            c.lower == "now" for c in clause.children("advmod")):
        return None  # "now we live in Kalamaja, from 2 May": a state now, since a day either way
    if clause.looking_ahead or clause.head.tag == "VB":
        return True
    if (clause.head.tag in ("VBP", "VBZ") and not clause.perfect) or clause.has_got:
        return True  # a day said with the present is a schedule: "I fly on Friday", "my exam is on the 16th"
    return None


def extract(messages: Sequence[Message], at: datetime, parser: Parser) -> list[Candidate]:
    """The memories the rules find in a conversation, one per thing said (the first statement of
    a slot's value or of a sentence wins; later ones add their positions)."""
    theirs = [(position, m) for position, m in enumerate(messages) if m.role == "user"]
    parsed = with_subjects(parser.parse([typed_plainly(m.content) for _, m in theirs]), parser)
    found: dict[tuple[str | None, str], Candidate] = {}
    talk = JobTalk()  # the job the conversation is about, so far
    for (position, message), sentences in zip(theirs, parsed, strict=True):
        known = _people_named(found.values())
        said_at = utc(message.timestamp or at)
        before = messages[position - 1] if position > 0 else None
        if before is not None and before.role == "assistant":
            for candidate in answers(before.content, sentences, position, said_at):
                _keep(found, candidate)
        owners: list[Clause | None] = []
        for index, sentence in enumerate(sentences):
            owners.append(None)
            if is_sarcastic(sentence):
                continue  # "Oh great, I just love queues": it means the opposite
            owner = None
            talk = talk.heard(sentence)
            planned = sum(c.kind is MemoryKind.PLAN for c in found.values()) if talk.talked else 0
            for clause in clauses(sentence):
                owner = owner or (clause if clause.person in ("i", "we", "none") else None)
                dated = tuple(times(sentence, said_at, _direction(clause)))
                said = Said(clause, position, said_at, dated, known, earlier=tuple(sentences[:index]))
                for rule in RULES:
                    made = rule(said)
                    if made:
                        for candidate in made:
                            _keep(found, candidate)
                        break
            if owner is None and sentence.words:
                root = next((w for w in sentence.words if w.dep == "ROOT"), sentence.words[0])
                owner = Clause(sentence, root, None, "none", False, False, False, is_question(sentence))
            owners[-1] = owner
            if owner is not None:  # "no emojis ever please": a request with no verb, read from its words
                for candidate in no_more(Said(owner, position, said_at, (), known)):
                    _keep(found, candidate)
                # "for my psoriasis", "my glaucoma drops": a condition of theirs named in passing
                for candidate in conditions_owned(Said(owner, position, said_at, (), known)):
                    _keep(found, candidate)
                # "I start on 4 May", "start June 1": the job the conversation is about (unless the
                # sentence gave a plan already); its times read ahead, only once a job is talked of
                if talk.talked and sum(c.kind is MemoryKind.PLAN for c in found.values()) == planned:
                    ahead = tuple(times(sentence, said_at, True))
                    for candidate in job_started(
                            Said(owner, position, said_at, ahead, known, earlier=tuple(sentences[:index])),
                            talk):
                        _keep(found, candidate)
                # "Good morning from Perth", "I'm in Tucson now": where they write from
                for candidate in home_where_they_are(Said(owner, position, said_at, (), known), sentences):
                    _keep(found, candidate)
            for candidate in people(
                sentence, position, said_at, owner, tuple(times(sentence, said_at, False))
            ):
                _keep(found, candidate)
        for candidate in named_after(sentences, owners, position, said_at):
            _keep(found, candidate)
        for key, kept in found.items():  # "My daughter Zosia is happy. She is 19.": her age too
            if kept.positions[0] == position:
                found[key] = told_next(kept, sentences, position, said_at)
        later = [s.text for s in sentences[1:]]
        asides = [part for s in sentences for part in s.text.split(",")[1:]]
        for key, kept in found.items():
            if kept.positions[0] == position:
                found[key] = given_up_since(kept, later, said_at, asides)
    return _said_over_guessed(_ended_named(_named_over_listed(list(found.values()))))


def _named_over_listed(found: list[Candidate]) -> list[Candidate]:
    """ "We have a son, Arjun, he's 4": the son named ("Has a son named Arjun, aged 4") says all
    that "Has a son, Arjun" says, and "Has a cat named Pickle" all of "Has a cat"; the second goes.
    One that says more ("..., who lives in Oslo",
    "Has a baby, Luca, 8 months") stays."""
    def words(text: str) -> set[str]:  # "a parrot called Captain" says what "... named Captain" says
        return set(re.findall(r"[\w'-]+", text.lower().replace(" called ", " named ")))

    named = [c for c in found if c.entities and c.positions and (
        c.kind is MemoryKind.PERSON or (c.attribute or "").startswith("pet_"))]
    return [
        c for c in found
        if not (c.extractor.endswith(":household") and c.attribute is None and c.positions and any(
            p.positions[0] == c.positions[0]
            # "I've got a cat, her name is Pickle": "Has a cat" names no one the named one does not
            and (p.entities[0] in c.content or not any(w[:1].isupper() for w in c.content.split()[1:]))
            and words(c.content) <= words(p.content)
            for p in named))
    ]


def _ended_named(found: list[Candidate]) -> list[Candidate]:
    """ "Me and my partner Rhys split up last year": the name given in the line that ends a slot is
    the value it ends, not the slot's value from then on (the person read apart would make Rhys
    the partner now); the ending names them, and that person's memory goes."""
    endings = {(c.positions[0], slot): c
               for c in found if c.positions and c.ended_value is None for slot in c.ends}
    names: dict[int, str] = {}
    gone: set[int] = set()
    for c in found:
        if not (c.positions and c.attribute and c.value and c.kind is MemoryKind.PERSON):
            continue
        ending = endings.get((c.positions[0], c.attribute))
        if ending is not None:
            names[id(ending)] = c.value
            gone.add(id(c))
    return [_naming(c, names[id(c)]) if id(c) in names else c for c in found if id(c) not in gone]


def _naming(ending: Candidate, name: str) -> Candidate:
    content = ending.content
    if name not in content:  # "Split up with their partner" -> "... their partner Rhys"
        content = re.sub(r"\b(their [a-z]+)\b", rf"\1 {name}", content, count=1)
    return ending.model_copy(
        update={"ended_value": name, "entities": (*ending.entities, name), "content": content})


def _people_named(found: Iterable[Candidate]) -> dict[str, str]:
    """The person's people named so far ("my husband Dev": {"Dev": "husband"}), so that a later
    line that names only "Dev" is known to be of him. A name given to two is no one's."""
    named: dict[str, str] = {}
    for c in found:
        if c.kind is not MemoryKind.PERSON:
            continue
        for r in c.relations:
            relation = r.predicate.replace("_", " ")
            if r.subject is None and relation in lex.OWN_PEOPLE | lex.CASUAL:
                named[r.object] = relation if named.get(r.object, relation) == relation else ""
    return {name: relation for name, relation in named.items() if relation}


def _said_over_guessed(found: list[Candidate]) -> list[Candidate]:
    """A slot's value guessed ("a nurse in Leeds": lives in Leeds) gives way to one the person said
    in the same conversation ("but I live in York")."""
    said = {c.attribute for c in found if c.attribute and c.asserted}
    return [c for c in found if c.asserted or c.attribute not in said]


def _keep(found: dict[tuple[str | None, str], Candidate], candidate: Candidate) -> None:
    key = (candidate.attribute, (candidate.value or candidate.content).casefold())
    if key in found:
        earlier = found[key]
        if candidate.positions[0] not in earlier.positions:
            found[key] = earlier.model_copy(update={"positions": (*earlier.positions, *candidate.positions)})
    else:
        found[key] = candidate
