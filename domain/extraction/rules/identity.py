"""Who the person is: where they live, where and as what they work, what they are (a nurse,
vegan, allergic to cats), their favourites and the tools they switched to."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.render import clause_words
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    frequency,
    names_a_thing,
    one,
    organisation,
    place,
)
from domain.extraction.slots import canonical_slot
from domain.model import MemoryKind
from domain.text.parse import Word, joined

# --- what they are called -------------------------------------------------------------------------

_CALLING = frozenset({"everyone", "everybody", "people", "friends", "most", "all"})


def own_name(said: Said) -> list[Candidate]:
    """The person's own name: "my name is Sam", "I'm Maria", "Dr Patel here" is not read (no
    verb); what they want to be called: "call me Sam", "you can call me Sam"; what others call
    them: "everyone calls me Bea". One slot, `name`: a later "call me Sam" replaces "Samantha"."""
    clause = said.clause
    if clause.negated or clause.asked or clause.reported:
        return []
    head = clause.head
    if clause.lemma == "be" and not clause.past and not clause.supposed:
        named = children(said, head, "attr", "acomp")
        if named and named[0].lower in _CHAT_SHORTCUTS:
            # "im tane btw": a shortcut of chat is no name; the word before it, typed in lower case, is
            before = [c for c in children(said, named[0], "compound") if c.text.isalpha()]
            if clause.person != "i" or len(before) != 1 or named[0].i != before[0].i + 1:
                return []
            name = before[0].text[:1].upper() + before[0].text[1:]
            return one(candidate(said, MemoryKind.FACT, "name", f"Is named {name}", attribute="name",
                                 value=name, entities=(name,), confidence=0.8))
        subject = clause.subject
        mine = clause.person == "my" and subject is not None and subject.lemma.lower() == "name" and any(
            c.lower == "my" for c in children(said, subject, "poss"))
        # "I'm Priya": a bare name the model tagged as no one in particular is theirs too
        # (or one the model took for a place, with what they do beside it: "I'm Nadia, a translator")
        beside = _job_beside_the_name(said, named[0]) if named else []
        based = _based_in(said, named[0]) if named and clause.person == "i" else None
        me = clause.person == "i" and bool(named) and (named[0].ent == "PERSON" or (
            named[0].ent == "" and not children(said, named[0], "amod", "prep", "acl", "relcl"))
            or (named[0].ent not in ("DATE", "TIME") and bool(beside)) or based is not None)
        if based is not None and me and _a_name(said, named[0]):
            guess = lives_in(said, "introduced", based, confidence=0.6)
            beside += [guess.model_copy(update={"asserted": False})] if guess else []
        # "my name is Priya": whatever the model took the name for (a people, an organisation)
        # (a name the model does not know may be read as a noun: "Ines" as the plural of "ine")
        written_as_name = bool(named) and (
            named[0].pos == "PROPN" or (named[0].pos == "NOUN" and named[0].text[:1].isupper()))
        if (mine and written_as_name and named[0].ent not in ("DATE", "TIME")
                and not children(said, named[0], "det", "poss")) or (me and _a_name(said, named[0])):
            return _named(said, named[0], "Is named {}", MemoryKind.FACT) + beside
    if clause.lemma == "call" and not clause.past:
        if not any(o.lower == "me" for o in children(said, head, "dobj")) or children(said, head, "mark"):
            return []  # "if you call me Sam, ...": supposed, not asked for
        named = [w for w in children(said, head, "oprd", "xcomp", "attr") if _a_name(said, w)]
        subject = clause.subject
        if not named:
            return []
        if subject is None or subject.lower == "you":  # "call me Sam", "you can call me Sam"
            return _named(said, named[0], "Wants to be called {}", MemoryKind.PREFERENCE)
        if subject.lower in _CALLING and not clause.supposed:  # "everyone calls me Bea"
            return _named(said, named[0], "Goes by {}", MemoryKind.FACT)
    return []


# Star signs one says one is ("I'm Gemini"); not Leo or Cancer, which are said of a name or an illness.
_STAR_SIGNS = frozenset({"aries", "taurus", "gemini", "virgo", "libra", "scorpio", "sagittarius", "capricorn",
                         "aquarius", "pisces"})


def _job_beside_the_name(said: Said, name: Word) -> list[Candidate]:
    """ "I'm Ivy, a freelance writer": what they do, said beside the name they give."""
    for job in children(said, name, "appos"):
        if job.pos != "NOUN" or not lex.an_occupation(job.lemma):
            continue
        words = [w for w in said.sentence.subtree(job.i) if w.pos != "PUNCT" and w.dep != "prep"
                 and w.head == job.i or w is job]
        title = joined([w for w in words if w.dep not in ("det", "poss")])
        return one(candidate(said, MemoryKind.FACT, "job", "Is " + joined(words), attribute="job_title",
                             value=title))
    return []


# Shortcuts of chat, never a name however tagged: "im tane btw", "I'm Sam lol".
_CHAT_SHORTCUTS = frozenset({"btw", "lol", "tbh", "fyi", "imo", "imho", "ngl", "haha", "lmao", "rn", "idk",
                             "omg", "pls", "plz", "thx", "ty", "jk", "smh", "af", "fr"})


def _a_name(said: Said, word: Word) -> bool:
    """A name as written: a proper noun, no one's ("Sam's dad"), not a people or a place's adjective."""
    return (
        word.pos == "PROPN"
        and word.lower not in _STAR_SIGNS | _CHAT_SHORTCUTS
        and word.ent not in ("NORP", "DATE", "TIME", "ORG")
        and not any(c.tag == "POS" or c.dep in ("det", "poss") for c in said.sentence.children(word.i))
    )


def _based_in(said: Said, named: Word) -> str | None:
    """The place in "I'm Selam from Addis Ababa", "Hi, I'm Tom from Leeds": one who introduces
    themselves by name and a place says where they are based, most likely where they live (a
    guess: it may be where they grew up). A single capitalised name, not a group or a job ("I'm
    Dutch from Utrecht", "I'm a nurse from Manila": no name)."""
    if named.pos != "PROPN" or not named.text[:1].isupper() or named.ent in ("DATE", "TIME", "ORG", "NORP"):
        return None
    if any(c.i < named.i for c in children(said, named, "det", "poss", "amod", "compound")):
        return None  # "I'm the Tom from Leeds", "I'm little Tom from Leeds"
    froms = [c for c in [*children(said, named, "prep"), *children(said, said.clause.head, "prep")]
             if c.lower == "from" and c.i == named.i + 1]
    where = place(said, froms[0], named=True) if froms else None
    return where if where and named.text not in where.split() else None


def _named(said: Said, word: Word, form: str, kind: MemoryKind) -> list[Candidate]:
    # the name and the names before it ("Mary Jane"), not one named further on ("a nurse at St Mary's")
    name = joined([w for w in said.sentence.subtree(word.i)
                   if w.i == word.i or (w.dep in ("compound", "flat") and w.pos == "PROPN"
                                        and w.head == word.i)])
    return one(candidate(said, kind, "name", form.format(name), attribute="name", value=name,
                         entities=(name,), confidence=0.9))


# --- where they live, where and as what they work ------------------------------------------------


def _theirs_unsaid(said: Said) -> bool:
    """ "we sold up, living in Cork now": a clause with no subject of its own, hung on one of the
    person's, is theirs."""
    head = said.clause.head
    if said.clause.person != "none" or head.dep not in ("advcl", "conj") or head.tag != "VBG":
        return False
    return any(c.dep == "nsubj" and c.lower in ("i", "we") for c in said.sentence.children(head.head))


def _settled_in(said: Said) -> list[Candidate]:
    """ "We're in Bristol now, finally unpacked", "I'm in Leeds now, all settled in": where one is,
    said with having moved in, is home (not "I'm in Rome now, the hotel is lovely": a visit)."""
    clause = said.clause
    if (clause.lemma != "be" or clause.person not in ("i", "we") or not clause.asserted or clause.past
            or clause.looking_ahead):
        return []  # not asked, denied or supposed: "are we in Bristol now that we've unpacked?"
    words = said.sentence.words
    moved_in = any(w.lemma.lower() in _SETTLING for w in words) or any(
        w.lower == "new" and w.i + 1 < len(words) and words[w.i + 1].lemma.lower() in _HOMES for w in words)
    if not moved_in or any(w.lemma.lower() in _VISITING for w in words):
        return []
    for prep in children(said, clause.head, "prep"):
        where = place(said, prep, named=True) if prep.lower == "in" else None
        if where:
            return one(candidate(said, MemoryKind.FACT, "residence", f"Lives in {where}",
                                 attribute="home_city", value=where, entities=(where,)))
    return []


_SETTLING = frozenset({"unpack", "unpacked", "settle", "settled"})
_HOMES = frozenset({"place", "flat", "house", "home", "apartment", "flatshare"})
_VISITING = frozenset({"hotel", "holiday", "vacation", "trip", "visit", "conference", "hostel", "airbnb"})


def residence(said: Said) -> list[Candidate]:
    clause = said.clause
    settled = _settled_in(said) or _home_named(said)
    if settled:
        return settled
    if (clause.person not in ("i", "we") and not _theirs_unsaid(said)) or not clause.asserted:
        return []
    mover = _move_bound(said)
    if mover is not None:  # "we have to move to Sheffield in the summer": a move ahead
        return _moving(said, Said(replace(clause, head=mover), said.position, said.at, said.dated))
    lemma = clause.lemma
    target: str | None = None
    if lemma in ("move", "relocate") and not _a_thing_moved(said):
        for prep in _move_preps(said):
            if prep.lower in ("to", "into") and not _a_time(said, prep):
                # "we moved to Hackney": a household moves home; "I moved to Deloitte" may be a job
                target = place(said, prep, named=True, organisations=clause.person == "we") or target
        target = target or _home_moved_into_in(said)
        if editor_named(target):
            target = None  # "I moved to Neovim": a tool (`switch`), no home
    elif lemma in ("live", "base", "settle") and (not clause.past or clause.perfect):
        for prep in children(said, clause.head, "prep"):
            if prep.lower == "in":  # no one lives in an organisation: "Hackney" is a place, however tagged
                target = place(said, prep, named=True, organisations=True) or target
    if target is None and lemma == "live" and clause.perfect:
        return _lived_in_a_home(said)
    if target is None:
        return _moved_out(said) if lemma in ("move", "relocate") and not _a_thing_moved(said) else []
    content = said.text(drop=[*_purpose(said), *_with_named(said)])
    # "I'm living in Leeds (now)", "I'll still live in Coventry": where home is, not a move ahead
    staying = lemma in ("live", "base", "settle") and (
        (clause.head.tag == "VBG"
         and not any(a.lower in ("will", "'ll", "shall") for a in clause.children("aux")))
        or any(c.lower == "still" for c in clause.children("advmod")))
    ahead = (
        (clause.looking_ahead and not staying)
        or (lemma in ("move", "relocate") and clause.head.tag == "VBG")
        or any(d.when.moment().date() > said.at.date() for d in said.dated)
    )
    if staying and content.startswith("Will still live "):
        content = "Still lives " + content.removeprefix("Will still live ")
    elif content.startswith("Living "):  # a clause with its subject unsaid
        content = "Lives " + content.removeprefix("Living ")
    if ahead and not clause.past:
        found = candidate(
            said, MemoryKind.PLAN, "moving", content, entities=(target,), typed="where", confidence=0.8
        )
    else:
        found = candidate(
            said,
            MemoryKind.FACT,
            "residence",
            content,
            attribute="home_city",
            value=target,
            entities=(target,),
            valid_from=said.when(),
        )
    return [found] if found else []


def _home_named(said: Said) -> list[Candidate]:
    """ "Home is Knoxville, Tennessee", "my home is Cork these days": where home is, named as what
    it is (not "home was Leeds", "his home is in Cork", "the home is a bungalow")."""
    clause = said.clause
    subject = clause.subject
    if (subject is None or subject.lemma.lower() != "home" or clause.lemma != "be" or clause.past
            or not clause.asserted or any(c.lower not in ("my", "our") for c in children(said, subject))):
        return []
    attributes = children(said, clause.head, "attr")
    named = next((place(said, a, named=True, organisations=True) for a in attributes), None)
    if not named:
        return []
    return one(candidate(said, MemoryKind.FACT, "residence", f"Lives in {named}", attribute="home_city",
                         value=named, entities=(named,), valid_from=said.when()))


def _lived_in_a_home(said: Said) -> list[Candidate]:
    """ "I've lived in this house since 1978", "we've lived in our flat for ten years": the home one
    has kept that long (no city named: no slot)."""
    if not frequency(said):
        return []
    for prep in children(said, said.clause.head, "prep"):
        home = next(iter(children(said, prep, "pobj")), None)
        if prep.lower == "in" and home is not None and home.lemma.lower() in lex.HOMES and any(
                c.lower in ("this", "my", "our", "the") for c in children(said, home, "det", "poss")):
            return one(candidate(said, MemoryKind.FACT, "home", said.text(), confidence=0.75))
    return []


def _moved_out(said: Said) -> list[Candidate]:
    """ "I moved out of London last month", "we moved away from Berlin in 2020": the city they left,
    with no city named in its place ("... from a flat in Bristol to a house in the country"), is
    home no longer (that city only: "moved out of London" ends nothing where home is Leeds). A move
    ahead ("I'm moving out of London") has not happened yet."""
    preps = _move_preps(said)
    if not said.clause.past:
        return []
    left = None
    for prep in preps:
        if prep.lower == "from":
            left = place(said, prep, named=True)
        elif prep.lower == "out":
            left = next((w for p in children(said, prep, "prep") if p.lower == "of"
                         and (w := place(said, p, named=True))), None)
        if left:
            return one(candidate(said, MemoryKind.FACT, "moved_out", said.text(drop=_purpose(said)),
                                 entities=(left,), valid_from=said.when(), ends=("home_city",),
                                 ended_value=left))
    return []


def _move_bound(said: Said) -> Word | None:
    """The move one has to make: "have to move", "need to move", "are going to have to move"."""
    word: Word | None = said.clause.head
    for _ in range(3):
        if word is None or word.lemma.lower() not in ("have", "need", "go", "got"):
            return None
        word = next((x for x in children(said, word, "xcomp") if x.pos in ("VERB", "AUX")), None)
        if word is not None and word.lemma.lower() in ("move", "relocate"):
            return word
    return None


def _moving(said: Said, move: Said) -> list[Candidate]:
    """A move the person has to make, to a place named: a plan, written as they said it (one they
    had to make is a move made)."""
    if _a_thing_moved(move):
        return []
    target = next((where for prep in _move_preps(move) if prep.lower in ("to", "into")
                   and not _a_time(move, prep) and (where := place(move, prep, named=True))), None)
    if target is None:
        return []
    if said.clause.past:  # "I had to move to Leeds last year": moved, and lives there since
        return one(candidate(said, MemoryKind.FACT, "residence", said.text(), attribute="home_city",
                             value=target, entities=(target,), valid_from=said.when()))
    return one(candidate(said, MemoryKind.PLAN, "moving", said.text(), entities=(target,), typed="where",
                         confidence=0.75))


def _a_thing_moved(said: Said) -> bool:
    """ "we've moved the trip to October", "I moved the meeting to Friday": a thing moved, not the
    person (one's household, "moved my family to Leeds", still is)."""
    # "moved my mum into a care home": her move, not theirs
    return any(
        o.lower not in _OWN and o.lemma.lower() not in _HOUSEHOLD | lex.HOMES and o.pos != "PRON"
        for o in children(said, said.clause.head, "dobj")
    )


_HOUSEHOLD = frozenset({"family", "kids", "kid", "children", "stuff", "things", "home", "life", "everything"})


def _a_time(said: Said, prep: Word) -> bool:
    """ "to October", "to next week": a time, which no small model's guess makes a place."""
    return any(w.ent in ("DATE", "TIME") for w in said.sentence.subtree(prep.i) if w.i != prep.i)


# "moved back to Swindon", "moved over to Olsztyn": the parser hangs the "to" on the adverb.
_MOVED_HOW = frozenset({"back", "home", "over", "out", "away", "here", "there"})


def _move_preps(said: Said) -> list[Word]:
    head = said.clause.head
    hows = [a for a in children(said, head, "advmod") if a.lower in _MOVED_HOW]
    return [*children(said, head, "prep"), *(p for a in hows for p in children(said, a, "prep"))]


_OWN = frozenset({"i", "me", "my", "myself", "we", "us", "our"})


def _with_named(said: Said) -> list[int]:
    """ "I live in Gothenburg with my husband Erik and our rabbit Kanel": the ones named are each a
    memory of their own; where one lives is one more ("with my parents", named by no one, stays)."""
    sentence = said.sentence
    return [w.i for p in children(said, said.clause.head, "prep") if p.lower == "with"
            and any(w.pos == "PROPN" or w.dep in ("appos", "conj") and w.text[:1].isupper()
                    for w in sentence.subtree(p.i) if w.i != p.i)
            for w in sentence.subtree(p.i)]


def _purpose(said: Said) -> list[int]:
    """ "... to care for her": why one moved, about someone the memory cannot name; the part
    about them is cut, and what is left reads "moved to Swindon to care" (one about the person
    stays: "to be near my son")."""
    sentence = said.sentence
    return [
        w.i
        for c in children(said, said.clause.head, "advcl", "xcomp")
        if any(a.lower == "to" and a.dep == "aux" for a in sentence.children(c.i))
        and any(w.pos == "PRON" and w.lower not in _OWN for w in sentence.subtree(c.i))
        for w in sentence.subtree(c.i)
    ]


def _home_moved_into_in(said: Said) -> str | None:
    """ "I moved back into my old flat in Olsztyn": the city said of the move into a home, which
    can only be a place, whatever the parser took the name for."""
    preps = _move_preps(said)
    homes = [o for p in preps if p.lower == "into" for o in children(said, p, "pobj")]
    homes = [o for o in homes if o.lemma.lower() in lex.HOMES]
    if not homes:
        return None
    ins = [p for p in [*preps, *(q for h in homes for q in children(said, h, "prep"))]
           if p.lower == "in" and not _a_time(said, p)]  # "in June": when, not where
    return next((where for p in ins if (where := place(said, p) or _proper_name(said, p))), None)




# Where one is from is not where one lives ("from Taichung, studying in Melbourne"): no home_city.
_ORIGIN_VERBS = {"be": "from", "come": "from", "grow": "in", "bear": "in", "raise": "in"}
# "I'm back from Rome", "I'm just home from Lisbon": a trip, not where one comes from.
_RETURNED = frozenset({"back", "home", "away", "fresh", "straight", "just", "returning"})


def origin(said: Said) -> list[Candidate]:
    """ "I'm from Taichung", "I'm originally from Cork", "I come from Lagos", "I grew up in Ames",
    "I was born in Porto": where the person comes from, a named place only."""
    clause = said.clause
    prep_word = _ORIGIN_VERBS.get(clause.lemma)
    if clause.person != "i" or not clause.asserted or prep_word is None:
        return []
    if clause.lemma == "grow" and not children(said, clause.head, "prt"):
        return []  # "I grew in confidence"
    if clause.lemma in ("bear", "raise") and clause.head.tag != "VBN":
        return []
    if clause.lemma in ("be", "come") and clause.past:
        return []  # "I was from ...": a trip, a team, a time; "I came from the gym"
    if any(w.lower in _RETURNED for w in said.sentence.children(clause.head.i)):
        return []
    for prep in children(said, clause.head, "prep"):
        if prep.lower == prep_word:
            where = place(said, prep, named=True)
            if where is not None:
                return one(candidate(said, MemoryKind.FACT, "origin", said.text(), entities=(where,)))
    return []


def work(said: Said) -> list[Candidate]:
    clause = said.clause
    if (
        clause.person != "i"
        or not clause.asserted
        or clause.lemma not in ("work", "join", "start", "drive", "teach", "intern", "volunteer")
    ):
        return []
    # "I've started touring with a band", "I started running with Tom": something begun, no job
    begun = clause.lemma in ("join", "start") and any(
        x.pos == "VERB" and x.lemma.lower() not in _WORKING for x in children(said, clause.head, "xcomp"))
    found: list[Candidate | None] = []
    preps = children(said, clause.head, "prep")
    # "working like a cook": "as", as a learner of English may say it, when a job follows
    role = next((p for p in preps if p.lower == "as" or (p.lower == "like" and any(
        lex.an_occupation(o.lemma) for o in children(said, p, "pobj")))), None)
    inside = clause_words(clause)
    where = next(
        (p for by in (("at", "for"), ("with",)) for p in inside
         if p.dep == "prep" and p.lower in by and organisation(said, p)),
        None,
    ) or next((p for p in preps if p.lower in ("at", "for", "with")), None)
    if begun:
        where = where or next((p for p in inside if p.dep == "prep" and p.lower in ("at", "for", "with")),
                              None)
    if where is not None and (begun or _with_someone(said, where)):
        # "I work with Tom", "started a running group with Anna": said as it was, with no employer
        return one(candidate(said, MemoryKind.FACT, "work", said.text(), valid_from=said.when()))
    if begun:
        return []
    if (
        clause.lemma == "work"
        and any(p.lower == "on" for p in preps)
        and not clause.past
        and clause.head.tag == "VBG"
    ):
        project = next(p for p in preps if p.lower == "on")
        if names_a_thing(said, said.sentence.subtree(project.i)):
            return one(candidate(said, MemoryKind.FACT, "project", said.text(), confidence=0.75))
    if clause.lemma == "join" and (objects := children(said, clause.head, "dobj")):
        where = objects[0]
    employer = organisation(said, where) if where is not None else None
    employer = _without_the(employer) if employer else employer
    placed = employer is not None and where is not None and _only_a_place(said, where, employer)
    if placed:
        employer = None  # "for a startup in Berlin": Berlin is where the startup is, not who employs
    if (
        clause.lemma in ("join", "start")
        and where is not None
        and where.dep == "dobj"
        and where.pos != "PROPN"
    ):
        employer = None  # "joined a climbing club", "joined an LGBTQ group": not an employer
    if clause.lemma in ("join", "start") and where is not None and where.dep == "prep":
        noun = next((w for w in said.sentence.children(where.i) if w.dep == "pobj"), None)
        if noun is not None and noun.pos != "PROPN":
            employer = None
    if employer and clause.lemma in ("join", "start") and not clause.past:
        return []
    # "I work as a nurse", "I've just started as a junior dev at Monzo", "I joined Acme as an analyst"
    if role is not None and (clause.lemma == "work" or (clause.lemma in ("start", "join") and clause.past)):
        title_words = [w for w in said.sentence.subtree(role.i) if w.i != role.i]
        title_words = _noun_phrase(said, title_words)
        if title_words:
            title = joined([w for w in title_words if w.dep not in ("det", "poss")])
            # the workplace goes to its own memory when it names the employer, else stays here
            away = [w.i for w in said.sentence.subtree(where.i)] if where is not None and employer else []
            whole = said.text(drop=away)
            if role.lower == "like":  # written as meant
                whole = re.sub(r"\blike (an?|the)\b", r"as \1", whole, count=1)
            found.append(candidate(said, MemoryKind.FACT, "job", whole, attribute="job_title", value=title,
                                   valid_from=said.when() if clause.lemma != "work" else None))
    if employer:
        verb = {
            "work": "Works at",
            "join": "Joined",
            "start": "Started at",
            "drive": "Works for",
            "teach": "Teaches at",
            "intern": "Interns at",
            "volunteer": "Volunteers at",
        }[clause.lemma]
        text = f"{verb} {employer}" if found or clause.lemma != "work" else said.text()
        if clause.lemma in ("join", "start"):
            text = said.text()
        found.append(
            candidate(
                said,
                MemoryKind.FACT,
                "employer",
                text,
                attribute="employer",
                value=employer,
                entities=(employer,),
                valid_from=said.when(),
            )
        )
    elif not found and clause.lemma == "work" and (
        (where is not None and (frequency(said) or placed))
        or any(a_workplace(said, p) for p in preps)
        or (not clause.past and _remote(said) and said.when(past_only=False) is None)  # not "today"
    ):
        found.append(candidate(said, MemoryKind.FACT, "work", said.text()))
    return [f for f in found if f] + (_home_said_here(said) or home_of_work(said, found))


_WORKING = frozenset({"work", "teach", "intern", "volunteer"})


def in_a_field(said: Said) -> list[Candidate]:
    """ "I'm in sales, mostly cars", "I'm in IT": the field one works in, said with "be" (not "I'm
    in Paris", "I'm in pain", "I'm in a sales meeting", "I was in sales once")."""
    clause = said.clause
    if clause.person != "i" or not clause.asserted or clause.lemma != "be" or clause.past or clause.perfect:
        return []
    if children(said, clause.head, "attr", "acomp"):
        return []
    for prep in children(said, clause.head, "prep"):
        place = next(iter(children(said, prep, "pobj")), None)
        if prep.lower != "in" or place is None or children(said, place, "det", "poss", "compound", "amod"):
            continue
        if place.lower in lex.FIELDS or place.lemma.lower() in lex.FIELDS or place.text in _FIELDS_BY_LETTERS:
            return one(candidate(said, MemoryKind.FACT, "field", f"Works in {place.text}", confidence=0.8))
    return []


def _with_someone(said: Said, prep: Word) -> bool:
    """ "I work with Tom", "... with my friend Sam": a person one works beside, not an employer."""
    if prep.lower != "with":
        return False
    under = [w for w in said.sentence.subtree(prep.i) if w.i != prep.i]
    return any(
        w.ent == "PERSON" or w.text in said.known or w.pos == "PRON"
        or (w.dep == "pobj" and (w.lemma.lower() in lex.OWN_PEOPLE | lex.CASUAL
                                 or any(c.dep == "poss" for c in said.sentence.children(w.i))))
        for w in under
    ) or (bool(under) and all(w.pos == "PROPN" for w in under if w.dep == "pobj")
          and not any(w.ent for w in under))  # a bare name no one took for a company: "with Efua"


def _with_an_organisation(said: Said, prep: Word) -> bool:
    """ "a nurse with the NHS", "a hydrogeologist with Kalahari Water Surveys": the organisation one
    is a job "with" employs one (not "a teacher with two kids", "a nurse with Tom", "with a
    charity")."""
    if prep.lower != "with" or _with_someone(said, prep):
        return False
    inside = {w.i for w in said.sentence.subtree(prep.i)}
    return any(kind == "ORG" and words[0].i in inside for kind, words in said.sentence.entities())


def _without_the(name: str) -> str:
    """ "the University Hospital of Wales" is named "University Hospital of Wales" ("The Guardian" is
    named so)."""
    return name[4:] if name.startswith("the ") and len(name) > 4 else name


def a_workplace(said: Said, prep: Word) -> bool:
    """ "I work at a bakery", "I work in a hospital", "I work in finance": where one works now,
    unnamed (not "I worked at a bakery once", not "I work at my desk", not "at night")."""
    clause = said.clause
    if clause.past and not clause.perfect:
        return False
    place = next((w for w in said.sentence.children(prep.i) if w.dep == "pobj"), None)
    if place is None:
        return False
    # a field written as its letters, alone or before what one does in it: "in IT", "in IT support"
    named = [w for w in (place, *said.sentence.children(place.i)) if w.i <= place.i
             and (w is place or w.dep == "compound")]
    if prep.lower == "in" and any(w.text in _FIELDS_BY_LETTERS for w in named):
        return True
    if place.pos != "NOUN":
        return False
    kind = place.lemma.lower()
    return (prep.lower in ("at", "in", "for") and kind in lex.WORKPLACES) or (
        prep.lower == "in" and (kind in lex.FIELDS or place.lower in lex.FIELDS))


_FIELDS_BY_LETTERS = frozenset({"IT", "HR", "PR", "QA", "UX", "R&D", "ICT"})


def _home_said_here(said: Said) -> list[Candidate]:
    """ "I'm a nurse at a clinic here in Swindon", "I work as a cook here in Olsztyn": where one works
    is not always where one lives, but "here in" is where the person is as they say it."""
    for prep in _here_in(said):
        where = place(said, prep) or _proper_name(said, prep)
        if where is not None:
            return one(lives_in(said, "home_here", where))
    return []


def _where_prep(said: Said, word: Word) -> str | None:
    """The preposition a name hangs on ("in" of "in Leeds"), if any."""
    prep = next((a for a in said.sentence.ancestors(word.i) if a.dep == "prep"), None)
    return prep.lower if prep is not None else None


def home_of_work(said: Said, found: Sequence[Candidate | None]) -> list[Candidate]:
    """ "I'm a junior accountant at a firm in Dublin", "a UX designer at Spotify in Stockholm": the
    city one works in now is, most often, the one they live in. Kept as an inference (not
    asserted): it never replaces a home city the person said themselves, and one they say later
    replaces it."""
    clause = said.clause
    if not any(found) or (clause.past and not _still(said)) or not clause.asserted:
        return []
    city = _city_of_work(said)
    made = lives_in(said, "home_of_work", city, confidence=0.6) if city else None
    return [made.model_copy(update={"asserted": False})] if made else []


def _city_of_work(said: Said) -> str | None:
    """The one city a clause of work names with "in" ("a UX designer at Spotify in Stockholm"); none
    where two places are said ("a nurse in Leeds, commuting from York")."""
    clause = said.clause
    inside = {w.i for w in clause_words(clause)}
    sentence = said.sentence
    # a place the model calls a location is one too, when written as a name ("Cape Town")
    places = [words for kind, words in sentence.entities()
              if kind == "GPE" or (kind == "LOC" and all(w.pos == "PROPN" for w in words))]
    # "in Santiago, Chile", "in Austin, Texas": the city, and where it is
    places = [words for n, words in enumerate(places)
              if not (n > 0 and words[0].i == places[n - 1][-1].i + 2
                      and sentence.words[words[0].i - 1].text == ",")]
    # "at a café in Fitzroy, in Melbourne": the part of the city, then the city
    places = [words for n, words in enumerate(places)
              if not (n + 1 < len(places) and places[n + 1][0].i == words[-1].i + 3
                      and [w.lower for w in sentence.words[words[-1].i + 1:words[-1].i + 3]] == [",", "in"])]
    elsewhere = [words for words in places if _where_prep(said, words[0]) in ("in", "from", "near", "to")]
    if len(elsewhere) > 1:
        return None  # "a nurse in Leeds, commuting from York": which is home is not said ("at Spotify": none)
    cities = {
        joined(words)
        for words in places
        if words[0].i in inside
        and any(a.lower == "in" and a.dep == "prep" for a in said.sentence.ancestors(words[0].i))
    }
    # none, or two ("in Leeds, commuting from York"): no guess
    return cities.pop() if len(cities) == 1 else None


def lives_in(said: Said, rule: str, city: str, confidence: float = 0.9) -> Candidate | None:
    """ "Lives in <city>", the home city's slot filled: where a reply or a job said "here in" puts
    the person, with no verb of living to render."""
    return candidate(said, MemoryKind.FACT, rule, f"Lives in {city}", attribute="home_city", value=city,
                     entities=(city,), confidence=confidence)


def _here_in(said: Said) -> list[Word]:
    """The "in" of the clause's "here in ...", if it has one."""
    return [
        prep
        for word in said.sentence.subtree(said.clause.head.i)
        if word.lower == "here" and not _in_another_clause(said, word)
        for prep in children(said, word, "prep")
        if prep.lower == "in"
    ]


def _proper_name(said: Said, under: Word) -> str | None:
    """A short proper name under a word, whatever the parser took it for: after "here in" it can
    only be a place (a small model often takes a city for an organisation)."""
    proper = [w for w in said.sentence.subtree(under.i) if w.pos == "PROPN"]
    return joined(proper) if 0 < len(proper) <= 3 else None


def _in_another_clause(said: Said, word: Word) -> bool:
    """Whether a word of the clause's subtree belongs to a clause of its own hung on it ("I'm a
    nurse and my mum lives here")."""
    for above in said.sentence.ancestors(word.i):
        if above.i == said.clause.head.i:
            return False
        if above.pos in ("VERB", "AUX"):
            return True
    return False


def _only_a_place(said: Said, where: Word, employer: str) -> bool:
    """Whether the employer found under "at/for/with" is only the place of what the person works
    for, a thing named by a common noun ("a startup in Berlin", "a bank here in Lagos")."""
    head = next(iter(children(said, where, "pobj")), None)
    if head is None or head.pos == "PROPN":
        return False
    # "a secondary school in Valencia": a name after "in" on the common noun is where it is, however
    # the small model tags it (here a person)
    placed = {w.text for p in children(said, head, "prep") if p.lower in ("in", "near", "outside")
              for w in said.sentence.subtree(p.i) if w.pos == "PROPN"}
    if placed and set(employer.split()) <= placed:
        return True
    return any(
        kind in ("GPE", "LOC") and joined(words).rstrip(".") == employer and words[0].i > head.i
        for kind, words in said.sentence.entities()
    )


def _remote(said: Said) -> bool:
    """ "I work from home", "I work remotely"."""
    head = said.clause.head
    if any(w.lower in ("remotely", "remote") for w in children(said, head, "advmod", "acomp")):
        return True
    return any(
        p.lower == "from" and any(o.lower == "home" for o in said.sentence.subtree(p.i))
        for p in children(said, head, "prep")
    )


def _noun_phrase(said: Said, words: Sequence[Word]) -> list[Word]:
    """The head noun with what is bound to it (its adjectives, compounds), without what follows
    it ("a night nurse at Denver Health" -> "a night nurse")."""
    nouns = [w for w in words if w.pos in ("NOUN", "PROPN") and w.dep == "pobj"] or [
        w for w in words if w.pos in ("NOUN", "PROPN")
    ]
    if not nouns:
        return []
    head = nouns[0]
    bound = [
        w
        for w in words
        if w.i <= head.i and (w.head == head.i or w.i == head.i or said.sentence.words[w.head].head == head.i)
    ]
    return bound


def _an_age(number: str) -> bool:
    return number.isdigit() and 1 <= int(number) <= 110


def years_had(said: Said) -> list[Candidate]:
    """ "I have 34 years": one's age, as Spanish, French, Italian or Portuguese say it ("tengo 34
    años") and their speakers carry into English — the years alone, nothing they are of, left or
    spent on ("I have 10 years of experience", "I have 2 years left", "I have 5 years in the job")."""
    clause = said.clause
    if clause.person != "i" or clause.lemma != "have" or not clause.asserted or clause.past or clause.perfect:
        return []
    years = children(said, clause.head, "dobj")
    if len(years) != 1 or years[0].lower != "years" or any(
            c.dep != "nummod" for c in children(said, years[0])):
        return []
    count = children(said, years[0], "nummod")
    # one who chats of themselves is no child ("I have 3 years": of what?)
    if len(count) != 1 or not _an_age(count[0].text) or int(count[0].text) < 12 or any(
            w.dep in ("prep", "advmod", "acomp", "xcomp", "ccomp", "advcl", "npadvmod") and w.lower != "and"
            for w in children(said, clause.head)):
        return []
    return one(candidate(said, MemoryKind.FACT, "age", f"Is {count[0].text} years old", confidence=0.75))


def copula(said: Said) -> list[Candidate]:
    """ "I'm a nurse", "I'm vegan", "I'm allergic to cats", "I'm 58", "I'm in my second year"."""
    clause = said.clause
    if clause.person != "i" or clause.lemma != "be" or not clause.asserted:
        return []
    if clause.past and not _still(said):
        return []
    listed = _listed_complements(said)
    if listed:  # "I'm 34 and a nurse": two things one is, two memories
        found: list[Candidate] = []
        for part in listed:
            found += _complement(replace(said, drop=_all_but(said, part, listed)), [part])
        return found
    return _complement(said, children(said, clause.head, "attr", "acomp"))


def _listed_complements(said: Said) -> list[Word]:
    """ "34 and a nurse", "40, a teacher": an age and a job, listed (not "a nurse and proud of it",
    "a fan of Bach as well as modern music", which say one thing)."""
    first = next(iter(children(said, said.clause.head, "attr")), None)
    if first is None:
        return []
    listed = [first]
    while (nxt := next((c for c in children(said, listed[-1], "conj", "appos")), None)) is not None:
        listed.append(nxt)
    # "I'm 34 and a nurse": the parser may join the second to the verb
    listed += [c for c in children(said, said.clause.head, "conj")
               if c.pos in ("NOUN", "NUM") and c.i > first.i]
    jobs = [w for w in listed if w.pos == "NOUN" and lex.an_occupation(w.lemma)]
    if len(listed) < 2 or len(jobs) > 1 or not all(w.pos == "NUM" or w in jobs for w in listed):
        # "a fan of Bach as well as of modern music": one liking; "a teacher and a nurse": one
        # job slot cannot hold two, the memory stays as said
        return []
    return listed


def _all_but(said: Said, part: Word, listed: list[Word]) -> frozenset[int]:
    """The words of a clause that are not the subject, its verb or this one of what is listed."""
    sentence = said.sentence
    later = {w.i for other in listed if other.i > part.i for w in sentence.subtree(other.i)}
    own = {w.i for w in sentence.subtree(part.i)} - later
    own -= {w.i for w in sentence.words if w.i in own and w.dep in ("cc", "punct") and w.head == part.i}
    head = said.clause.head
    kept = own | {head.i} | {w.i for w in sentence.words if w.dep == "aux" and w.head == head.i}
    if said.clause.subject is not None:
        kept |= {w.i for w in sentence.subtree(said.clause.subject.i)}
    return frozenset(w.i for w in sentence.words if w.i not in kept)


# What one is at an organisation that is no work there.
_NOT_AT_WORK = frozenset({"member", "regular", "customer", "client", "patient", "guest", "fan", "visitor",
                          "tourist", "shareholder", "subscriber", "resident", "volunteer", "loss", "mess",
                          "wreck", "mum", "mom", "dad", "parent", "friend", "person", "people", "one", "lot",
                          "bit", "type"})


_ORDINAL_YEARS = frozenset({"first", "second", "third", "fourth", "fifth", "final", "last", "1st", "2nd",
                            "3rd", "4th", "5th"})


def _without_year_of_study(said: Said, phrase: list[Word]) -> list[Word]:
    """A title without the year one is in ("a third-year PhD student": PhD student), which changes
    every year while the title stays; the memory keeps it."""
    words = said.sentence.words
    dropped: set[int] = set()
    for w in phrase:
        if w.lemma.lower() == "year" and w.i > 0:
            before = words[w.i - 1]
            if before.text == "-" and w.i > 1:
                before = words[w.i - 2]
            if before.lower in _ORDINAL_YEARS:
                dropped |= set(range(before.i, w.i + 1))
    kept = [w for w in phrase if w.i not in dropped]
    return kept if any(w.pos == "NOUN" for w in kept) else phrase


def _complement(said: Said, complements: list[Word]) -> list[Candidate]:
    clause = said.clause
    for word in complements:
        lower = lex.DIET_NAMES.get(word.lower, word.lower)
        if lower in lex.DIETS or word.lemma.lower() in lex.DIETS:
            return one(candidate(said, MemoryKind.FACT, "diet", f"Is {lower}", attribute="diet", value=lower))
        # "head of sales": a title though "head" alone is no occupation
        heads = word.lower == "head" and any(  # not "head of the family", "head of the PTA"
            p.lower == "of"
            and not any(w.dep == "det" or w.pos == "PROPN" for w in said.sentence.subtree(p.i))
            for p in children(said, word, "prep"))
        # "I'm principal of a primary school": a title said bare, read as an adjective
        bare_title = word.pos == "ADJ" and word.dep == "acomp" and word.lower in lex.OCCUPATIONS and any(
            p.lower in ("of", "at") for p in children(said, word, "prep"))
        # "I'm a paintings conservator at the National Galleries": what one is at a named
        # organisation is one's work, whatever the word (not a member, a regular, a patient there)
        at_work = word.lemma.lower() not in _NOT_AT_WORK and word.dep == "attr" and any(
            p.lower == "at" and o.pos == "PROPN" and o.text[:1].isupper() and o.ent not in ("GPE", "LOC")
            for p in [*children(said, word, "prep"), *children(said, clause.head, "prep")]
            for o in children(said, p, "pobj"))
        if (
            (word.dep in ("attr", "conj", "appos") and word.pos == "NOUN" or bare_title)
            and (lex.an_occupation(word.lemma) or heads or at_work)
            and not any(c.lower in ("fan", "bit") for c in children(said, word))
        ):
            phrase = [
                w
                for w in said.sentence.subtree(word.i)
                if w.i <= word.i and w.dep not in ("det", "poss", "predet")
            ]
            field = next((p for p in children(said, word, "prep") if p.lower in ("in", "of")), None)
            if field is not None and not any(
                w.ent in ("GPE", "LOC", "ORG", "FAC") or w.dep == "det" or w.pos == "PROPN"
                for w in said.sentence.subtree(field.i)
            ):  # a field ("in marine biology"), not a place of work ("of a small startup")
                phrase += said.sentence.subtree(field.i)  # "a PhD student in marine biology"
            title = joined(_without_year_of_study(said, phrase))
            # "a locksmith in Inverness, 68 years old": the age said beside the job
            aged = [c for c in said.sentence.subtree(word.i) if c.dep == "amod" and c.lower == "old"
                    and c.i > word.i and c.i >= 3 and said.sentence.words[c.i - 3].text == ","
                    and any(y.lemma.lower() == "year" and any(n.pos == "NUM" for n in children(said, y))
                            for y in children(said, c))]
            age = one(candidate(said, MemoryKind.FACT, "age", "Is " + joined(list(
                said.sentence.subtree(aged[0].i))))) if aged else []
            return _job_and_where(said, word, title) + age
        if word.dep in ("attr", "conj", "appos") and lower == "fan":
            return one(candidate(said, MemoryKind.PREFERENCE, "fan", said.text(), confidence=0.8))
        alone = not children(said, word)
        if word.pos == "NUM" and word.dep in ("attr", "conj", "appos") and _an_age(word.text) and alone:
            # "I'm 72 and retired now": a number said alone of oneself is one's age, and says so
            return one(candidate(said, MemoryKind.FACT, "age", f"Is {word.text} years old"))
        if (
            word.lemma.lower() in ("year", "years")
            and any(c.lower == "old" for c in children(said, word))
            or (word.pos == "NUM" and word.dep in ("attr", "conj", "appos"))
            or (word.lower == "old" and any(c.lemma.lower() == "year" for c in children(said, word)))
        ):
            return one(candidate(said, MemoryKind.FACT, "age", said.text()))
    for prep in children(said, clause.head, "prep"):
        objects = children(said, prep, "pobj")
        if (
            prep.lower == "in"
            and objects
            and objects[0].lemma.lower() in ("year", "grade", "semester")
            and any(
                w.tag == "JJ" or w.pos == "NUM" or w.ent == "ORDINAL"
                for w in said.sentence.subtree(objects[0].i)
            )
        ):
            return one(candidate(said, MemoryKind.FACT, "studies", said.text()))
        if prep.lower == "on" and objects and objects[0].lemma.lower() == "leave":
            return one(candidate(said, MemoryKind.FACT, "leave", said.text()))
        if prep.lower == "in" and objects and objects[0].lemma.lower() in _GROUPS and not clause.past and any(
                c.lower in ("a", "an", "the") for c in children(said, objects[0], "det")):
            return one(candidate(said, MemoryKind.FACT, "member", said.text(), confidence=0.8))
        liked = children(said, prep, "pobj", "pcomp")
        if prep.lower == "into" and liked and not clause.past and _a_pastime(said, liked[0]):
            return one(candidate(said, MemoryKind.PREFERENCE, "into", said.text(), confidence=0.8))
    return []


# What one is a member of: "I'm in a book club", "I'm in a band" (not "in a meeting", "in a queue").
_GROUPS = frozenset({"club", "choir", "band", "orchestra", "team", "league", "society", "squad", "troupe",
                     "ensemble"})

# What one is "into" that is a span of time or a share of something, not a liking: "into my second
# week", "into the last mile".
_NOT_PASTIMES = frozenset({"week", "month", "year", "day", "hour", "minute", "mile", "term", "semester",
                           "season", "trouble", "debt", "it", "that", "this", "them"})


def _a_pastime(said: Said, word: Word) -> bool:
    """ "I'm into bouldering", "I'm really into jazz": a thing or an activity liked."""
    if word.lemma.lower() in _NOT_PASTIMES or word.lower in _NOT_PASTIMES:
        return False
    if any(c.dep in ("poss", "nummod") or c.ent == "ORDINAL" for c in children(said, word)):
        return False  # "into my thirties", "into week 3"
    return word.pos in ("NOUN", "PROPN") or (word.tag == "VBG" and word.dep == "pcomp")


def _still(said: Said) -> bool:
    """ "I've been a nurse for ten years", "I've been vegetarian since 2019": begun in the past and
    true still — said in the perfect, with how long (not "I've been a nurse, I know")."""
    clause = said.clause
    if not clause.perfect and not (
        clause.head.tag == "VBN" and any(a.lemma == "have" and a.tag in ("VBP", "VBZ")
                                         for a in children(said, clause.head, "aux"))
    ):
        return False
    return any(
        p.lower == "since" or (p.lower == "for" and any(
            w.ent == "DATE" or w.lemma.lower() in ("year", "month") for w in said.sentence.subtree(p.i)))
        for p in said.sentence.subtree(clause.head.i) if p.dep == "prep"
    )


def standing(said: Said) -> list[Candidate]:
    """ "I'm retired", "I'm divorced", "I'm self-employed", "I'm engaged to Tom": where the person
    stands in life, now (the parser reads some as adjectives, some as passives)."""
    clause = said.clause
    if clause.person != "i" or not clause.asserted or clause.past:
        return []
    head = clause.head
    if head.tag == "VBN" and any(c.lemma == "be" for c in children(said, head, "auxpass")):
        word = head
    elif clause.lemma == "be":
        complements = children(said, head, "acomp")
        if not complements or any(c.pos == "VERB" for c in children(said, head, "advcl", "xcomp", "ccomp")):
            return []  # "I'm single handedly running this": the adjective is not a state
        word = complements[-1]  # "semi - retired": three complements, the last one the word
    else:
        return []
    words = said.sentence.words
    hyphened = word.i >= 2 and words[word.i - 1].text == "-"  # "self-employed", "semi-retired"
    state = (f"{words[word.i - 2].lower}-" if hyphened else "") + word.lower
    typed_apart = word.i >= 1 and words[word.i - 1].lower in ("self", "semi")  # "self employed"
    if typed_apart:
        state = f"{words[word.i - 1].lower}-{word.lower}"
    if state not in lex.LIFE_STATES:
        return []
    if typed_apart:
        return one(candidate(said, MemoryKind.FACT, "standing", f"Is {state}"))
    preps = children(said, word, "prep")
    if state in ("engaged", "single") and any(p.lower != "to" for p in preps):
        return []  # "engaged in a project"
    if state == "separated" and preps and not any(
        o.lower in lex.PARTNERS for p in preps for o in children(said, p, "pobj")
    ):
        return []  # "separated from the group"
    return one(candidate(said, MemoryKind.FACT, "standing", said.text()))


def _job_and_where(said: Said, job: Word, title: str) -> list[Candidate]:
    """ "I'm a nurse at Denver Health in Boston": the job, and the employer as its own memory; the
    city stays with the job (where one works need not be where one lives: no home is guessed).
    A student's university is no employer."""
    sentence = said.sentence
    preps = [
        p for p in [*children(said, job, "prep"), *children(said, said.clause.head, "prep")] if p.i > job.i
    ]
    preps += [q for p in preps for o in children(said, p, "pobj") for q in children(said, o, "prep")]
    employer_prep = next((p for p in preps if p.lower in ("at", "for") or _with_an_organisation(said, p)),
                         None)
    if job.lemma.lower() in ("student", "undergrad", "undergraduate", "pupil", "trainee"):
        employer_prep = None
    employer = None
    nested: set[int] = set()
    if employer_prep is not None:
        nested = {
            w.i for q in [*preps, *_here_in(said)] if q is not employer_prep for w in sentence.subtree(q.i)
        }
        own = {w.i for w in sentence.subtree(employer_prep.i)} - nested
        named = [(k, ws) for k, ws in sentence.entities() if k in ("ORG", "FAC", "PERSON") and ws[0].i in own]
        # "at Spotify in Stockholm": what one works at, beside the city, is no city (a small parser
        # often takes a company for one)
        proper = [
            w
            for w in sentence.words
            if w.i in own and w.pos == "PROPN" and (w.ent not in ("GPE", "LOC") or nested)
        ]
        employer = (
            joined(named[0][1]).rstrip(".") if named else (joined(proper) if 0 < len(proper) <= 4 else None)
        )
        # "the University Hospital of Wales": the name goes whole, its "of Wales" with it
        nested -= {w.i for w in named[0][1]} if named else set()
    drop = (
        [w.i for w in sentence.subtree(employer_prep.i) if w.i not in nested]
        if employer and employer_prep is not None
        else []
    )
    text = said.text(drop=drop)
    if text.startswith(f"Is {title}") and not children(said, job, "det", "poss") and job.tag == "NN":
        # "I am piano tuner": a learner of English leaves the article out
        text = f"Is {'an' if title[:1] in 'aeiou' else 'a'} {text[3:]}"
    found = [candidate(said, MemoryKind.FACT, "job", text, attribute="job_title", value=title)]
    if employer:
        found.append(
            candidate(
                said,
                MemoryKind.FACT,
                "employer",
                # "an actuary at Travelers in Hartford": where the employer is, with it
                f"Works at {employer}" + (
                    f" in {city}" if (city := _city_of_work(said)) and city not in employer else ""),
                attribute="employer",
                value=_without_the(employer),
                entities=(_without_the(employer),),
            )
        )
    return [f for f in found if f] + (_home_said_here(said) or home_of_work(said, found))


def favourite(said: Said) -> list[Candidate]:
    """ "My favourite food is ramen"."""
    clause = said.clause
    subject = clause.subject
    if clause.person != "my" or subject is None or clause.lemma != "be" or not clause.asserted:
        return []
    if not any(c.lower in ("favourite", "favorite") for c in children(said, subject)):
        return []
    value_word = next(iter(children(said, clause.head, "attr", "acomp")), None)
    if value_word is None:
        return []
    predicate = [w for w in clause_words(clause) if w.i > clause.head.i and w.dep != "det"]
    value = joined(predicate).strip(" ,.!")
    if not value:
        return []
    thing = subject.lemma.lower()
    slot = canonical_slot(f"favorite_{thing}")
    subject_words = [w for w in said.sentence.subtree(subject.i) if w.lower != "my"]
    words = sorted({*subject_words, *clause_words(clause)}, key=lambda w: w.i)
    return one(
        candidate(
            said, MemoryKind.PREFERENCE, "favourite", said.text(words=words), attribute=slot, value=value
        )
    )


EDITORS = (
    "VS Code",
    "VSCode",
    "Visual Studio Code",
    "Vim",
    "Neovim",
    "Emacs",
    "Sublime Text",
    "Sublime",
    "IntelliJ",
    "PyCharm",
    "WebStorm",
    "Zed",
    "Cursor",
    "Helix",
    "Atom",
    "Nano",
    "Kate",
    "Xcode",
)


def editor_named(name: str | None) -> str | None:
    """The editor a name starts with ("Neovim 0.10": Neovim), or None."""
    return next((e for e in EDITORS if name and name.lower().startswith(e.lower())), None)


def switch(said: Said) -> list[Candidate]:
    """ "I switched to Neovim": a tool or habit changed (an editor fills its slot)."""
    clause = said.clause
    if (
        clause.person != "i"
        or not clause.asserted
        or clause.lemma not in ("switch", "change", "move", "convert")
    ):
        return []
    to = next((p for p in children(said, clause.head, "prep") if p.lower == "to"), None)
    if to is None:  # "switched to oat milk", its "to" read as the noun's: the object is what one moved to
        to = next((o for o in children(said, clause.head, "dobj")
                   if said.sentence.subtree(o.i)[0].lower == "to"), None)
    if to is None:
        return []
    target = [w for w in said.sentence.subtree(to.i) if w.pos == "PROPN"]
    if not target:
        # A thing, not a name ("switched to decaf", "changed to the night shift"): the memory is
        # the change as said, without an entity to name.
        if clause.lemma in ("switch", "change") and names_a_thing(
            said, [w for w in said.sentence.subtree(to.i) if w.lower != "to"]
        ):
            return one(candidate(said, MemoryKind.PREFERENCE, "switch", said.text(), valid_from=said.when()))
        return []
    name = joined(target)
    editor = editor_named(name)
    if clause.lemma == "move" and editor is None:
        return []  # "I've moved to Hackney" is a home, "I moved to Deloitte" a job: no tool changed
    return one(
        candidate(
            said,
            MemoryKind.PREFERENCE,
            "switch",
            said.text(),
            attribute="editor" if editor else None,
            value=editor,
            entities=(editor or name,),
            typed="software" if editor else None,
            relation="uses" if editor else None,
            valid_from=said.when(),
        )
    )
