"""What happened to the person, and what they will do on a date."""

from __future__ import annotations

import re

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.render import Dated, clause_words, times
from domain.extraction.rules.said import (
    NOT_A_THING,
    Said,
    a_home,
    candidate,
    children,
    in_one_stretch,
    names_a_thing,
    one,
    organisation_in,
    place,
)
from domain.model import MemoryKind
from domain.text.parse import Word, joined

# --- what happened to them ---------------------------------------------------------------------------


_BABY = frozenset({"baby", "twins", "twin", "child", "boy", "girl", "daughter", "son"})
# What happens to one of the person's people that the person lives through with them.
_BEFALLING = frozenset({"baby", "surgery", "operation", "fall", "stroke", "attack", "accident", "twins"})


def _their_peoples(said: Said) -> list[Candidate]:
    """ "My dad passed away last year", "my mum had a fall", "my wife had a baby": a death, a birth,
    a blow to the health of one of the person's people, which the person lives through with them.
    Their other news ("my cousin got married", "my sister adopted a dog") is theirs, not kept."""
    clause = said.clause
    subject = clause.subject
    if subject is None or subject.lemma.lower() not in lex.FAMILY | lex.PETS.keys():
        return []  # a pet of theirs that died is theirs to grieve too: "our dog died last month"
    if any(c.pos == "PROPN" for c in children(said, subject, "appos", "compound", "npadvmod")) or any(
            c.pos == "PROPN" and c.i == subject.i + 1 for c in children(said, clause.head, "nsubj")):
        return []  # "my husband Ernesto died": the people rule keeps the named one, and this with them
    lemma = clause.lemma
    head = clause.head
    objects = {w.lemma.lower() for o in children(said, head, "dobj") for w in said.sentence.subtree(o.i)}
    # "my mom passed in 2019": "passed" with nothing passed, said of one's own, is "passed away"
    passed_alone = lemma == "pass" and clause.past and all(  # nothing more than when: not "passed by"
        any(w.ent == "DATE" for w in said.sentence.subtree(c.i)) for c in said.sentence.children(head.i)
        if c.dep not in ("nsubj", "aux", "punct", "cc", "conj") and c.i > head.i)
    happened = (
        lemma == "die"
        or passed_alone
        or (lemma == "pass" and any(p.lower == "away" for p in children(said, head, "prt", "advmod")))
        or (lemma == "have" and bool(objects & _BEFALLING))
    )
    if not happened:
        return []
    # whose it was stays in the memory: "Dad passed away in 2025", not "Passed away in 2025"
    words = sorted(
        {*(w for w in said.sentence.subtree(subject.i) if w.lower not in ("my", "our")),
         *clause_words(clause)},
        key=lambda w: w.i,
    )
    text = said.text(words=words)
    if passed_alone:
        text = re.sub(r"\bpassed\b", "passed away", text, count=1)
    return one(candidate(said, MemoryKind.EVENT, "their_people", text, valid_from=said.when(),
                         confidence=0.8))


def _theirs_lost_or_left(said: Said, objects: list[Word]) -> bool:
    """ "I lost my dad in May" (one of theirs died), "I broke up with my boyfriend"."""
    clause = said.clause
    if clause.lemma == "lose":
        return any(o.lemma.lower() in lex.OWN_PEOPLE and children(said, o, "poss") for o in objects)
    if clause.lemma == "break" and any(p.lower == "up" for p in children(said, clause.head, "prt")):
        return any(p.lower == "with" for p in children(said, clause.head, "prep"))
    return _parted(said)


def _parted(said: Said) -> bool:
    """ "I separated from my husband last year", "I split up with my girlfriend": a couple that
    parted ("separated from the group" is no parting)."""
    clause = said.clause
    head = clause.head
    if clause.lemma == "split" and any(p.lower == "up" for p in children(said, head, "prt")):
        by = "with"
    elif clause.lemma == "separate":
        by = "from"
    else:
        return False
    return any(
        o.lemma.lower() in lex.PARTNERS and children(said, o, "poss")
        for p in children(said, head, "prep")
        if p.lower == by
        for o in children(said, p, "pobj")
    )


_PARTING = {
    "break": "Broke up with", "split": "Split up with", "separate": "Separated from", "divorce": "Divorced"}


def _parted_as_a_couple(said: Said) -> list[Candidate]:
    """ "my boyfriend and I broke up last month", "my wife and I separated in March": the couple,
    said as the subject, parted ("we split up" says not who)."""
    clause = said.clause
    head = clause.head
    if not clause.asserted or not clause.past or clause.lemma not in _PARTING:
        return []
    if clause.lemma in ("break", "split") and not any(p.lower == "up" for p in children(said, head, "prt")):
        return []
    subjects = children(said, head, "nsubj", "nsubjpass")
    if head.dep == "conj" and said.sentence.words[head.head].pos in ("NOUN", "PROPN"):
        # "My girlfriend and I split up": the parser may take the first of the two for the root
        subjects = [*subjects, said.sentence.words[head.head]]
    together = {w.i: w for s in subjects
                for w in (s, *(c for c in said.sentence.subtree(s.i) if c.dep == "conj"))}
    partner = next((w for w in together.values() if w.lemma.lower() in lex.PARTNERS
                    and any(c.lower in ("my", "our") for c in children(said, w, "poss"))), None)
    if not any(w.lower in ("i", "me") for w in together.values()) or children(said, head, "dobj"):
        return []  # "Sam and I split up the bill": a thing split
    # "Jonas and I broke up": the one they parted from, by name
    named = next((w for w in together.values() if w.lower not in ("i", "me") and not children(said, w, "poss")
                  and (w.pos == "PROPN" or w.text[:1].isupper() and w.text[1:].islower()
                       or said.known.get(w.text.capitalize()) in lex.PARTNERS)), None)
    if partner is None and named is None:
        return []
    gone = [d for d in said.dated if d.when.moment().date() <= said.at.date()]
    name = named.text.capitalize() if partner is None and named is not None else None
    who = f"their {partner.lower}" if partner is not None else name
    text = f"{_PARTING[clause.lemma]} {who} {gone[0].text if gone else ''}".strip()
    return one(candidate(said, MemoryKind.EVENT, "parted", text, confidence=0.8,
                         valid_from=gone[0].when.moment() if gone else None, ends=("partner",),
                         ended_value=name, entities=(name,) if name else ()))


def event(said: Said) -> list[Candidate]:
    clause = said.clause
    lemma = clause.lemma
    if (
        lemma == "expect"
        and clause.person in ("i", "we")
        and clause.asserted
        and clause.looking_ahead
        and any(o.lemma.lower() in _BABY for o in children(said, clause.head, "dobj"))
    ):
        return one(candidate(said, MemoryKind.EVENT, "expecting", said.text(), confidence=0.85))  # a baby
    parted = _parted_as_a_couple(said)
    if parted:
        return parted
    if clause.person == "my" and clause.asserted and clause.past:
        return _their_peoples(said)
    if _an_outing(said) and clause.asserted and clause.past and said.when():  # "we went camping last weekend"
        return one(candidate(said, MemoryKind.EVENT, "outing", said.text(), valid_from=said.when(),
                             confidence=0.75))
    offered = _offered_me(said)
    if offered:
        return offered
    if clause.person not in ("i", "we") or not clause.asserted or not clause.past:
        return []
    if lemma in lex.ARRANGING and any(d.when.moment().date() > said.at.date() for d in said.dated):
        return []  # "I've booked flights to Rome for June": a plan (`plan`), not a day gone by
    objects = children(said, clause.head, "dobj", "attr")
    if _theirs_lost_or_left(said, objects) or (
        lemma == "visit" and any(o.lemma.lower() in lex.OWN_PEOPLE for o in objects) and said.when()
    ) or (lemma == "take" and said.when() and any(
        p.lower == "to" and children(said, p, "pobj") for p in children(said, clause.head, "prep"))):
        # "lost my dad", "broke up with my boyfriend", "visited my grandma on Sunday", "took the
        # kids to the zoo last weekend"
        ended_couple: tuple[str, ...] = ("partner",) if lemma in _PARTING else ()
        return one(candidate(said, MemoryKind.EVENT, lemma, said.text(), valid_from=said.when(),
                             confidence=0.8, ends=ended_couple))
    # "I just got back from Japan": a trip, over
    back = [a for a in children(said, clause.head, "advmod", "prt")
            if a.lower == "back"] if lemma == "get" else []
    if lemma in ("go", "travel", "fly", "visit", "come") or back:
        where = next(
            (
                p
                for p in [*children(said, clause.head, "prep"), *children(said, clause.head, "dobj")]
                if place(said, p)
            ),
            None,
        ) if not back else next((p for b in [clause.head, *back] for p in children(said, b, "prep")
                                 if p.lower == "from" and place(said, p, named=True)), None)
        if where is None or lemma == "come":
            return []
        return one(
            candidate(said, MemoryKind.EVENT, "trip", said.text(), valid_from=said.when(), confidence=0.75)
        )
    moving_in = _found_to_move_into(said, lemma, objects)
    if moving_in:
        return moving_in
    known = lemma in lex.LIFE_EVENTS
    if lemma in _RESCHEDULING and any(_a_thing(o) for o in objects):
        return []  # "moved the sofa", "moved the meeting to Friday": a thing moved, not a move
    if not known and lemma in lex.EVENT_OBJECTS:
        wanted = lex.EVENT_OBJECTS[lemma]
        object_words = {w.lemma.lower() for o in objects for w in said.sentence.subtree(o.i)} | {
            w.lower for o in objects for w in said.sentence.subtree(o.i)
        }
        first = any(w.lower == "first" for o in objects for w in said.sentence.subtree(o.i))
        known = bool(objects) and (
            bool(object_words & wanted) or (not wanted and objects[0].lower not in NOT_A_THING)
        )
        if lemma in ("run", "finish") and object_words & {"5k", "10k", "15k"} and not first:
            known = False
    if lemma == "get" and any(
        c.lemma.lower() in ("married", "engaged", "divorced", "promoted", "hired")
        for c in children(said, clause.head, "acomp", "oprd", "dobj", "attr")
    ):
        known = True
    passive = clause.head.tag == "VBN"
    if not known and lemma in ("marry", "engage", "promote", "hire", "fire", "sack") and passive:
        known = True
    lost = _job_lost(said, lemma, objects)
    known = known or lost  # "I've been made redundant", "I was let go", "I was laid off"
    if lemma == "get" and objects and _marked(said, objects[0]):
        known = True  # "I got a B in the class test", "got 92 on the quiz"
    signed_up = (lemma == "sign" and any(p.lower == "up" for p in children(said, clause.head, "prt"))) or (
        lemma in ("register", "enrol", "enroll"))
    if signed_up and (any(
        p.lower in ("for", "in", "on", "with") and names_a_thing(said, said.sentence.subtree(p.i))
        for p in children(said, clause.head, "prep")
    ) or any(x.pos == "VERB" and names_a_thing(said, said.sentence.subtree(x.i))
             and any(a.lower == "to" for a in children(said, x, "aux"))
             for x in children(said, clause.head, "xcomp", "advcl"))):
        known = True  # "I signed up for the HVAC certificate", "registered for a pottery class",
        # "signed up to volunteer at the food bank"
    if lemma == "apply" and any(
        (p.lower == "for" and any(_a_step_named(said, w) for w in children(said, p, "pobj")))
        or (p.lower == "to" and any(w.pos == "PROPN" for w in said.sentence.subtree(p.i)))
        for p in children(said, clause.head, "prep")
    ):
        known = True  # "I've applied to Straits Air", "applied internally for a fraud analyst job"
    if lemma in ("hand", "give", "put") and any(
        o.lemma.lower() in ("notice", "resignation") for o in objects
    ):
        known = True  # "I handed in my notice"
    gave_up = lemma == "give" and any(p.lower == "up" for p in children(said, clause.head, "prt"))
    if gave_up and not objects and any(
        p.lower == "on" and names_a_thing(said, said.sentence.subtree(p.i))
        for p in children(said, clause.head, "prep")
    ):
        known = True  # "I've given up on Duolingo": stopped it
    left = _employer_left(said, lemma, objects)
    if not known and left is None:
        return []
    title = _job_got(said, lemma, objects) or _promoted_to(said, lemma)
    employer = _employer_got(said, lemma, objects)
    ends = ("employer", "job_title") if lost or left else ("partner",) if _divorced(said, lemma) else ()
    slot, value = ("job_title", title) if title else ("employer", employer) if employer else (None, None)
    text = said.text()
    if lemma == "apply":  # "Bit of news, I've applied for a theatre porter job, better hours"
        applied = [w for p in children(said, clause.head, "prep") if p.lower in ("for", "to")
                   for w in said.sentence.subtree(p.i)]
        applied += [w for w in _dated_words(said) if w not in applied]
        applied.sort(key=lambda w: w.i)
        written = said.text(words=applied)
        text = "Applied " + written[:1].lower() + written[1:]
    if lemma == "get" and text.startswith(("Has got ", "Have got ")):
        text = "Got " + text.split(" ", 2)[2]  # "I've got a job as a barista": got it, not has it
    found = [candidate(said, MemoryKind.EVENT, lemma, text, valid_from=said.when(), confidence=0.8,
                       attribute=slot, value=value,
                       entities=(employer,) if slot == "employer" and employer else (),
                       typed="organization" if slot == "employer" else None,
                       relation="works_at" if slot == "employer" else None, ends=ends, ended_value=left)]
    if title and employer:  # "a new job as a barista at Costa": the employer is theirs now too
        the = "the " if f" the {employer}" in f" {said.sentence.text}" else ""
        found.append(candidate(said, MemoryKind.FACT, "employer", f"Works at {the}{employer}",
                               attribute="employer", value=employer, entities=(employer,),
                               valid_from=said.when(), confidence=0.8))
    return [f for f in found if f]


# What one does on the day one moves into a home found: "we move", "get the keys", "close on it".
_MOVING_IN = frozenset({"move", "moving", "key", "keys", "close", "closing", "completion", "complete"})


def _found_to_move_into(said: Said, lemma: str, objects: list[Word]) -> list[Candidate]:
    """ "We found an apartment in Usaquén, we move on 15 August", "found a flat in Leith, we get the
    keys on the 25th": a home found, with the day one moves in ahead, is a move planned for that
    day (not only a home found; not "we found a flat, we might move in spring": no day)."""
    home = next((o for o in objects if o.lower in lex.HOMES or o.lemma.lower() in lex.HOMES), None)
    if lemma != "find" or home is None:
        return []
    sentence = said.sentence
    later = [w for w in sentence.words if w.i > home.i]
    if not any(w.lower in _MOVING_IN or w.lemma.lower() in _MOVING_IN for w in later):
        return []
    if any((w.tag == "MD" and w.lower in ("might", "may", "could")) or w.lower in (
            "maybe", "probably", "hopefully", "if") for w in later):
        return []  # "we might move in spring": not a day set
    # a day set ("on 15 August"), not a season or a month
    ahead = [d for d in times(sentence, said.at, True) if d.first > home.i
             and d.when.moment().date() > said.at.date() and d.text.split()[0].lower() == "on"]
    if not ahead:
        return []
    words = [w for w in sentence.subtree(home.i) if w.pos != "PUNCT" and w.i < ahead[0].first]
    words = [w for w in words if w.i <= max((x.i for x in words if x.dep == "pobj"), default=home.i)]
    if not in_one_stretch(words):
        return []
    if words[-1].i == home.i:  # "found a flat in Leith": the parser hangs the place on the verb
        where = next((p for p in children(said, said.clause.head, "prep")
                      if p.lower == "in" and p.i == home.i + 1 and place(said, p, named=True)), None)
        if where is not None:
            words += [w for w in sentence.subtree(where.i) if w.pos != "PUNCT"]
    return one(candidate(said, MemoryKind.PLAN, "moving_in", f"Moves into {a_home(words)} {ahead[0].text}",
                         typed="where", confidence=0.75))


# What one applies for that is a step in one's life: "applied for a job", "for a visa", "for a PhD".
_APPLIED_FOR = frozenset({"job", "position", "role", "post", "course", "visa", "mortgage", "grant",
                          "scholarship", "place", "programme", "program", "masters", "master", "phd",
                          "citizenship", "residency", "loan", "apprenticeship", "internship", "promotion",
                          "degree", "fellowship", "transfer"})
# What one is offered that changes one's life: "they offered me the job".
_OFFERED = frozenset({"job", "position", "role", "post", "place", "contract", "promotion", "scholarship",
                      "internship", "apprenticeship", "fellowship", "transfer", "partnership"})


def _a_step_named(said: Said, word: Word) -> bool:
    """ "a visa", "a fraud analyst job", "a job at Tesco": a step in one's life applied for, said so
    that it is known later ("the job", "a job": which, the chat said before)."""
    if word.lemma.lower() not in _APPLIED_FOR:
        return False
    if word.lemma.lower() not in _JOBS:
        return True
    return bool(children(said, word, "compound", "amod", "prep"))


def _dated_words(said: Said) -> list[Word]:
    """The clause's words that name a time ("last week"), to keep with the part of it written."""
    return [w for w in clause_words(said.clause) if any(d.first <= w.i <= d.last for d in said.dated)]


def _offered_me(said: Said) -> list[Candidate]:
    """ "Lowrie & Baird offered me a job as accounts assistant", "they offered me the job": what the
    person was offered (by whom, when named), as it happened to them."""
    clause = said.clause
    if clause.lemma != "offer" or not clause.past or clause.negated or clause.asked or clause.supposed \
            or clause.reported:
        return []
    passive = clause.person in ("i", "we") and clause.head.tag == "VBN" and any(
        a.lemma.lower() == "be" for a in children(said, clause.head, "auxpass"))  # "I've been offered"
    to_me = any(w.lower in ("me", "us") for w in children(said, clause.head, "dative", "dobj"))
    if not passive and not to_me:
        return []
    offer = next((o for o in children(said, clause.head, "dobj") if o.lemma.lower() in _OFFERED), None)
    if offer is None:
        return []
    # what, where ("a post on the maternity ward at UNN") and when
    words = [*said.sentence.subtree(offer.i),
             *(w for p in children(said, clause.head, "prep") if p.i > clause.head.i
               for w in said.sentence.subtree(p.i))]
    words += [w for w in _dated_words(said) if w not in words]
    words.sort(key=lambda w: w.i)
    # by whom, when the subject names them ("big news, a solar company in Accra, SunVolt Ghana": from
    # what the subject is on, not what was said before it)
    subject = clause.subject
    by: list[Word] = []
    if subject is not None and not passive:
        by = [w for w in said.sentence.subtree(subject.i) if w.pos != "PUNCT" or w.text in (",", ":")]
        comma = next((n for n, w in enumerate(by) if w.text in (",", ":")), None)
        if comma is not None and not any(w.pos == "PROPN" and w.text[:1].isupper() for w in by[:comma]):
            by = by[comma + 1:]  # "big news, a solar company in Accra": what it is, after the comma
        by = by if any(w.pos == "PROPN" and w.text[:1].isupper() for w in by) else []
    def inside(part: list[Word]) -> str:
        written = said.text(words=part)
        return written if part[0].pos == "PROPN" else written[:1].lower() + written[1:]

    text = "Was offered " + inside(words) + (" by " + inside(by) if by else "")
    return one(candidate(said, MemoryKind.EVENT, "offered", text, valid_from=said.when(), confidence=0.75))


def _divorced(said: Said, lemma: str) -> bool:
    """ "I got divorced last year", "we divorced in 2019": the couple parted."""
    return lemma == "divorce" or (lemma == "get" and any(
        c.lower == "divorced" for c in children(said, said.clause.head, "acomp", "oprd", "dobj", "attr")))


# What a job is called when it is left or lost: "lost my job", "quit my job at the bank".
_JOBS = frozenset({"job", "position", "role", "post"})


def _job_lost(said: Said, lemma: str, objects: list[Word]) -> bool:
    """ "I was laid off last month", "I've been made redundant", "I got fired", "I lost my job",
    "I quit my job", "I retired in May": the person's work ended (not "I lost my keys", "I left
    my job application on the desk", "fired the starting gun")."""
    head = said.clause.head
    if lemma in ("retire", "resign") and not objects:
        return True
    passive = head.tag == "VBN" or any(c.dep == "auxpass" for c in children(said, head))
    if lemma in ("fire", "sack", "dismiss") and passive:
        return True
    if lemma == "lay" and any(p.lower == "off" for p in children(said, head, "prt")):
        return True
    if passive and lemma == "make" and any(
            c.lower == "redundant" for c in children(said, head, "oprd", "acomp")):
        return True
    if passive and lemma == "let" and any(c.lower == "go" for c in children(said, head, "xcomp")):
        return True
    return lemma in ("lose", "quit", "leave") and any(
        o.lemma.lower() in _JOBS and any(c.lower in ("my", "our") for c in children(said, o, "poss"))
        and not children(said, o, "compound")  # "my job application", read as "job" with a compound
        for o in objects)


def _employer_left(said: Said, lemma: str, objects: list[Word]) -> str | None:
    """ "I left Google in May", "I quit Tesco last week", "I resigned from Aviva": the organisation
    they worked at, named as the place left (its name); None when no organisation is named."""
    named = objects if lemma in ("leave", "quit") else [
        o for p in children(said, said.clause.head, "prep") if p.lower == "from" and lemma == "resign"
        for o in children(said, p, "pobj")]
    for thing in named:
        if thing.ent == "ORG" and thing.pos == "PROPN":
            return " ".join(w.text for w in said.sentence.subtree(thing.i) if w.ent == "ORG")
    return None


_ASSESSED = frozenset({"test", "exam", "quiz", "essay", "assignment", "assessment", "paper", "coursework",
                       "final", "finals", "midterm", "mock", "mocks"})


def _marked(said: Said, got: Word) -> bool:
    """A mark got in something assessed: "a B in the class test", "92 on the first quiz"."""
    lettered = len(got.text) <= 2 and got.text[:1].isupper() and got.text[1:] in ("", "+", "-")
    mark = got.pos == "NUM" or lettered
    if not mark and not any(c.dep == "nummod" for c in said.sentence.children(got.i)):
        return False
    return any(
        p.lower in ("in", "on", "for")
        and any(w.lemma.lower() in _ASSESSED for w in said.sentence.subtree(p.i))
        for p in [*children(said, said.clause.head, "prep"), *children(said, got, "prep")]
    )


def _employer_got(said: Said, lemma: str, objects: list[Word]) -> str | None:
    """Who the job the person got is with, when they say so: "a job at Tesco", "a new job as a
    barista at Costa" (not "a job at a hospital in Leeds"; nor "the Brunswick job", which may name
    the place as well as the employer)."""
    if lemma != "get" or not objects or objects[0].lemma.lower() != "job":
        return None
    job = objects[0]
    preps = [w for w in said.sentence.subtree(job.i) if w.dep == "prep" and w.lower in ("at", "with", "for")]
    for prep in preps:
        where = next(iter(children(said, prep, "pobj")), None)
        if where is None or not where.text[:1].isupper() or where.ent in ("DATE", "TIME", "PERSON"):
            continue
        words = [w for w in said.sentence.subtree(where.i)
                 if w.i <= where.i and (w is where or w.dep == "compound") and w.text[:1].isupper()]
        return joined(words) if words else None
    return None


def _job_got(said: Said, lemma: str, objects: list[Word]) -> str | None:
    """The title of the job the person got, when they name it ("I got the night manager job":
    night manager; "a new job as a barista": barista): it is their job now. Only a title that ends
    in an occupation ("manager", "night manager"), not "a new job", "the job" or "the dream job"."""
    if lemma != "get" or not objects or objects[0].lemma.lower() != "job":
        return None
    as_what = [o for p in children(said, objects[0], "prep") if p.lower == "as"
               for o in children(said, p, "pobj")]
    if as_what and lex.an_occupation(as_what[0].lemma):
        words = [w for w in said.sentence.subtree(as_what[0].i)
                 if w.i <= as_what[0].i and w.dep in ("compound", "amod") or w is as_what[0]]
        return " ".join(w.lower for w in sorted(words, key=lambda w: w.i))
    title = [w for w in said.sentence.children(objects[0].i) if w.dep == "compound" and w.pos == "NOUN"]
    if not title or not lex.an_occupation(title[-1].lemma):
        return None  # "the dream job", "a summer job": what kind of job, not what one is
    words = [w for t in title for w in said.sentence.subtree(t.i) if w.dep in ("compound", "amod") or w is t]
    return " ".join(w.lower for w in sorted(words, key=lambda w: w.i))


def _promoted_to(said: Said, lemma: str) -> str | None:
    """ "I got promoted to team lead", "I've been promoted to senior designer": the title one was
    promoted to is one's job now. Read from the words after "promoted to" (the parser hangs "team
    lead" in many ways), up to the first that is no part of a title; only a title that ends in an
    occupation."""
    words = said.sentence.words
    promoted = next((w for w in words if w.lemma.lower() == "promote" and w.tag == "VBN"), None)
    if promoted is None or lemma not in ("promote", "get") or promoted.i + 1 >= len(words):
        return None
    if words[promoted.i + 1].lower != "to":
        return None
    title: list[Word] = []
    for word in words[promoted.i + 2:]:
        if word.pos in ("PUNCT", "ADP", "CCONJ", "SCONJ") or word.ent in ("DATE", "TIME") or word.lower in (
                "a", "an", "the"):
            if title or word.lower not in ("a", "an", "the"):
                break
            continue
        title.append(word)
    if not title or len(title) > 4 or (not lex.an_occupation(title[-1].lemma)
                                       and title[-1].lower != "lead"):
        return None
    return " ".join(w.lower for w in title)


# How a thing already set is moved to another time: "we've moved the trip to October".
_RESCHEDULING = frozenset({"move", "push", "postpone", "reschedule", "bring", "shift", "delay", "put"})


def _a_thing(word: Word) -> bool:
    """What is moved is a thing (the trip, the sofa), not one of the person's people or a home."""
    return word.pos in ("NOUN", "PROPN") and word.lemma.lower() not in lex.OWN_PEOPLE | lex.HOMES


def rescheduled(said: Said) -> list[Candidate]:
    """ "we've moved the Spain trip to October", "I pushed my dentist appointment to Friday": a thing
    of the person's set for another time. The time it is moved to lies ahead, however the verb is
    said, and the memory is a plan for then."""
    clause = said.clause
    if clause.person not in ("i", "we") or not clause.asserted or clause.lemma not in _RESCHEDULING:
        return []
    things = [o for o in children(said, clause.head, "dobj") if o.pos in ("NOUN", "PROPN")]
    if not things or not _a_thing(things[0]):
        return []
    if clause.lemma == "put" and not any(p.lower == "off" for p in children(said, clause.head, "prt")):
        return []  # "put off" moves a thing; "put" alone puts it somewhere
    ahead = tuple(times(said.sentence, said.at, True))
    to = [p for p in children(said, clause.head, "prep", "advmod") if p.lower in ("to", "until", "till")]
    inside = {w.i for p in to for w in said.sentence.subtree(p.i)}
    moved_to = [d for d in ahead if d.first in inside or d.first + 1 in inside]
    if not moved_to or moved_to[0].when.moment().date() < said.at.date():
        return []
    kept = {w.i for w in clause_words(clause)}
    words = [w for w in said.sentence.words if w.i in kept]
    text = Said(clause, said.position, said.at, ahead).text(words=words) if words else ""
    return one(candidate(said, MemoryKind.PLAN, "rescheduled", text, confidence=0.75))


_PLANNED = frozenset(
    {
        "present",
        "view",  # a house or a flat one might buy or rent
        "fly",
        "travel",
        "visit",
        "attend",
        "perform",
        "host",
        "compete",
        "start",
        "move",
        "go",
        "run",
        "leave",
        "begin",
        "speak",
        "graduate",
        "marry",
        "retire",
        "launch",
        "open",
        "sign",
        "finish",
        "return",
        "meet",
        "register",
        "enter",
        "sit",
        "celebrate",
        "throw",
        "race",
        "play",
        "head",
        "drive",
        "take",
        "do",
        "have",
        "see",
        "come",
        # getting and giving up a thing of one's own on a day: "we're adopting a cat this weekend"
        "adopt",
        "buy",
        "sell",
        "rent",
        "get",
    }
)
# What one "has" or "does" on a day that is worth keeping ("I have my driving test on the 9th").
_OCCASIONS = frozenset(
    {
        "ticket",
        "tickets",
        "exam",
        "test",
        "interview",
        "appointment",
        "wedding",
        "conference",
        "trip",
        "flight",
        "race",
        "marathon",
        "triathlon",
        "ironman",
        "deadline",
        "presentation",
        "audition",
        "recital",
        "concert",
        "gig",
        "match",
        "tournament",
        "competition",
        "graduation",
        "party",
        "surgery",
        "operation",
        "holiday",
        "vacation",
        "course",
        "class",
        "classes",
        "move",
        "viewing",
        "defence",
        "defense",
        "check",
        "checkup",
        "check-up",
        "scan",
        "hearing",
        "exhibition",
        "show",
        "festival",
        "funeral",
        "christening",
        "reunion",
        "barbecue",
        "bbq",
        "cookout",
        "picnic",
        "housewarming",
        "sleepover",
        # what is booked by the hour: "I have a physio session on Tuesday", "my driving lesson is on the 3rd"
        "session",
        "lesson",
        "lessons",
        "fitting",
        "induction",
        "orientation",
        # seeing a doctor again: "GI follow-up is on June 16th"
        "follow-up",
        "followup",
        "up",  # "follow-up", which the parser cuts into "follow", "-", "up"
    }
) | lex.PROCEDURES


def _going_to(said: Said) -> Word | None:
    """The verb of "I'm going to start a new job on Monday", "gonna view the flat": the future said
    with "going to", where the parser makes "going" the head and what is done hangs under it."""
    head = said.clause.head
    if said.clause.lemma != "go" or head.tag != "VBG":
        return None
    # right after it: in "we're going to Lyon in July to see my parents" the going is the journey
    return next((x for x in children(said, head, "xcomp", "advcl") if x.tag == "VB" and x.i == head.i + 2
                 and any(a.lower in ("to", "na") and a.i == head.i + 1 for a in children(said, x, "aux"))),
                None)


def plan(said: Said) -> list[Candidate]:
    """ "I'm presenting a poster in Lisbon in November", "we're moving to Leeds in May", "I have my
    driving test on the 9th", "I'm going to view a flat on Saturday": something the person will do,
    on a date."""
    clause = said.clause
    # "I've booked a table at Dishoom for Friday": arranged now, for a day ahead
    # "I booked a trip for August", "I'm booked on a course on the 2nd": done now, for a day ahead
    arranged = clause.lemma in lex.ARRANGING and (clause.head.tag == "VBD" or clause.head.tag == "VBN" and (
        clause.perfect or bool(children(said, clause.head, "auxpass"))))
    # "we've got a caravan booked for June", "I have a table booked for Friday": had, as arranged
    arranged = arranged or clause.lemma == "have" and any(
        a.tag == "VBN" and a.lemma.lower() in lex.ARRANGING
        for o in children(said, clause.head, "dobj") for a in children(said, o, "acl"))
    outing = _an_outing(said)  # "going camping this weekend": the doing is the thing
    if (clause.person not in ("i", "we") and not outing) or not clause.asserted or (
            clause.past and not arranged):
        return []
    if clause.lemma == "be":
        return _away(said)
    # what is done, when it is said after "going to"
    going_to = None if outing else _going_to(said)
    verb = going_to or clause.head
    ahead = clause.looking_ahead or clause.head.tag in ("VBP", "VBZ") or clause.has_got or arranged
    inside = {w.i for w in clause_words(clause)}
    dated = [
        d
        for d in said.dated
        if (d.first in inside or d.first + 1 in inside) and d.when.moment().date() > said.at.date()
    ]
    # "I've got a sim check on the 20th": had, as "I have ..."
    lemma = verb.lemma.lower() if going_to else clause.lemma  # "I've got ..." is read as "have"
    if not ahead or not dated or (lemma not in _PLANNED and not arranged and not outing):
        return []
    if lemma == "get" and clause.head.tag != "VBG" and not going_to:
        return []  # "we're getting a puppy on Friday" is a plan; "we get the keys on the 25th": of what?
    taken = {i for d in dated for i in range(d.first, d.last + 1)}
    after = [w for w in clause_words(clause) if w.i not in taken and w.i > verb.i]
    time_off = lemma == "take" and any(
        p.lower == "off" for p in children(said, verb, "prt", "advmod")
    )  # "I'm taking next week off"
    # "I'll retire at the end of 2028": the verb is the thing
    if not names_a_thing(said, after) and not time_off and lemma not in lex.LIFE_EVENTS and not outing:
        return []
    # Where one goes "to" is a place, whatever name the small model takes it for ("Accra": a person).
    if lemma in _JOURNEYS and not outing and not any(
        place(said, w, named=w.lower == "to") for w in children(said, verb, "prep", "dobj", "advmod")
    ):
        return []
    occasion = any(
        w.lemma.lower() in _OCCASIONS
        for o in children(said, verb, "dobj")
        for w in said.sentence.subtree(o.i)
    )
    # "taking the kids to the zoo": an outing; "seeing the dentist": an appointment
    outing = lemma == "take" and any(
        p.lower == "to" and children(said, p, "pobj") for p in children(said, verb, "prep"))
    medic = lemma in ("see", "have") and any(
        o.lemma.lower() in lex.MEDICS for o in children(said, verb, "dobj"))
    if lemma in ("have", "take", "see", "play", "sit") and not (
        occasion or time_off or outing or medic or arranged
    ):
        return []
    if lemma == "do" and not (occasion and clause.looking_ahead):
        return []
    text = (
        f"Is taking time off {dated[0].text}" if time_off and not names_a_thing(said, after) else said.text()
    )
    if medic and lemma == "have":  # "I've got the dentist on Tuesday": an appointment with them
        text = re.sub(r"^Has (?:got )?(?:the|my|a|an) ([\w-]+)", r"Has a \1 appointment", text, count=1)
    if text.startswith("Going "):  # "we're going hiking": its "are" went with the "we" hung on "going"
        text = "Is " + text[:1].lower() + text[1:]
    return one(candidate(said, MemoryKind.PLAN, "plan", text, confidence=0.75))


def seen_by_medic(said: Said) -> list[Candidate]:
    """ "My GP wants to see me on the 24th", "the doctor wants to see me again in two weeks": an
    appointment the person has, on a day ahead, asked for by the one who will see them."""
    clause = said.clause
    subject = clause.subject
    if (subject is None or subject.lemma.lower() not in lex.MEDICS or clause.lemma not in ("want", "need")
            or not clause.asserted or clause.past or clause.person not in ("my", "other", "none")):
        return []
    if any(c.dep == "poss" and c.lower != "my" for c in children(said, subject)):
        return []  # "her doctor wants to see her": another's
    seeing = [x for x in children(said, clause.head, "xcomp") if x.lemma.lower() == "see"
              and any(o.lower == "me" for o in children(said, x, "dobj"))]
    if not seeing:
        return []
    inside = {w.i for w in said.sentence.subtree(seeing[0].i)}
    ahead = [d for d in said.dated if d.first in inside and d.when.moment().date() > said.at.date()]
    if not ahead:
        return []
    who = said.text(words=[w for w in said.sentence.subtree(subject.i) if w.lower != "my"])
    who = (who[:1].lower() + who[1:] if subject.pos != "PROPN" else who).rstrip(", ")
    who += "," if "," in who else ""  # "the eye doctor, Dr. Okafor, on ...": the name set off both sides
    rest = [w for w in said.sentence.subtree(seeing[0].i)
            if w.i > seeing[0].i and w.lower not in ("me", "again")]
    when = said.text(words=rest)
    the = "" if who.startswith("the ") else "the "
    text = f"Has an appointment with {the}{who} {when[:1].lower() + when[1:]}"
    return one(candidate(said, MemoryKind.PLAN, "seen_by_medic", text, confidence=0.75))


# What one has done to a thing of one's own, said by a particle: "having my wisdom teeth out".
_DONE_BY_PARTICLE = frozenset({"out", "off", "removed", "in"})


def done_for_them(said: Said) -> list[Candidate]:
    """ "I'm getting my braces taken off on the 20th", "we're having the boiler serviced next Monday",
    "I'm having my wisdom teeth out on Tuesday": something the person has done for them by someone
    else, on a day ahead; the thing done is said by the verb after it, or by a particle."""
    clause = said.clause
    if clause.person not in ("i", "we") or not clause.asserted or clause.past or clause.lemma not in (
            "have", "get") or clause.has_got:
        return []
    if not (clause.looking_ahead or clause.head.tag in ("VBG", "VBP", "VBZ")):
        return []
    head = clause.head
    # "getting [my braces taken off]": the parser makes the thing the subject of the verb done to it
    done = [c for c in children(said, head, "ccomp", "xcomp", "oprd")
            if c.tag == "VBN" and any(s.pos == "NOUN" for s in children(said, c, "nsubj", "nsubjpass"))]
    # "having [my wisdom teeth] out": the thing the object, what is done a particle
    particle = [p for p in children(said, head, "prt") if p.lower in _DONE_BY_PARTICLE]
    thing = [o for o in children(said, head, "dobj") if o.pos == "NOUN"]
    if not done and not (particle and thing):
        return []
    parts = {w.i: w for w in clause_words(clause)}
    for part in done:
        parts.update({w.i: w for w in said.sentence.subtree(part.i)})
    inside = set(parts)
    dated = [d for d in said.dated if (d.first in inside or d.first + 1 in inside)
             and d.when.moment().date() > said.at.date()]
    pointed = [w for w in parts.values()
               if w.dep in ("dobj", "nsubj", "nsubjpass") and w.lower in NOT_A_THING]
    if not dated or pointed:
        return []  # "I'm getting it fixed on Monday": what "it" is was said elsewhere
    text = said.text(words=sorted(parts.values(), key=lambda w: w.i))
    return one(candidate(said, MemoryKind.PLAN, "done_for_them", text, confidence=0.75))


# How one goes somewhere.
_JOURNEYS = frozenset({"go", "travel", "fly", "visit", "head", "drive", "come"})


# What one goes out to do, named by the doing: "going camping", "went skiing".
_OUTINGS = frozenset({"camp", "ski", "fish", "hike", "sail", "surf", "climb", "snowboard", "kayak", "canoe",
                      "trek", "hunt", "scuba", "dive", "backpack", "caravan", "glamp"})


def _an_outing(said: Said) -> bool:
    """ "We're going camping this weekend", "I went skiing in February" (not "going shopping")."""
    def outing(x: Word) -> bool:
        return (x.tag == "VBG" or x.lower.endswith("ing")) and (
            x.lemma.lower() in _OUTINGS or x.lower.removesuffix("ing") in _OUTINGS)

    head = said.clause.head
    if said.clause.lemma == "go":
        return said.clause.person in ("i", "we") and any(
            outing(x) for x in children(said, head, "xcomp", "dobj"))
    # "we're going hiking in July", "I went fishing": the parser may make "going" the -ing's auxiliary
    # (and hang "we" on it)
    going = [a for a in children(said, head, "aux") if a.lower in ("going", "went", "go", "gone")]
    by_them = said.clause.person in ("i", "we") or any(
        s.lower in ("i", "we") for a in going for s in children(said, a, "nsubj"))
    return outing(head) and bool(going) and by_them


def _away(said: Said) -> list[Candidate]:
    """ "I'll be in London from the 4th to the 9th", "we're off to Crete on the 14th": where the
    person will be, on a date."""
    clause = said.clause
    if not (clause.looking_ahead or clause.head.tag in ("VBP", "VBZ")):  # "I'm in Rome on the 5th"
        return []
    inside = {w.i for w in clause_words(clause)}
    ahead = [
        d
        for d in said.dated
        if (d.first in inside or d.first + 1 in inside) and d.when.moment().date() > said.at.date()
    ]
    # "we're off to Crete on the 14th": where one goes, whatever name the small model takes it for
    off_to = [p for off in children(said, clause.head, "advmod") if off.lower == "off"
              for p in children(said, off, "prep") if p.lower == "to"]
    # "I'm away in Portugal in May": the place hangs on "away"
    holders = [clause.head, *(a for a in children(said, clause.head, "advmod") if a.lower == "away")]
    if not ahead or not (any(
        p.lower in ("in", "at") and place(said, p) for h in holders for p in children(said, h, "prep")
    ) or any(place(said, p, named=True, organisations=True) for p in off_to)):  # "Crete": tagged ORG
        return []
    return one(candidate(said, MemoryKind.PLAN, "away", said.text(), confidence=0.75))


_DATED = _OCCASIONS | frozenset({"day", "birthday", "anniversary", "due", "date", "start", "mot", "service",
                                  "inspection", "renewal",
                                  # a meal or a meeting of one's own: "my farewell drinks are on the 13th"
                                  "drinks", "drink", "dinner", "lunch", "brunch", "meeting", "meetup",
                                  "celebration"})


# What is kept only as one's first or last: "my last day is the 30th", "first shift is Monday".
_FIRST_OR_LAST = frozenset({"day", "shift", "week"})

# How a thing of the person's is said to begin or end on a day.
_BEGINNING = frozenset({"start", "begin", "open", "end", "finish"})


def _workplace_before(said: Said, subject: Word) -> str | None:
    """Where one's first or last day is, when the sentence named it before and the day's words do
    not: "gave my notice at Casa Verde on Monday, last day is March 13" (a name after "at")."""
    if any(p.lower in ("at", "in", "with") for p in children(said, subject, "prep")):
        return None
    named = [
        name
        for sentence in (*said.earlier, said.sentence)
        if any(w.lemma.lower() in _LEAVING_WORK for w in sentence.words)  # not "I met Sam at Costa"
        for p in sentence.words
        if (sentence is not said.sentence or p.i < subject.i) and p.lower == "at" and p.dep == "prep"
        and (name := organisation_in(sentence, p))
    ]
    return named[-1] if named else None


# What says the place named is the one a first or last day is at: work, and leaving it.
_LEAVING_WORK = frozenset({"notice", "resign", "resignation", "quit", "leave", "work", "job", "start",
                           "hire", "offer"})


def _what_mine_is(said: Said, mine: Word) -> Word | None:
    """The thing "mine" stands for: the last thing of the person's named before it in the sentence
    ("I need to do the driving test too, mine is booked for the 2nd")."""
    named = [w for w in said.sentence.words[:mine.i] if w.pos == "NOUN" and w.dep in ("dobj", "pobj", "nsubj")
             and w.lemma.lower() in _DATED and not any(  # "my sister passed her test, mine is ...": hers
                 p.dep == "poss" and p.lower not in ("my", "our") for p in said.sentence.children(w.i))]
    return named[-1] if named else None


def _noun_phrase(said: Said, noun: Word) -> list[Word]:
    """A noun with the words right before it that say what it is ("the Alberta driving test": the
    parser may hang them elsewhere), not its article or whose it is."""
    first = noun.i
    while first > 0 and (said.sentence.words[first - 1].pos in ("NOUN", "PROPN", "ADJ")
                         or said.sentence.words[first - 1].tag == "VBG"):
        first -= 1
    return list(said.sentence.words[first:noun.i + 1])


def _cut_off(said: Said, dated: Dated, subject: Word) -> bool:
    """Whether a comma stands between a time and the subject after it ("yesterday, my last day
    is ..."): the time belongs to what came before the comma."""
    return any(w.text == "," for w in said.sentence.words[dated.last + 1:subject.i])


def scheduled(said: Said) -> list[Candidate]:
    """ "My flight to Boston is at 6am tomorrow", "my last day is June 30", "my birthday is on
    3 May", "exam is on the 16th", "my placement starts on 6 July": a thing of the person's, and
    the day it is on."""
    clause = said.clause
    subject = clause.subject
    # "the ferry's booked for the 13th", "test is booked for the 19th": arranged, for a day ahead
    booked = clause.lemma in lex.ARRANGING and bool(children(said, clause.head, "auxpass"))
    if subject is None or not clause.asserted or (clause.lemma not in ("be", *_BEGINNING) and not booked):
        return []
    # "I need to do the driving test, mine is booked for the 2nd": "mine" is the thing just named
    stands_for = _what_mine_is(said, subject) if subject.lower in ("mine", "ours") else None
    if subject.lower in ("mine", "ours") and stands_for is None:
        return []
    noun = (stands_for or subject).lemma.lower()
    mine = clause.person == "my" or stands_for is not None
    # Chat leaves out whose ("exam is on the 16th"): theirs; "the match", "his exam": whose? What
    # is booked, said by the one who tells of it, is theirs ("the flights are booked for the 12th")
    # "the last day in the warehouse is the 31st", "first shift is Monday": one's own first or last
    # (not "the last day of the sale": the sale's)
    first_or_last = any(c.lower in ("last", "first") for c in children(said, subject, "amod")) and not any(
        p.lower == "of" for p in children(said, subject, "prep"))
    # "moving day is the 30th", "results day is 13 August": a day named by what happens on it
    named_day = noun == "day" and any(
        c.tag == "VBG" or c.pos == "NOUN" for c in children(said, subject, "compound", "amod"))
    first_or_last = first_or_last or named_day
    # "the removal van's booked": a noun typed in lower case that the tagger took for a name is one
    common = subject.pos == "NOUN" or subject.pos == "PROPN" and subject.text.islower()
    bare = clause.person in ("other", "none") and common and not children(
        said, subject, "poss") and (booked or first_or_last or not children(said, subject, "det"))
    # "my sister's wedding is in June": a day of one of the person's people is one they keep too
    owner = next(iter(children(said, subject, "poss")), None)
    their_persons = (
        owner is not None
        and owner.lemma.lower() in lex.OWN_PEOPLE
        and any(c.lower == "my" for c in children(said, owner, "poss"))
    )
    # "my car's MOT is on the 12th": a day of a thing of theirs is theirs to keep
    their_things = owner is not None and owner.pos == "NOUN" and (
        owner.lemma.lower() not in lex.OWN_PEOPLE) and any(
        c.lower in ("my", "our") for c in children(said, owner, "poss"))
    mine = mine or their_things
    if not (mine or bare or their_persons):
        return []
    # "my placement starts on 6 July": whatever it is, it is theirs and it begins
    begins = mine and clause.lemma in _BEGINNING
    # "my MOT is due next month", "my car insurance is due on the 30th": a thing of theirs falls due
    falls_due = (mine or bare) and clause.lemma == "be" and not clause.past and any(
        c.lower == "due" for c in children(said, clause.head, "acomp"))
    begins = begins or (falls_due and subject.lemma.lower() not in lex.OWN_PEOPLE and subject.pos == "NOUN")
    if not begins and not booked and noun not in _DATED | _FIRST_OR_LAST or (
        noun in _FIRST_OR_LAST and not first_or_last
    ):
        return []
    words = sorted(
        {*(w for w in said.sentence.subtree(subject.i) if w.lower not in ("my", "our")),
         *clause_words(clause)},
        key=lambda w: w.i,
    )
    inside = {w.i for w in words}
    dated = [d for d in said.dated if d.first in inside or d.first + 1 in inside]
    # "handed in my letter yesterday, my last day is September 30th": the day the thing is on is
    # said after its verb; a time before its subject (the parser may hang it there) is another's
    others = {i for d in dated if d.last < subject.i and _cut_off(said, d, subject)
              for i in range(d.first, d.last + 1)}
    words = [w for w in words if w.i not in others]
    dated = [d for d in dated if d.first > clause.head.i] or [d for d in dated if d.first not in others]
    if not dated:
        return []
    moment = dated[0].when.moment()
    # "the flights are booked", "the last day in the warehouse": whose goes without saying
    if booked or first_or_last:
        words = [w for w in words if not (w.dep == "det" and w.head == subject.i and w.lower == "the")]
    if booked:
        if moment.date() <= said.at.date() or dated[0].first < clause.head.i:
            # "it was booked for last week": of what came to pass, the booking says nothing; "we move
            # on the 15th, the truck is booked": the day is the move's
            return []
        # "..., so nervous": how one feels about it is no part of what is booked
        asides = [c for c in children(said, clause.head)
                  if c.dep in ("advmod", "acomp", "advcl", "conj", "ccomp")]
        moods = {w.i for c in asides for part in (said.sentence.subtree(c.i),)
                 if not any(x.pos in ("NOUN", "PROPN", "NUM") for x in part) for w in part}
        words = [w for w in words if w.i not in moods]
        # "ferry's booked": the "is" it stands for
        text = re.sub(r"^(\S+)['’]s ", r"\1 is ", said.text(words=words), count=1)
    else:
        if first_or_last:  # "first shift is Monday, a bit nervous": what follows the day's comma is an aside
            cut = next((w.i for w in said.sentence.words if w.text == "," and w.i > dated[0].last), None)
            words = [w for w in words if cut is None or w.i < cut]
        text = said.text(words=words)
        where = _workplace_before(said, subject) if first_or_last and noun in ("day", "shift") else None
        if where and where not in text:  # "handed in my notice at St. Olavs, my last shift is ...": there
            text = re.sub(r"^((?:First|Last) (?:day|shift))\b", rf"\1 at {where}", text, count=1)
    if stands_for is not None:  # "mine is booked ...": "Alberta driving test is booked ..."
        phrase = _noun_phrase(said, stands_for)  # "we both have exams, mine is ...": one exam
        named = " ".join([*(w.text for w in phrase[:-1]),
                          stands_for.lemma if stands_for.tag == "NNS" else stands_for.text])
        text = re.sub(r"^(?:Mine|Ours|Theirs)\b", named[:1].upper() + named[1:], text, count=1)
    if noun in ("birthday", "anniversary"):
        # every year: the year the day was resolved into is not said, and not kept
        span = said.sentence.words[dated[0].first:dated[0].last + 1]
        said_year = any(w.text.isdigit() and len(w.text) == 4 for w in span)
        if not said_year:
            text = text.replace(f" {moment.year}", "", 1)
        return one(candidate(said, MemoryKind.FACT, "yearly", text, confidence=0.8))
    if falls_due and moment.date() >= said.at.date():  # something to see to by then: a to-do
        return one(candidate(said, MemoryKind.TODO, "falls_due", text, due_at=moment, confidence=0.8))
    if moment.date() > said.at.date():
        return one(candidate(said, MemoryKind.PLAN, "scheduled", text, confidence=0.8))
    return one(candidate(said, MemoryKind.EVENT, "scheduled", text, valid_from=moment, confidence=0.75))


def family_ahead(said: Said) -> list[Candidate]:
    """What one of the person's family has ahead, on a day said: "my mum is visiting in April", "my
    brother is getting married in June", "my sister's coming up next month with her kids" — a day
    the person keeps too. Not what they did, might do or said, nor a friend's or a colleague's."""
    clause, sentence = said.clause, said.sentence
    subject = clause.subject
    if (subject is None or clause.person != "my" or not clause.asserted or clause.past
            or subject.lemma.lower() not in lex.FAMILY or clause.lemma in ("move", "relocate")):
        return []  # a relative's move is their home's news, kept once they live there ("relative")
    going_on = clause.head.tag == "VBG" or any(  # "is getting married"
        a.tag == "VBG" for a in children(said, clause.head, "aux", "auxpass"))
    if not (clause.looking_ahead or going_on):
        return []  # "my son has a test tomorrow" is the scheduled rule's; "my mum visits a lot" a habit
    words = sorted({*(w for w in sentence.subtree(subject.i) if w.lower not in ("my", "our")),
                    *clause_words(clause)}, key=lambda w: w.i)
    # "... at the end of June, their first trip abroad in twenty years": what follows the day's
    # comma is an aside, and its "in twenty years" no day of the visit
    said_when = [d.last for d in said.dated if d.first > clause.head.i]
    cut = next((w.i for w in sentence.words if w.text == "," and said_when and w.i > min(said_when)), None)
    words = [w for w in words if cut is None or w.i < cut]
    inside = {w.i for w in words}
    ahead = [d for d in said.dated if (d.first in inside or d.first + 1 in inside)
             and d.when.moment().date() > said.at.date()]
    pointed = [w for w in words if w.dep in ("dobj", "pobj") and w.lower in NOT_A_THING]
    if not ahead or pointed:
        return []  # "my mum is doing it tomorrow": what "it" is was said elsewhere
    return one(candidate(said, MemoryKind.PLAN, "family_ahead", said.text(words=words), confidence=0.75))

