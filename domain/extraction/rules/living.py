"""How the person lives: habits, health, household, what they do without."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.clauses import able_only, is_noise
from domain.extraction.render import clause_words, in_a_list
from domain.extraction.rules.identity import a_workplace, editor_named, home_of_work
from domain.extraction.rules.people import theirs
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    frequency,
    names_a_thing,
    one,
    place,
)
from domain.extraction.times import resolve_phrase
from domain.model import MemoryKind
from domain.text.parse import Word, joined

# --- how they live -------------------------------------------------------------------------------------

# What one runs, owns or manages that says what one does: "I run a small bakery in Leeds".
_BUSINESSES = lex.words("""
bakery shop business company restaurant cafe café farm store studio clinic practice firm agency salon
bar pub garage startup charity school nursery hotel b&b gallery team department
""")
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


# What one studies for, "doing" it: "I'm doing a PhD in chemistry", "doing a masters part-time".
_COURSES = frozenset({"phd", "masters", "master's", "master", "degree", "doctorate", "mba", "diploma",
                      "apprenticeship", "course", "msc", "ma", "ba", "bsc", "llb", "pgce", "a-levels",
                      "gcses", "certificate", "bootcamp"})


def _learnt(said: Said) -> bool:
    """What is being learnt is named: a thing ("Welsh", "the piano") or a skill by its verb ("to
    code", "to drive")."""
    head = said.clause.head
    objects = children(said, head, "dobj")
    if objects:
        return names_a_thing(said, said.sentence.subtree(objects[0].i))
    return any(x.pos == "VERB" and children(said, x, "aux") for x in children(said, head, "xcomp"))


def _dated_inside(said: Said) -> bool:
    """Whether the clause itself names a time (not another clause of its sentence)."""
    inside = {w.i for w in clause_words(said.clause)}
    return any(d.first in inside or d.first + 1 in inside for d in said.dated)


def habit(said: Said) -> list[Candidate]:
    clause = said.clause
    lemma = clause.lemma
    if clause.person != "i" or not clause.asserted:
        return []
    if (
        lemma in ("learn", "study")
        and clause.head.tag == "VBG"
        # "I'm learning Welsh"; "I've been learning Spanish for a year": begun, going on still
        and ((clause.looking_ahead and not _dated_inside(said)) or clause.perfect)
        and _learnt(said)
    ):
        return one(candidate(said, MemoryKind.FACT, "learning", said.text(), confidence=0.8))
    if lemma == "study" and clause.head.tag == "VBD" and not clause.perfect and any(
            names_a_thing(said, [o]) and not children(said, o, "det", "poss")
            for o in children(said, clause.head, "dobj")):
        # "I studied film", "studied law in Lyon": a field of study, not "studied the map"
        aside = [w.i for a in children(said, clause.head, "advcl") if a.tag == "VBG"
                 for w in said.sentence.subtree(a.i)]  # ", trying to get into editing": a clause of its own
        return one(candidate(said, MemoryKind.FACT, "studied", said.text(drop=aside), valid_from=said.when(),
                             confidence=0.75))
    learning = [x for x in children(said, clause.head, "xcomp")
                if x.lemma.lower() in ("learn", "study") and x.tag == "VBG"]
    if lemma in ("start", "begin") and learning and (clause.past or clause.perfect) and _learnt(
            Said(replace(clause, head=learning[0]), said.position, said.at, said.dated)):
        # "I've just started learning the guitar", "I started learning Welsh in January"
        return one(candidate(said, MemoryKind.FACT, "learning", said.text(), valid_from=said.when(),
                             confidence=0.8))
    if lemma == "do" and clause.looking_ahead and clause.head.tag == "VBG" and any(
            o.lemma.lower() in _COURSES or o.lower in _COURSES for o in children(said, clause.head, "dobj")):
        return one(candidate(said, MemoryKind.FACT, "studies", said.text(), confidence=0.8))  # "a PhD in ..."
    if lemma == "use" and clause.head.tag in ("VBD",) and children(said, clause.head, "xcomp"):
        return one(candidate(said, MemoryKind.FACT, "used_to", said.text(), confidence=0.75))
    taken_up = _taken_up(said) or _given_up(said)
    if taken_up:
        return taken_up
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
    if lemma == "support" and clause.head.tag in ("VBP", "VBZ") and any(
            o.text[:1].isupper() and (o.pos == "PROPN" or o.ent in ("ORG", "NORP")) and o.ent != "PERSON"
            for o in children(said, clause.head, "dobj")):
        # "I support Celtic": a team (or a party) the person is for
        return one(candidate(said, MemoryKind.PREFERENCE, "fan", said.text(), confidence=0.8))
    if lemma in lex.TOOLS and (objects := children(said, clause.head, "dobj")):
        if not names_a_thing(said, clause_words(clause)) or objects[0].lemma.lower() in lex.BODY_PARTS | {
            "hand"
        }:
            return []
        if objects[0].pos == "PRON" or any(w.lower in ("mine", "yours", "theirs", "ours", "hers", "his")
                                           for w in said.sentence.subtree(objects[0].i)):
            return []  # "I've used most of mine already": no thing named
        if clause.perfect and any(
                p.lower == "for" and any(w.ent == "DATE" for w in said.sentence.subtree(p.i))
                for p in children(said, clause.head, "prep")):
            # "I've used snus for 20 years": a habit of long standing, not a tool they prefer
            return one(candidate(said, MemoryKind.FACT, "habit", said.text(), confidence=0.75))
        aid = objects[0].lemma.lower() in lex.AIDS or "-".join(
            w.lower for w in said.sentence.subtree(objects[0].i) if w.dep not in ("det", "poss")) in lex.AIDS
        if aid and not clause.past:  # "I use a wheelchair", "I use hearing aids": how their body gets by
            return one(candidate(said, MemoryKind.HEALTH, "aid", said.text(), confidence=0.8))
        used = joined([w for w in said.sentence.subtree(objects[0].i) if w.pos == "PROPN"])
        editor = editor_named(used)
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
    if lemma in ("run", "own", "manage", "co-own", "head") and any(
        o.lemma.lower() in _BUSINESSES for o in children(said, clause.head, "dobj")
    ):
        made = one(candidate(said, MemoryKind.FACT, "business", said.text(), confidence=0.85))
        return made + home_of_work(said, made)  # "I manage a restaurant in Phoenix"
    if lemma not in lex.HABITS and not (lemma in ("deal", "struggle", "suffer", "live") and _condition(said)):
        return []
    steady = (
        frequency(said)
        or (lemma in _DEFINING and children(said, clause.head, "dobj"))
        or _condition(said)
        or _changed_to(said)
    )
    if not steady or not names_a_thing(said, [w for w in clause_words(clause) if w.i > clause.head.i]):
        return []
    made = one(candidate(said, MemoryKind.FACT, "habit", said.text(), confidence=0.75))
    # "I teach chemistry at a secondary school in Valparaíso": done at a workplace, in a city
    working = any(a_workplace(said, p) for p in children(said, clause.head, "prep"))
    return made + (home_of_work(said, made) if working else [])


def _taken_up(said: Said) -> list[Candidate]:
    """A habit begun: "I've started walking to work instead of getting the bus", "I started
    swimming twice a week in January" — begun lately or said with how often, so a way of living
    now, not one occasion ("I started cooking dinner": begun once, tonight)."""
    clause, sentence = said.clause, said.sentence
    if clause.lemma == "take" and not clause.looking_ahead and (clause.past or clause.perfect):
        return _took_up(said)
    if clause.lemma not in ("start", "begin") or clause.looking_ahead:
        return []
    doing = [x for x in children(said, clause.head, "xcomp")
             if x.tag == "VBG" and x.lemma.lower() in lex.HABITS]
    # "I started yoga in January": a pastime named as a thing, begun (not "started the piano piece")
    begun = [o for o in children(said, clause.head, "dobj") if (o.lower in lex.PASTIMES or o.lemma.lower()
             in lex.PASTIMES) and not children(said, o, "det", "poss", "compound")]
    if begun and not doing and (clause.past or clause.perfect):
        return one(candidate(said, MemoryKind.FACT, "habit", said.text(), confidence=0.75,
                             valid_from=said.when()))
    if not doing:
        return []
    steady = frequency(said) or _instead(said)
    if not (steady or (clause.perfect and any(w.lower in ("now", "recently", "lately")
                                              for w in sentence.subtree(clause.head.i)))
            or ((clause.past or clause.perfect) and _a_pastime(said, doing[0]))):
        return []
    return one(candidate(said, MemoryKind.FACT, "habit", said.text(), confidence=0.75,
                         valid_from=said.when()))


def _medicine_stopped(said: Said) -> list[Candidate]:
    """ "I stopped taking omeprazole last month", "I've stopped the omeprazole", "I came off
    sertraline in March": a medicine no longer taken (not "I'll stop taking it", "she stopped her
    pills")."""
    clause = said.clause
    head = clause.head
    if clause.person != "i" or not (clause.past or clause.perfect) or clause.looking_ahead:
        return []
    taken: list[Word] = []
    if clause.lemma in ("stop", "quit"):
        taken = [o for x in [head, *(x for x in children(said, head, "xcomp") if x.lemma.lower() == "take")]
                 for o in children(said, x, "dobj") if is_medicine(o, said)]
    elif clause.lemma == "come" and any(p.lower == "off" for p in children(said, head, "prt", "prep")):
        taken = [o for p in children(said, head, "prt", "prep") if p.lower == "off"
                 for o in [*children(said, p, "pobj"), *children(said, head, "dobj")] if is_medicine(o, said)]
    if not taken or any(c.dep == "poss" and c.lower != "my" for c in children(said, taken[0])):
        return []
    name = joined([w for w in said.sentence.subtree(taken[0].i) if w.dep not in ("det", "poss")])
    stopped = "Has stopped" if clause.perfect else "Stopped"
    when = said.when()
    dated = [d for d in said.dated if d.when.moment().date() <= said.at.date()]
    text = f"{stopped} taking {name}" + (f" {dated[0].text}" if dated and when is not None else "")
    return _health(said, "medicine_stopped", text, when)


def _given_up(said: Said) -> list[Candidate]:
    """A way of living ended: "I've given up driving", "I gave up running last year", "I've stopped
    cycling to work" — what one did as a habit, stopped (a substance given up is health's). Not
    "I stopped walking when it rained" (one occasion), nor "I'll give up running" (not yet)."""
    clause = said.clause
    head = clause.head
    done = clause.past or clause.perfect
    if clause.lemma not in ("stop", "quit", "give") or clause.looking_ahead or not done:
        return []
    if clause.lemma == "give" and not any(p.lower == "up" for p in children(said, head, "prt")):
        return []
    doing = [x for x in children(said, head, "xcomp", "dobj")
             if x.tag == "VBG" and x.lemma.lower() in lex.HABITS]
    if not doing or any(a.dep == "advcl" for a in said.sentence.children(doing[0].i)) or not (
            _a_pastime(said, doing[0]) or doing[0].lemma.lower() in _GIVEN_UP_WAYS):
        return []
    return one(candidate(said, MemoryKind.FACT, "given_up_habit", said.text(), confidence=0.75,
                         valid_from=said.when()))


# Ways of getting about or living that one gives up for good: "I've given up driving".
_GIVEN_UP_WAYS = frozenset({"drive", "commute", "cycle", "work", "teach", "travel", "fly"})


def _a_pastime(said: Said, doing: Word) -> bool:
    """ "started running", "started doing yoga", "started playing tennis again": a pastime, done for
    its own sake and so kept up; not one occasion ("started walking home", "started crying when
    ...", "started cooking dinner")."""
    if any(a.dep == "advcl" and any(m.dep in ("mark", "advmod") and m.lower in _OCCASION for m in
                                    said.sentence.children(a.i))
           for a in [*said.sentence.children(doing.i), *said.sentence.children(said.clause.head.i)]):
        return False
    if any(c.lower in ("home", "back", "away", "off", "out") for c in children(said, doing, "advmod", "prt")):
        return False
    objects = children(said, doing, "dobj")
    if not objects:
        return doing.lower in lex.PASTIMES or doing.lemma.lower() + "ing" in lex.PASTIMES
    return doing.lemma.lower() in ("do", "play", "practise", "practice") and all(
        o.lemma.lower() in lex.PASTIMES or o.lower in lex.PASTIMES for o in objects)


_OCCASION = frozenset({"when", "as", "while", "until", "because", "after", "before"})


def _took_up(said: Said) -> list[Candidate]:
    """ "I took up pottery in the autumn", "I've taken up running": a pastime begun (not "took up
    the offer", "took up the whole afternoon")."""
    head = said.clause.head
    if not any(p.lower == "up" for p in children(said, head, "prt", "advmod", "prep")):
        return []
    objects = [o for o in [*children(said, head, "dobj"),
                           *(o for p in children(said, head, "prep") if p.lower == "up"
                             for o in children(said, p, "pobj"))]]
    if not objects or not all(o.lower in lex.PASTIMES or o.lemma.lower() in lex.PASTIMES for o in objects):
        return []
    if any(c.dep in ("det", "poss") for o in objects for c in said.sentence.children(o.i)):
        return []  # "took up the running of the club"
    return one(candidate(said, MemoryKind.FACT, "habit", said.text(), confidence=0.75,
                         valid_from=said.when()))


def _changed_to(said: Said) -> bool:
    """A way of doing things said as what is done now, or instead of another: "I cycle to work now
    instead of driving", "I walk everywhere these days" (a habit changed, not one occasion)."""
    head = said.clause.head
    if head.tag not in ("VBP", "VBZ"):
        return False
    if any(w.lower in ("now", "nowadays") and w.dep == "advmod" for w in said.sentence.children(head.i)):
        return True  # "now" is trimmed from the memory's words as chat, so looked for on the head
    words = clause_words(said.clause)
    return _instead(said) or any(
        w.lower == "days" and w.i > 0 and said.sentence.words[w.i - 1].lower == "these" for w in words)


def _instead(said: Said) -> bool:
    """ "... instead of driving": done in place of another way."""
    following = said.sentence.words
    return any(w.lower == "instead" and w.i + 1 < len(following) and following[w.i + 1].lower == "of"
               for w in clause_words(said.clause))


def _trouble_doing(said: Said) -> list[Candidate]:
    """Trouble with what the body does, told of oneself: "I've been having trouble sleeping", "I have
    difficulty swallowing" (not "trouble finding a flat": that is no health)."""
    sentence, head = said.sentence, said.clause.head
    if head.lemma.lower() != "have" or (said.clause.past and not said.clause.perfect):
        return []  # "I had trouble sleeping last night": one night, not how one is
    for noun in sentence.subtree(head.i):
        if noun.lemma.lower() not in lex.TROUBLE:
            continue
        owner = sentence.words[noun.head]
        if noun.dep == "dobj" and noun.head == head.i:
            doing = [c for c in sentence.children(noun.i) if c.dep in ("acl", "pcomp")]
            doing += [g for p in sentence.children(noun.i) if p.lower == "with"
                      for g in sentence.children(p.i) if g.tag == "VBG"]
        elif noun.dep == "nsubj" and owner.dep == "ccomp" and owner.head == head.i:
            doing = [owner]  # "I have trouble breathing ...", read as a clause of its own
        else:
            continue
        doing = [d for d in doing if d.tag == "VBG" and d.lemma.lower() in lex.BODILY]
        if not doing:
            continue
        cut = {w.i for d in doing for c in sentence.children(d.i) if c.dep == "advcl"
               for w in sentence.subtree(c.i)}
        own = {w.i for w in clause_words(said.clause)} | {
            w.i for d in doing for w in sentence.subtree(d.i) if w.i not in cut}
        words = [w for w in sentence.words if w.i in own and w.i != (said.clause.subject or head).i]
        return _health(said, "trouble", said.text(words=words))
    return []


def _condition(said: Said) -> bool:
    return any(w.lemma.lower() in lex.CONDITIONS for w in clause_words(said.clause))


def _told_by_medic(said: Said) -> bool:
    """ "my doctor says I'm anemic": a diagnosis, reported by the one who makes it."""
    word = said.clause.head
    while word.dep in ("ccomp", "xcomp", "conj") and word.head != word.i:
        above = said.sentence.words[word.head]
        if above.lemma.lower() in lex.REPORTING:
            if above.lemma.lower() not in ("say", "tell", "confirm", "find", "diagnose"):
                return False  # "my therapist thinks I have ...": a guess, not a diagnosis
            subjects = children(said, above, "nsubj")
            # "my doctor", "the doctor", "Doc": the person's own; "a doctor on the radio" is not
            return (
                bool(subjects)
                and subjects[0].lemma.lower() in lex.MEDICS
                and not any(c.dep in ("det", "poss") and c.lower not in ("my", "the")
                            for c in children(said, subjects[0]))
            )
        word = above
    return False


def _when_told(said: Said) -> datetime | None:
    """ "last week the doctor told me I have ...": the past time a diagnosis was given, said of the
    telling."""
    word = said.clause.head
    while word.dep in ("ccomp", "xcomp", "conj") and word.head != word.i:
        word = said.sentence.words[word.head]
        if word.lemma.lower() in lex.REPORTING:
            for dated in said.dated:
                heads = {said.sentence.words[i].head for i in (dated.first, dated.first + 1)
                         if i < len(said.sentence.words)}
                moment = dated.when.moment()
                if word.i in heads and moment.date() <= said.at.date():
                    return moment
            return None
    return None


def _up_to_a_dose(said: Said) -> list[Word] | None:
    """ "started methylphenidate yday, 10mg, kinda wired": what was taken, and a dose said after a
    comma, without what follows (how it feels today); the clause's words where no dose is said so."""
    words = said.sentence.words
    commas = [w.i for w in words if w.text == "," and w.i > said.clause.head.i]
    if not commas or commas[0] + 2 >= len(words):
        return None
    number, unit = words[commas[0] + 1], words[commas[0] + 2]
    if number.pos != "NUM" or unit.lower not in ("mg", "mcg", "ml", "g", "iu"):
        return None
    kept = [w for w in clause_words(said.clause) if w.i < commas[0] and w.dep != "punct"]
    return [*kept, number, unit] if kept else None


_DOSE_LAST = re.compile(r"^(?P<verb>\w+(?: taking)?) (?P<what>\S+)(?P<rest> .*?) "
                        r"(?P<dose>\d+ ?(?:mg|mcg|ml|g|iu))$",
                        re.IGNORECASE)


def _dose_beside(text: str) -> str:
    """ "Started sertraline on 13 March 2026 50mg" as "Started sertraline 50mg on 13 March 2026"."""
    m = _DOSE_LAST.match(text)
    return f"{m['verb']} {m['what']} {m['dose']}{m['rest']}" if m else text


def _misread_right_after(said: Said, verb: Word) -> list[Word]:
    """ "I started sertraline yesterday": a medicine right after the verb that the small parser read
    as an adverb or adjective of it, not as what it took."""
    words = said.sentence.words
    after = words[verb.i + 1] if verb.i + 1 < len(words) else None
    return [after] if after is not None and after.head == verb.i and after.dep in ("advmod", "amod",
                                                                                   "npadvmod") else []


def is_medicine(word: Word, said: Said | None = None) -> bool:
    """A medicine, or a noun phrase headed by one's compound ("vitamin D", "iron tablets")."""
    lower = word.lemma.lower()
    if lower in lex.MEDICINES or word.lower in lex.MEDICINES or (
            len(lower) > 6 and lower.endswith(lex.MEDICINE_ENDINGS)):  # "antidepressants" is its own lemma
        return True
    return said is not None and any(is_medicine(c) for c in children(said, word, "compound"))


def is_condition(word: Word, said: Said) -> bool:
    """A condition one has, named by its word or with the word before it ("hay fever", "sleep apnea",
    "coeliac disease"), or a disease or disorder named by what it is of ("Lyme disease", "an eating
    disorder"; a bare "a disease" names none)."""
    lemma = word.lemma.lower()
    if lemma in lex.CONDITIONS or word.lower in lex.CONDITIONS:
        return True
    modifiers = children(said, word, "compound", "amod", "poss")
    if lemma in _DISEASES and any(m.pos in ("NOUN", "PROPN", "ADJ", "VERB") for m in modifiers):
        return True
    return any(f"{c.lower} {lemma}" in lex.CONDITIONS or c.lower in lex.CONDITIONS for c in modifiers)


_DISEASES = frozenset({"disease", "syndrome", "disorder", "deficiency", "infection"})


def _injury_named(said: Said, word: Word) -> bool:
    """ "a torn ACL", "a broken wrist": a body part with what was done to it."""
    return word.lemma.lower() in lex.BODY_PARTS and any(
        m.lemma.lower() in lex.INJURING or m.lower in _INJURED
        for m in children(said, word, "amod", "compound"))


# What was done to a body part, read as an adjective ("a fractured wrist").
_INJURED = frozenset({"broken", "torn", "fractured", "sprained", "twisted", "pulled", "dislocated",
                      "ruptured",
                      "strained", "injured", "bruised", "slipped", "herniated"})


def _medic_verdict(said: Said) -> list[Candidate]:
    """ "doc said GERD", "the MRI says torn ACL": what a medic or a test found, said as a bare noun
    phrase, is what the person has. "my friend says asthma" is no verdict."""
    clause = said.clause
    if clause.lemma not in ("say", "show", "find", "confirm") or (
            clause.negated or clause.asked or clause.supposed):
        return []
    subject = clause.subject
    if subject is None or not (subject.lemma.lower() in lex.MEDICS or subject.lemma.lower() in _TESTS):
        return []
    if any(c.dep in ("det", "poss") and c.lower not in ("my", "the") for c in children(said, subject)):
        return []  # "a doctor on the radio says ..."
    # "the doctor said it's a lumbar strain", "doctor says yes, is gout" (as a learner of English
    # may leave "it" out): the verdict in a clause of its own
    verdicts = [a for c in children(said, clause.head, "ccomp", "conj", "parataxis")
                if c.lemma.lower() == "be" and not children(said, c, "neg")
                # "is asthma": the parser may take what follows for the subject
                for a in (children(said, c, "attr", "acomp") if all(
                    s.lower in ("it", "that", "this") for s in children(said, c, "nsubj"))
                    else [s for s in children(said, c, "nsubj") if s.i > c.i])]
    for found in [*children(said, clause.head, "dobj"), *verdicts]:
        # "a torn ACL", and from a medic's verdict "a lumbar strain", "a stress fracture"
        injured = _injury_named(said, found) or found.lemma.lower() in _INJURIES
        if injured or is_condition(found, said):
            own = {c.i for c in children(said, found, "det", "poss")}
            words = [w for w in said.sentence.subtree(found.i) if w.i not in own]
            while words and words[0].i > 0 and (before := said.sentence.words[words[0].i - 1]).pos in (
                    "NOUN", "ADJ", "PROPN") and before.i not in own:  # "a muscle strain", read apart
                words.insert(0, before)
            a = "a " if injured and found.tag in ("NN", "NNP") else ""  # "a torn ACL"
            return one(candidate(said, MemoryKind.HEALTH, "condition", "Has " + a + joined(words),
                                 confidence=0.8))
    return []


# An injury named as a noun: "a lumbar strain", "a hairline fracture".
_INJURIES = frozenset({"strain", "sprain", "fracture", "tear", "dislocation", "rupture", "break"})

# What finds what a body has: "the MRI says ...", "my bloods showed ...".
_TESTS = frozenset({"mri", "scan", "x-ray", "xray", "test", "tests", "bloods", "result", "results",
                    "biopsy", "ultrasound", "ct"})


def _treated(said: Said, medicine_head: Word) -> list[Candidate]:
    """ "I'm on apixaban for atrial fibrillation": what the medicine is for is a condition they have."""
    for prep in [*children(said, medicine_head, "prep"), *children(said, said.clause.head, "prep")]:
        if prep.lower != "for":
            continue
        for thing in children(said, prep, "pobj", "amod"):  # "for afib": read as an adjective too
            if is_condition(thing, said):
                words = [w for w in said.sentence.subtree(thing.i) if w.dep not in ("det", "poss")]
                text = "Has " + " ".join(w.text for w in words)
                return one(candidate(said, MemoryKind.HEALTH, "condition", text, confidence=0.85))
    return []


_DOSE = re.compile(r"(?:\d+(?:\.\d+)?)?(?:mg|mcg|µg|ml|g|iu|milligrams?|micrograms?|units?)", re.IGNORECASE)


def _a_dose(word: Word) -> bool:
    """A dose's unit, with its number ("5mg", "20 mg", "500 milligrams")."""
    return bool(_DOSE.fullmatch(word.lower)) and (
        word.lower[:1].isdigit() or word.lower not in ("g", "units"))


def _dose_after(said: Said, verb: Word, last: Word, trailing: bool = False) -> list[Word]:
    """The dose right after a medicine that the parser hangs on the verb: "put me on amlodipine 5mg";
    with `trailing` (one medicine named), also a dose said last, after a comma: "put me on apixaban
    last month for an irregular heartbeat, 5 mg twice a day"."""
    sentence = said.sentence.words
    for child in children(said, verb, "npadvmod", "advmod", "dobj", "nummod", "appos", "attr"):
        words = list(said.sentence.subtree(child.i))  # "500mg twice a day", hung on "twice"
        if not _dosed(words):
            continue
        if words[0].i == last.i + 1:
            return words
        said_last = words[0].i > last.i and sentence[words[0].i - 1].text == "," and all(
            w.pos == "PUNCT" for w in sentence[words[-1].i + 1:])
        if trailing and said_last:
            return words
    return _dose_said_last(said, last) if trailing else []


def _dose_said_last(said: Said, last: Word) -> list[Word]:
    """ "..., 20 mg daily.": the words after the sentence's last comma, when they are a dose (a
    number, a unit) and nothing else, wherever the parser hung them."""
    sentence = said.sentence.words
    comma = max((w.i for w in sentence if w.text == ","), default=-1)
    words = [w for w in sentence[comma + 1:] if w.pos != "PUNCT"]
    if comma <= last.i or not words or any(w.pos in ("VERB", "AUX", "PRON", "PROPN") for w in words):
        return []
    return words if _dosed(words) else []


def _dosed(words: list[Word]) -> bool:
    """Words that say a dose: a unit, and a number."""
    return any(_a_dose(w) for w in words) and any(w.pos == "NUM" or w.lower[:1].isdigit() for w in words)


def _obliged_to_take(said: Said) -> list[Candidate]:
    """ "I must take statins now", "I have to take metformin every day": a medicine one is bound to
    take is one they take (not "I might have to take ...", "must I take ...?", nor one taken on a
    day: "I have to take my tablets at 9 tonight" is a to-do)."""
    clause = said.clause
    if clause.person != "i" or clause.negated or clause.asked or clause.past or said.due() is not None:
        return []
    head = clause.head
    taking: Word | None
    if clause.lemma == "take" and any(a.lower == "must" for a in children(said, head, "aux")) and not any(
            a.lower in ("might", "may", "could", "would") for a in children(said, head, "aux")):
        taking = head
    elif clause.lemma == "have" and clause.asserted and not clause.supposed:
        taking = next((x for x in children(said, head, "xcomp") if x.lemma.lower() == "take"), None)
    else:
        return []
    if taking is None or not any(is_medicine(o, said) or _a_dose_of_medicine(said, o)
                                 for o in children(said, taking, "dobj")):
        return []
    # "... and do exercises": another thing to do, not the medicine
    other = {w.i for c in children(said, taking, "conj", "cc") for w in said.sentence.subtree(c.i)}
    words = [w for w in said.sentence.subtree(taking.i) if w.i >= taking.i and w.pos != "PUNCT"
             and not is_noise(w) and not (w.lower == "now" and w.head == taking.i) and w.i not in other]
    text = said.text(words=words)
    return _health(said, "medicine", "Takes " + text.split(" ", 1)[1] if " " in text else text)


def _a_dose_of_medicine(said: Said, word: Word) -> bool:
    """ "20mg of lisinopril", "two puffs of salbutamol": a dose, of a medicine."""
    # the small parser may read the medicine as an adjective of what follows ("of amlodipine daily")
    return (_a_dose(word) or word.lemma.lower() in _DOSES) and any(
        is_medicine(m, said) for p in children(said, word, "prep") if p.lower == "of"
        for m in said.sentence.subtree(p.i) if m.i != p.i)


_DOSES = frozenset({"puff", "drop", "spoonful", "teaspoon", "capsule", "tablet", "pill", "dose", "shot"})


def _medicines_given(said: Said) -> list[Candidate]:
    """ "The doctor has put me on allopurinol", "she put me on sumatriptan and magnesium": each
    medicine one was put on is one they take."""
    clause = said.clause
    if clause.lemma in ("give", "prescribe"):
        return _prescribed(said)
    if clause.lemma in _SWITCHING or clause.lemma in _DOSED:
        return _medicine_changed(said)
    if clause.lemma not in ("put", "start") or clause.negated or clause.asked or clause.supposed:
        return []
    if not any(o.lower == "me" for o in children(said, clause.head, "dobj")):
        return []
    found: list[Candidate] = []
    for prep in children(said, clause.head, "prep"):
        taken = children(said, prep, "pobj")
        if prep.lower == "on" and taken and _a_dose(taken[0]):  # "on 20mg of citalopram"
            of = [m for p in children(said, taken[0], "prep") if p.lower == "of"
                  for m in children(said, p, "pobj")]
            if of and is_medicine(of[0], said):
                words = [w for w in said.sentence.subtree(taken[0].i) if w.pos != "PUNCT"]
                found += one(candidate(said, MemoryKind.HEALTH, "medicine", "Takes " + joined(words),
                                       confidence=0.85))
                continue
        if prep.lower != "on" or not taken or not is_medicine(taken[0], said):
            continue
        # "on omeprazole and ibuprofen": the small parser may hang the second on the verb
        misread = [c for c in children(said, clause.head, "conj") if c.i > taken[0].i]
        medicines = [m for m in [taken[0], *children(said, taken[0], "conj"), *misread]
                     if is_medicine(m, said)]
        for medicine in medicines:
            left = {w.i for c in children(said, medicine, "conj", "cc") for w in said.sentence.subtree(c.i)}
            words = [w for w in said.sentence.subtree(medicine.i) if w.i not in left and w.pos != "PUNCT"]
            # "on metformin 500mg"; "on amlodipine, 5 mg once a day" where it is the one medicine
            dose = _dose_after(said, clause.head, words[-1], trailing=len(medicines) == 1)
            text = " ".join(["Takes", joined(words), *([joined(dose)] if dose else [])])
            # "my doctor put me on amlodipine last month": taken since then
            made = candidate(said, MemoryKind.HEALTH, "medicine", text, confidence=0.85,
                             valid_from=said.when())
            if made:
                found.append(made)
        found += _treated(said, taken[0])
    return found


# A medic moves one to another medicine ("switched me to sertraline"), or changes its dose.
_SWITCHING = frozenset({"switch", "change", "move"})
_DOSED = frozenset({"up", "increase", "raise", "double", "lower", "reduce", "halve", "cut"})


def _medicine_changed(said: Said) -> list[Candidate]:
    """ "the GP switched me to sertraline last week", "they upped my dose of citalopram": the
    medicine one was moved to, or whose dose changed, is one they take (since then, for a switch);
    "switched my phone to silent" or "I doubled the recipe" names none."""
    clause = said.clause
    if clause.negated or clause.asked or clause.supposed or clause.looking_ahead:
        return []
    verb, words = clause.head, said.sentence.words
    if clause.lemma in _SWITCHING:
        if not any(o.lower == "me" for o in children(said, verb, "dobj")):
            return []
        # the small parser reads "to sertraline" as an infinitive: the word after "to" is the medicine
        to = next((w for w in words[verb.i + 1:] if w.lower in ("to", "onto")), None)
        taken = words[to.i + 1] if to is not None and to.i + 1 < len(words) else None
        if taken is not None and taken.lower in ("a", "an", "the") and taken.i + 1 < len(words):
            taken = words[taken.i + 1]  # "switched me to a Symbicort inhaler": named by its compound
        if taken is None or not (is_medicine(taken, said) or taken.pos == "PROPN" and any(
                is_medicine(h) for h in words[taken.i + 1:taken.i + 2])):
            return []
        name = [taken, *(h for h in words[taken.i + 1:taken.i + 2] if is_medicine(h) and h is not taken)]
        return one(candidate(said, MemoryKind.HEALTH, "medicine", "Takes " + joined(name),
                             confidence=0.8, valid_from=said.when()))
    for dose in children(said, verb, "dobj"):
        if dose.lemma.lower() != "dose" or not any(c.lower == "my" for c in children(said, dose, "poss")):
            continue
        of = [m for p in children(said, dose, "prep") if p.lower == "of" for m in children(said, p, "pobj")]
        named = [c for c in children(said, dose, "compound") if is_medicine(c)]  # "my sertraline dose"
        for medicine in of + named:
            if is_medicine(medicine, said):
                return one(candidate(said, MemoryKind.HEALTH, "medicine", "Takes " + medicine.text,
                                     confidence=0.8))
    return []


def _my_medicine(said: Said) -> list[Candidate]:
    """ "I need a new GP there for my levothyroxine": a medicine named as one's own is one they
    take (not "my pills", which names none, nor an inhaler one carries)."""
    for word in clause_words(said.clause):
        if not any(c.lower == "my" and c.dep == "poss" for c in children(said, word)):
            continue
        if is_medicine(word) and word.lemma.lower() not in _UNNAMED_MEDICINES | _DEVICES:
            return _health(said, "medicine", "Takes " + word.text)
    return []


# Medicines one carries rather than takes each day.
_DEVICES = frozenset({"inhaler", "epipen", "patch", "patches", "cream"})


def _prescribed(said: Said) -> list[Candidate]:
    """ "the doctor gave me pantoprazole", "doc said GERD and gave me pantoprazole": a medicine a
    medic gave the person is one they take; what a friend gave them once is not."""
    clause = said.clause
    if clause.negated or clause.asked or clause.supposed or clause.looking_ahead:
        return []
    verb = clause.head
    subject = next(iter(children(said, verb, "nsubj")), None)
    if subject is None and verb.dep == "conj":  # "doc said GERD and gave me ...": the first verb's
        subject = next(iter(children(said, said.sentence.words[verb.head], "nsubj")), None)
    if subject is None or subject.lemma.lower() not in lex.MEDICS:
        return []
    if not any(w.lower == "me" for w in children(said, verb, "dative", "dobj")):
        return []
    found: list[Candidate] = []
    for medicine in children(said, verb, "dobj"):
        if medicine.lower == "me" or not is_medicine(medicine, said) or (
                medicine.lemma.lower() in _UNNAMED_MEDICINES and not children(said, medicine, "compound")):
            continue  # "gave me some pills" names nothing one could keep
        beside = [c for c in [*children(said, verb, "npadvmod", "advmod", "prep"),
                              *children(said, medicine, "appos", "npadvmod")]
                  if c.i > medicine.i and _HOW_OFTEN.search(joined(list(said.sentence.subtree(c.i))).lower())]
        if beside:  # "iron tablets, one every morning": how many at a time goes with how often
            beside += [c for c in children(said, medicine, "appos", "nummod")
                       if c.pos == "NUM" and c.i > medicine.i]
        how_often = sorted({w for c in beside for w in said.sentence.subtree(c.i)}, key=lambda w: w.i)
        own = {c.i for c in children(said, medicine, "det")} | {w.i for w in how_often}
        words = [w for w in said.sentence.subtree(medicine.i) if w.pos != "PUNCT" and w.i not in own]
        often = " ".join(w.text for w in how_often if w.pos != "PUNCT")
        text = "Takes " + joined(words) + (f", {often}" if often else "")
        found += one(candidate(said, MemoryKind.HEALTH, "medicine", text, confidence=0.8))
    return found


_HOW_OFTEN = re.compile(r"\b(?:once|twice|\w+ times) (?:a|per|every) (?:day|week|night|month)\b|\bdaily\b"
                        r"|\bevery (?:morning|night|evening|day|\w+ hours)\b")
_UNNAMED_MEDICINES = frozenset({"medication", "medicine", "meds", "pill", "tablet", "patch", "patches",
                                "supplement", "vitamin", "painkiller", "antibiotic", "antibiotics"})

_TAKING_IN = frozenset({"eat", "drink", "have", "buy", "use", "take"})


def _taking_in(said: Said, verb: Word) -> bool:
    """ "eating meat", "drinking fizzy drinks": an -ing of taking in what is eaten or drunk."""
    return verb.tag == "VBG" and verb.lemma.lower() in _TAKING_IN and any(
        w.lemma.lower() in lex.FOODS | lex.GIVEN_UP
        for o in children(said, verb, "dobj") for w in said.sentence.subtree(o.i))


def _cutting_back(said: Said) -> list[Candidate]:
    """ "I'm cutting back on beer and red meat", "cutting down to one coffee in the morning": a
    change of habit under way, which is a goal until it is done."""
    clause = said.clause
    head = clause.head
    if clause.lemma != "cut" or clause.past or head.tag != "VBG" or clause.perfect:
        return []
    if not any(p.lower in ("back", "down") for p in children(said, head, "prt", "advmod")):
        return []
    things = {
        w.lemma.lower() for p in children(said, head, "prep") if p.lower in ("on", "to")
        for w in said.sentence.subtree(p.i)
    }
    if not things & (lex.FOODS | lex.GIVEN_UP):
        return []
    return one(candidate(said, MemoryKind.GOAL, "cutting_back", said.text(), confidence=0.75))


def _condition_acting_up(said: Said) -> list[Candidate]:
    """ "my gout flared up", "hay fever's killing me", "my asthma is playing up": a condition the
    person has, said by what it does to them."""
    clause = said.clause
    subject = clause.subject
    if subject is None or not clause.asserted or not is_condition(subject, said):
        return []
    if clause.person not in ("my", "none", "other") or children(said, subject, "det"):
        return []
    if clause.person == "other" and children(said, subject, "poss"):
        return []  # "Tom's asthma"
    head = clause.head
    acting = (
        any(p.lower == "up" for p in children(said, head, "prt", "advmod"))
        or any(o.lower == "me" for o in children(said, head, "dobj"))
    )
    if not acting or clause.lemma in ("clear", "give", "let", "end"):
        return []  # "my eczema has cleared up": no longer theirs
    words = [w for w in said.sentence.subtree(subject.i) if w.dep not in ("det", "poss") and w.pos != "PART"]
    return one(candidate(said, MemoryKind.HEALTH, "condition", "Has " + " ".join(w.text for w in words),
                         confidence=0.8))


# What a medical test is of ("a hearing test", "a blood test"): a test alone may be a school's.
_TESTED = frozenset({"hearing", "blood", "eye", "sight", "urine", "allergy", "pregnancy", "covid", "smear",
                     "stress", "sleep", "bone", "liver", "thyroid", "skin"})


def _taken_out(said: Said) -> list[Candidate]:
    """ "I had my wisdom teeth out on Tuesday", "got my braces off", "had my appendix removed": a
    part of one's body, or what a medic put on it, taken out or off (not "had my hair cut", "got my
    coat off", "had my car fixed")."""
    clause = said.clause
    head = clause.head
    if clause.lemma not in ("have", "get") or not clause.past:
        return []
    for thing in [*children(said, head, "dobj"),
                  *(s for c in children(said, head, "ccomp", "xcomp")
                    if c.lemma.lower() in _REMOVING
                    for s in children(said, c, "nsubj", "nsubjpass", "dobj"))]:
        mine = any(c.lower == "my" for c in children(said, thing, "poss"))
        removed = any(w.lower in ("out", "off")
                      for w in children(said, head, "prt", "prep", "advmod")) or any(
            c.lemma.lower() in _REMOVING for c in [*children(said, head, "ccomp", "xcomp"),
                                                   *children(said, thing, "acl")])
        if mine and removed and (thing.lemma.lower() in lex.BODY_PARTS | _REMOVABLE
                                 or thing.lower in lex.BODY_PARTS | _REMOVABLE):
            # "had my appendix removed": what was done is read as a clause of its own, kept here
            subject = clause.subject
            words = [w for w in said.sentence.subtree(head.i) if w.i >= head.i and w.pos != "PUNCT"
                     and (subject is None or w.i != subject.i) and not is_noise(w)]
            inside = {w.i for w in words}
            when = next((d.when.moment() for d in said.dated if d.first in inside or d.first + 1 in inside
                         if d.when.moment().date() <= said.at.date()), None)
            return _health(said, "procedure", said.text(words=words), when)
    return []


_REMOVING = frozenset({"remove", "take", "extract"})
# What a medic takes out or off that is not a part one was born with, or one they name so.
_REMOVABLE = frozenset({"appendix", "tonsils", "tonsil", "gallbladder", "adenoids", "braces", "brace", "cast",
                        "stitches", "stitch", "mole", "cyst", "cataract", "cataracts", "wisdom", "ovaries",
                        "uterus", "thyroid", "spleen", "kidney", "staples"})


def _procedure(said: Said, word: Word) -> bool:
    """An operation, a scan, a vaccination; an appointment only with a doctor ("a dentist appointment")."""
    lemma = word.lemma.lower()
    if lemma == "test":
        return any(c.lower in _TESTED for c in children(said, word, "compound", "amod"))
    if lemma not in lex.PROCEDURES:
        return False
    if lemma == "appointment":
        return any(c.lemma.lower() in lex.MEDICS for c in children(said, word, "compound", "poss", "amod"))
    return True


# How the body answers what does not agree with it: "dairy makes me bloated".
_UNWELL = frozenset({"ill", "sick", "bloated", "nauseous", "queasy", "itchy", "dizzy", "sneeze", "wheezy",
                     "poorly", "gassy", "breathless"})


_PEOPLE = frozenset({"people", "person", "everyone", "kid", "child", "man", "woman", "guy", "customer"})


def _makes_unwell(said: Said) -> list[Candidate]:
    """ "Dairy makes me bloated", "red wine makes me ill": what the person's body does not take
    (not "that makes me sick" of a thing not named, nor "the news made me sick" once)."""
    clause = said.clause
    subject = clause.subject
    if clause.lemma != "make" or clause.head.tag not in ("VBZ", "VBP"):
        return []
    if subject is None or subject.pos != "NOUN":
        return []
    if subject.lemma.lower() in lex.OWN_PEOPLE | lex.CASUAL | _PEOPLE or children(said, subject, "poss"):
        return []  # "my boss makes me sick": a person, said so
    for complement in children(said, clause.head, "ccomp", "xcomp", "oprd"):
        felt = complement.lower in _UNWELL
        by_me = any(c.lower == "me" for c in children(said, complement, "nsubj")) or any(
            c.lower == "me" for c in children(said, clause.head, "dobj"))
        if felt and by_me:
            thing = [w for w in said.sentence.subtree(subject.i) if w.dep not in ("det",)]
            text = f"{joined(thing).capitalize()} {clause.head.lower} them {complement.lower}"
            return _health(said, "reaction", text)
    return []


# What one recovers from that is no lasting condition: "covid", "a chest infection", "a stroke".
_ILLNESSES = frozenset({"covid", "covid-19", "flu", "infection", "pneumonia", "bronchitis", "virus",
                        "illness", "injury", "stroke", "attack", "burnout", "fracture", "sepsis", "flare",
                        "flare-up"})
# How a body's weight is counted: "I've lost 5 kilos", "I've put on a stone".
_WEIGHTS = frozenset({"kilo", "kilos", "kg", "kgs", "pound", "pounds", "lb", "lbs", "stone", "stones"})


def _recovering(said: Said) -> list[Candidate]:
    """ "I'm recovering from covid", "I'm getting over a chest infection": a condition on its way out."""
    clause = said.clause
    if clause.past or clause.lemma not in ("recover", "get"):
        return []
    preps = [p for p in children(said, clause.head, "prep", "prt") if p.lower in ("from", "over")]
    if clause.lemma == "get" and not any(p.lower == "over" for p in preps):
        return []
    ill = [o for p in preps for o in children(said, p, "pobj")]
    if not ill or not any(is_condition(o, said) or o.lemma.lower() in lex.PROCEDURES | _ILLNESSES
                          for o in ill):
        return []
    return _health(said, "recovering", said.text())


def _ill_then(said: Said, objects: list[Word]) -> list[Candidate]:
    """ "I had covid last month", "I caught the flu at Christmas": an illness that passed, kept with
    when it was (said with no time it may be a story of long ago: nothing)."""
    clause = said.clause
    if not clause.past or clause.perfect or clause.lemma not in ("have", "get", "catch"):
        return []
    if not any(o.lemma.lower() in _ILLNESSES or o.lower in _ILLNESSES for o in objects):
        return []
    when = said.when()
    if when is None:
        return []
    # "I had a bad asthma attack last week": an attack of a condition tells one has it
    of = [m for o in objects if o.lemma.lower() in _BOUTS
          for m in children(said, o, "compound", "amod") if m.lower in lex.CONDITIONS]
    has = one(candidate(said, MemoryKind.HEALTH, "condition", f"Has {of[0].text}")) if of else []
    return _health(said, "illness", said.text(), when) + has


# A bout of a condition: "an asthma attack", "a gout flare".
_BOUTS = frozenset({"attack", "flare", "flare-up", "flareup", "episode"})


def _seeing_a_medic(said: Said) -> list[Candidate]:
    """ "I've started seeing a therapist": care the person has begun (a habit of it, "I see a physio
    every week", is the habit rule's)."""
    clause = said.clause
    seeing = next((x for x in children(said, clause.head, "xcomp") if x.lemma.lower() == "see"), None)
    if seeing is None or clause.lemma not in ("start", "begin"):
        return []
    if not any(o.lemma.lower() in lex.MEDICS for o in children(said, seeing, "dobj")):
        return []
    return _health(said, "care", said.text(), said.when() if clause.past else None)


def _weight_changed(said: Said, objects: list[Word]) -> list[Candidate]:
    """ "I've lost 5 kilos since January", "I gained 3 kg last winter": the body's weight moved."""
    clause = said.clause
    if not (clause.past or clause.perfect) or clause.lemma not in ("lose", "gain"):
        return []
    if not any(o.lemma.lower() in _WEIGHTS or o.lower in _WEIGHTS for o in objects):
        return []
    return _health(said, "weight", said.text(), None if clause.perfect else said.when())


# What one cannot have of a thing: "I can't eat peanuts", "can't have the sulfa antibiotics".
_CONSUMING = frozenset({"have", "eat", "take", "drink", "use", "touch", "wear"})


def _allergic_to_what_was_refused(said: Said) -> list[Candidate]:
    """ "I can't eat peanuts, I'm allergic": an allergy said without "to", to what the person said
    they cannot have before it in the sentence; said of nothing ("I'm allergic"), it is no memory."""
    refused = [o for w in said.sentence.words if w.i < said.clause.head.i and w.lemma.lower() in _CONSUMING
               and any(n.dep == "neg" for n in children(said, w))
               for o in children(said, w, "dobj") if o.pos in ("NOUN", "PROPN") and o.i < said.clause.head.i]
    if not refused:
        return []
    thing = [w for w in said.sentence.subtree(refused[-1].i) if w.dep != "det" and w.pos != "PUNCT"]
    return _health(said, "state", "Is allergic to " + joined(thing))


def _health(said: Said, rule: str, content: str, when: datetime | None = None) -> list[Candidate]:
    return one(candidate(said, MemoryKind.HEALTH, rule, content, valid_from=when, confidence=0.85))


def _recurring(said: Said, objects: list[Word]) -> str | None:
    """A complaint that keeps coming back ("I've been getting migraines again, 3 this week"): what
    the person gets, since the count of this week's bouts is stale by next week."""
    clause = said.clause
    if clause.lemma not in ("get", "have") or clause.head.tag != "VBG" or not clause.perfect or not objects:
        return None
    thing = objects[0]
    if thing.lemma.lower() not in lex.CONDITIONS and thing.lower not in lex.EPISODES:
        return None
    words = [w for w in said.sentence.subtree(thing.i) if w.pos != "PUNCT"]
    again = any(w.lower == "again" for w in children(said, clause.head, "advmod"))
    text = said.text(words=words)  # in the third person, as every memory's words are written
    return "Gets " + text[:1].lower() + text[1:] + (" again" if again else "")


# What one carries for a condition, in case: "I carry an EpiPen", "I always carry my inhaler".
_KIT = frozenset({"epipen", "epi-pen", "epipens", "inhaler", "inhalers", "auto-injector", "autoinjector",
                  "glucagon", "naloxone", "puffer", "nitro", "gtn"})


def _kit_carried(said: Said) -> list[Candidate]:
    """ "I carry an EpiPen", "I always carry my inhaler": what one keeps at hand for a condition
    (not "I carried her inhaler", "I should carry an EpiPen")."""
    clause = said.clause
    if clause.person != "i" or clause.lemma != "carry" or clause.past or clause.looking_ahead:
        return []
    kit = [o for o in children(said, clause.head, "dobj") if o.lower in _KIT]
    if not kit or any(c.dep == "poss" and c.lower != "my" for c in children(said, kit[0])):
        return []
    words = [w for w in said.sentence.subtree(kit[0].i) if w.lower != "my"]
    while words and words[-1].pos == "PUNCT":
        words.pop()
    thing = joined(words)
    counted = any(w.dep in ("det", "nummod") for w in words) or kit[0].tag == "NNS"
    article = "" if counted else ("an " if thing[:1].lower() in "aeiou" else "a ")
    return _health(said, "kit", f"Carries {article}{thing}")


def _remarks_on(said: Said, thing: Word) -> list[int]:
    """What follows a condition after a comma and says no more of it: a comment on it ("diabetes,
    which is why I'm tired"), the medicine and dose one takes for it ("hypothyroidism, 75
    micrograms of levothyroxine every morning": a memory of its own). Not how bad, how often or
    why ("migraines, bad ones, twice a month", "low iron, because of the coeliac")."""
    sentence = said.sentence
    comma = next((w for w in sentence.words if w.text == "," and w.i > thing.i), None)
    if comma is None:
        return []
    after = [w for w in sentence.words if w.i > comma.i]
    comment = any(w.dep == "relcl" and w.head == thing.i and any(
        c.lower in ("which", "that") for c in sentence.children(w.i)) for w in after)
    dose = any(w.pos == "NUM" and w.i + 1 < len(sentence.words)
               and sentence.words[w.i + 1].lower in _DOSE_UNITS for w in after)
    return [w.i for w in sentence.words if w.i >= comma.i] if comment or dose else []


_DOSE_UNITS = frozenset({"mg", "milligrams", "milligram", "mcg", "micrograms", "microgram", "ml", "units",
                         "iu", "tablets", "pills", "puffs"})


def health(said: Said) -> list[Candidate]:
    """The person's health: "I have asthma", "I was diagnosed with diabetes in May", "I'm allergic
    to cats", "my doctor says I'm anemic", "I'm on metformin", "I broke my wrist last week", "I had
    knee surgery", "my hip replacement is scheduled for the 3rd", "I quit smoking", "my back hurts"."""
    clause = said.clause
    told = _told_by_medic(said)
    obliged = _obliged_to_take(said)
    if obliged:
        return obliged
    if clause.negated or clause.asked or clause.supposed or (clause.reported and not told):
        return []
    lemma, head = clause.lemma, clause.head
    reaction = _makes_unwell(said) or _kit_carried(said)
    if reaction:
        return reaction
    objects = children(said, head, "dobj") or [  # "a bad back", its noun read as the adverb "back"
        w for w in children(said, head, "advmod")
        if w.lemma.lower() in lex.BODY_PARTS and children(said, w, "amod")]
    medic = clause.subject is not None and clause.subject.lemma.lower() in lex.MEDICS
    if lemma == "diagnose" and medic and any(o.lower == "me" for o in children(said, head, "dobj")):
        # "my GP diagnosed me with hypothyroidism": as "I was diagnosed with ..."
        found = [w for p in children(said, head, "prep") if p.lower == "with"
                 for w in said.sentence.subtree(p.i)]
        dated = {i for d in said.dated for i in range(d.first, d.last + 1)}
        told_when = [w for c in children(said, head, "prep", "npadvmod") if c.lower != "with"
                     if any(x.i in dated for x in said.sentence.subtree(c.i))
                     for w in said.sentence.subtree(c.i)]
        if found:
            later = said.text(words=told_when) if told_when else ""
            text = said.text(words=found) + (" " + later[:1].lower() + later[1:] if later else "")
            return _health(said, "diagnosis", "Was diagnosed " + text[:1].lower() + text[1:], said.when())
    if clause.person == "i":
        if lemma == "diagnose":
            return _health(said, "diagnosis", said.text(), said.when())
        if lemma == "suffer" and any(
            p.lower == "from" and any(is_condition(w, said) for w in children(said, p, "pobj", "conj"))
            for p in children(said, head, "prep")
        ):
            return _health(said, "condition", said.text())  # "I suffer from migraines"
        if lemma == "be" and (not clause.past or clause.perfect):  # "I've been on sertraline since June"
            for word in children(said, head, "attr", "acomp"):
                # "lactose intolerant", read as two words
                state = [word, *children(said, word, "acomp", "amod", "oprd")]
                if any(w.lower in lex.HEALTH_STATES or w.lower.endswith("intolerant") for w in state):
                    # "allergic to shellfish": the parser may read the "to" as a verb's
                    said_to = any(w.lower == "to" and (w.head == word.i or w.i == word.i + 1)
                                  for w in said.sentence.words)
                    if word.lower == "allergic" and not said_to:
                        return _allergic_to_what_was_refused(said)
                    return _health(said, "state", said.text())
            for prep in children(said, head, "prep"):
                taken = children(said, prep, "pobj")
                if prep.lower == "on" and taken and is_medicine(taken[0], said):
                    text = said.text()
                    text = re.sub(r"^(?:Is|Are) on ", "Takes ", text)  # "Takes metformin"
                    text = re.sub(r"^(?:Has|Have) been on ", "Has been taking ", text)
                    return [*_health(said, "medicine", text),
                            *_treated(said, taken[0])]
        trouble = _trouble_doing(said)
        if trouble:
            return trouble
        recurring = _recurring(said, objects)
        if recurring:
            return _health(said, "recurring", recurring)
        if lemma in ("have", "get", "develop", "catch") and objects:
            # "I've got type 2 diabetes": the parser may hang "type" beside the condition
            thing = next((o for o in objects if is_condition(o, said)), objects[0])
            # "I have asthma"; "I got a bad back" (had, since); "I developed eczema in May"
            if (
                is_condition(thing, said)
                or (thing.lemma.lower() in lex.BODY_PARTS | lex.MEASURES and children(said, thing, "amod"))
            ) and (not clause.past or clause.perfect or lemma != "have"):
                when = said.when() if clause.past else (_when_told(said) if told else None)
                # "I've got a bad back": has it ("Has got" is British for the same)
                text = re.sub(r"^Has got ", "Has ", said.text(drop=_remarks_on(said, thing)))
                return _health(said, "condition", text, when)
        taking = [head, *(x for x in children(said, head, "xcomp") if x.lemma.lower() in ("take", "use"))]
        if lemma in ("take", "start", "use") and any(
            is_medicine(o, said) or _a_dose_of_medicine(said, o)
            for verb in taking for o in [*children(said, verb, "dobj"), *_misread_right_after(said, verb)]
        ):
            if lemma == "start" and not clause.past:
                return []
            return _health(said, "medicine", _dose_beside(said.text(words=_up_to_a_dose(said))),
                           said.when() if lemma == "start" else None)
        hurt = objects[0] if objects else None  # "my hamstring playing football": the parser's compound
        if hurt is not None and hurt.lemma.lower() not in lex.BODY_PARTS:
            hurt = next((c for c in children(said, hurt, "compound") if c.lemma.lower() in lex.BODY_PARTS),
                        None)
        if lemma in lex.INJURING and clause.past and hurt is not None:
            return _health(said, "injury", said.text(), said.when())
        recovering = (_recovering(said) or _seeing_a_medic(said) or _weight_changed(said, objects)
                      or _ill_then(said, objects))
        if recovering:
            return recovering
        taken_out = _taken_out(said)
        if taken_out:
            return taken_out
        if (
            lemma in ("have", "get", "undergo", "need", "book", "schedule")
            and objects
            and _procedure(said, objects[0])
        ):
            if clause.past:
                return _health(said, "procedure", said.text(), said.when())
            if clause.looking_ahead or said.due() is not None:
                return _health(said, "procedure", said.text())
        stopped = _medicine_stopped(said)
        if stopped:
            return stopped
        gerunds = [
            x
            for x in children(said, head, "xcomp", "dobj")
            if x.lemma.lower() in lex.GIVEN_UP or x.lower in lex.GIVEN_UP or x.lemma.lower() in lex.FOODS
            or _taking_in(said, x)
        ]
        if lemma == "cut" and (clause.perfect or clause.past):
            # "I've cut down on caffeine": done, as "I've cut out sugar"
            gerunds += [w for p in children(said, head, "prep") if p.lower == "on"
                        for w in children(said, p, "pobj") if w.lemma.lower() in lex.FOODS | lex.GIVEN_UP]
        cutting = _cutting_back(said)
        if cutting:
            return cutting
        if lemma == "cut" and not any(p.lower in ("out", "down") for p in children(said, head, "prt")):
            gerunds = []
        # "I'm quitting energy drinks", "also giving up sugar": under way now (not "next month": a plan)
        under_way = head.tag == "VBG" and not clause.past and not clause.perfect and not any(
            d.when.moment().date() > said.at.date() for d in said.dated)
        if (
            lemma in ("quit", "stop", "give", "cut")
            and gerunds
            and (clause.past or clause.perfect or head.lower == "quit" or said.when() is not None
                 or under_way)
        ):
            if lemma == "give" and not any(p.lower == "up" for p in children(said, head, "prt")):
                return []
            text = said.text()
            if head.lower == "quit" and text.startswith("Quits "):
                text = "Quit " + text[len("Quits ") :]  # said of the past: "quit" is both
            return _health(said, "given_up", text, said.when())
        return _my_medicine(said)
    given = _medicines_given(said) or _condition_acting_up(said) or _medic_verdict(said)
    if given:
        return given
    subject = clause.subject
    if subject is None or clause.person not in ("my", "other", "none"):
        return []
    owners = [c for c in children(said, subject, "poss")]
    if clause.person != "my" and owners:
        return []  # someone else's ("my mum's surgery")
    subject_words = [w for w in said.sentence.subtree(subject.i) if w.lower != "my"]
    words = sorted({*subject_words, *clause_words(clause)}, key=lambda w: w.i)
    start = min(w.i for w in said.sentence.subtree(subject.i))
    if not any(w.ent in ("DATE", "TIME") for w in words if w.i < start):
        words = [w for w in words if w.i >= start]  # "9 clients back to back, my feet are ...": an aside
    if clause.person == "my" and (
        subject.lemma.lower() in lex.BODY_PARTS or subject.lemma.lower() in lex.MEASURES
    ):
        return _health(said, "body", said.text(words=words), said.when())
    if clause.person == "my" and is_condition(subject, said) and lemma in _ACTING_UP:
        # "my hay fever is terrible this time of year", "my eczema is flaring up": a condition they have
        named = [w for w in said.sentence.subtree(subject.i)
                 if w.dep not in ("poss", "det") and w.i <= subject.i]
        return _health(said, "condition", "Has " + joined(named))
    if _procedure(said, subject) and (
        lemma in ("schedule", "book", "plan", "set") or (lemma == "be" and said.dated)
    ):
        return _health(said, "procedure", said.text(words=words), said.when())
    return []


# How a condition of one's own is said to be now: "my eczema is awful", "... is flaring up".
_ACTING_UP = frozenset({"be", "get", "flare", "play", "act"})

_PER = frozenset({"month", "year", "week", "hour", "day", "annum"})


def money(said: Said) -> list[Candidate]:
    """What the person earns, owes, pays and saves, with its amount: "I earn 2,000 a month", "I owe
    3k on my card", "I pay 700 in rent", "I have about 4k of credit card debt", "my rent is 650"."""
    clause = said.clause
    if not clause.asserted:
        return []
    if clause.person != "i":
        return _their_money(said)
    if clause.lemma not in ("earn", "make", "owe", "pay", "save", "have", "spend", "borrow", "get"):
        return []
    words = clause_words(clause)
    amounts = _amounts(words)
    if not amounts:
        return []
    lemmas = {w.lemma.lower() for w in words}
    about_money = bool(lemmas & lex.MONEY_WORDS) or any(w.ent == "MONEY" for w in words)
    per_period = bool(lemmas & _PER) and any(w.lower in ("a", "an", "per") for w in words)
    if clause.lemma in ("earn", "owe") or about_money or (clause.lemma in ("make", "save") and per_period):
        return one(candidate(said, MemoryKind.FACT, "money", said.text(), confidence=0.8))
    return []


def _amounts(words: Sequence[Word]) -> list[Word]:
    return [
        w
        for w in words
        if w.ent == "MONEY"
        or (w.pos == "NUM" and w.ent not in ("DATE", "TIME", "ORDINAL"))
        or (w.lower[:-1].replace(",", "").replace(".", "").isdigit() and w.lower.endswith("k"))
    ]


def _their_money(said: Said) -> list[Candidate]:
    """ "my rent is 650", "rent is 650 a month", "my salary goes up to 2,300": the person's own
    money (said with "my", or with no owner at all), and its amount."""
    clause = said.clause
    subject = clause.subject
    if subject is None or clause.person not in ("my", "none", "other") or clause.past:
        return []
    owners = [c for c in children(said, subject) if c.dep in ("poss", "det")]
    if subject.lemma.lower() not in lex.MONEY_WORDS or any(c.lower not in ("my", "our") for c in owners):
        return []  # "his rent is 900", "the rent is 900" (whose?)
    if clause.lemma not in ("be", "go", "come", "rise", "increase", "drop", "fall"):
        return []
    words = sorted({*said.sentence.subtree(subject.i), *clause_words(clause)}, key=lambda w: w.i)
    if not _amounts([w for w in words if w.i > clause.head.i]):
        return []
    return one(candidate(said, MemoryKind.FACT, "money", said.text(words=[w for w in words if w.lower not in (
        "my", "our")]), confidence=0.75))


def household(said: Said) -> list[Candidate]:
    """ "I have four grandchildren", "I have two dogs", "I live with my sister", "I share a flat
    with two mates": who is at home with them."""
    clause = said.clause
    if clause.person not in ("i", "we") or not clause.asserted or clause.past:
        return []
    if clause.lemma in ("live", "share") and not clause.looking_ahead:
        return _living_with(said)
    if clause.lemma != "have":
        return []
    for obj in children(said, clause.head, "dobj"):
        counted = any(c.dep == "nummod" or c.lower in ("a", "an") for c in children(said, obj))
        noun = obj.lemma.lower()
        animals = noun in lex.PETS or noun.rstrip("s") in lex.PETS
        if (
            counted
            and (
                noun in lex.FAMILY
                or noun in ("kid", "child", "grandchild", "grandkid", "sibling", "boy", "girl")
                or animals
            )
            and not children(said, obj, "acl")
        ):
            pairs = _named_ages(said, obj)
            if pairs and not animals:  # "two kids, Mateo is 8 and Sofia is 5": one memory for each
                relation = _ONE_OF.get(noun.rstrip("s"), noun.rstrip("s"))
                each = [theirs(said, relation, None, name) for name, _ in pairs]
                return [c.model_copy(update={"content": f"{c.content}, aged {age}"})
                        for c, (_, age) in zip(each, pairs, strict=True) if c is not None]
            named = in_a_list([f"{n} ({age})" for n, age in pairs]) if pairs else None
            ages = None if named else _ages_listed(said, obj)
            if named or ages:
                text = said.text(words=_up_to(said, obj)) + (f": {named}" if named else f", aged {ages}")
            else:
                text = said.text(drop=_others_listed(said, obj))
            # the people of their household are people in their life; animals are facts of it
            return one(candidate(said, MemoryKind.FACT if animals else MemoryKind.PERSON, "household", text,
                                 confidence=0.85))
    return []


def _ages_listed(said: Said, obj: Word) -> str | None:
    """ "three boys, 14, 11 and 6": one bare age for each one counted, right after them."""
    ages: list[str] = []
    for word in said.sentence.words[obj.i + 1:]:
        if word.lower in (",", "and", "aged"):
            continue
        if word.pos == "NUM" and word.text.isdigit() and 0 < int(word.text) < 60:
            ages.append(word.text)
        else:
            break
    return in_a_list(ages) if _one_for_each(said, obj, ages) else None


def _up_to(said: Said, obj: Word) -> list[Word]:
    """The clause's words up to the thing had ("we've got two kids")."""
    return [w for w in clause_words(said.clause) if w.i <= obj.i]


# One of those counted, as a relation: "two boys" are sons, "kids" children.
_ONE_OF = {**lex.CHILD_BY_SEX, "kid": "child", "children": "child", "grandkid": "grandchild",
           "grandchildren": "grandchild", "twin": "child"}


def _named_ages(said: Said, obj: Word) -> list[tuple[str, str]]:
    """ "two kids, Mateo is 8 and Sofia is 5", "three kids: Jo 12, Sam 9 and Ali 4": each one named
    with an age after the count, read from the words (the parser hangs such lists in too many
    ways to follow): each name with its age, or none unless every one counted is named so."""
    pairs: list[tuple[str, str]] = []
    name: str | None = None
    for word in said.sentence.words[obj.i + 1:]:
        if word.lower in (",", "and", ":", "-", "is", "'s", "aged", "years", "year", "old", "yrs"):
            continue
        if word.pos == "PROPN" and name is None and word.text[:1].isupper():
            name = word.text
        elif word.pos == "NUM" and name is not None and word.text.isdigit() and 0 < int(word.text) < 60:
            pairs.append((name, word.text))
            name = None
        else:
            break
    if name is not None or not _one_for_each(said, obj, pairs):
        return []
    return pairs


_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}


def _one_for_each(said: Said, obj: Word, listed: Sequence[object]) -> bool:
    """Whether what is listed after those counted is one for each ("two kids, 8 and 5")."""
    counted = next((c for c in said.sentence.children(obj.i) if c.dep == "nummod"), None)
    return len(listed) >= 2 and counted is not None and _COUNTS.get(counted.lower) == len(listed)


def _others_listed(said: Said, obj: Word) -> list[int]:
    """The other animals or people listed after the first with a name ("two cats, Miso and Tofu,
    and a rabbit called Bun"): each is a memory of its own, found by the rules for the named ones;
    one without a name stays ("two kids and a dog")."""
    sentence = said.sentence
    listed = sentence.subtree(obj.i)
    others = [  # the parser joins the next one to the noun or to its last name
        sentence.subtree(c.i) for c in listed if c.dep == "conj" and c.pos == "NOUN"
    ]
    others = [words for words in others if any(w.pos == "PROPN" for w in words)]
    if not others:
        return []
    start = min(words[0].i for words in others)
    while start > obj.i and sentence.words[start - 1].lower in (",", "and"):
        start -= 1
    return [w.i for w in listed if w.i >= start]


_PEOPLE = lex.OWN_PEOPLE | lex.CASUAL | lex.OCCUPATIONS | {"mate", "people", "girl", "guy", "parent"}


def _alone(said: Said) -> bool:
    """ "I live alone", "I live on my own", "I live by myself": no one at home with them."""
    sentence, head = said.sentence, said.clause.head
    for child in sentence.children(head.i):
        if child.lower == "alone" and not sentence.children(child.i):
            return True
        if child.dep == "prep" and child.lower in ("on", "by"):
            own = [w.lower for w in sentence.subtree(child.i)][1:]
            if own in (["my", "own"], ["myself"]):
                return True
    return False


def _living_with(said: Said) -> list[Candidate]:
    """ "I live with my sister", "I share a flat with two mates" — not "I live with the pain"."""
    head = said.clause.head
    if head.lemma.lower() == "share" and not any(
            o.lemma.lower() in lex.HOMES for o in children(said, head, "dobj")):
        return []  # "I share an office with Tom": no home
    mates = [o for p in said.sentence.subtree(head.i) if p.lower == "with" and p.head in (
        head.i, *(o.i for o in children(said, head, "dobj"))) for o in children(said, p, "pobj")]
    if head.lemma.lower() == "live" and not mates and _alone(said):
        return one(candidate(said, MemoryKind.FACT, "household", "Lives alone", confidence=0.8))
    if not any(o.lemma.lower() in _PEOPLE | lex.PETS.keys() or o.pos == "PROPN" for o in mates):
        return []
    # The home shared in a city is where they live: "I share a flat in Salford with two mates".
    homes = [head, *(o for o in children(said, head, "dobj") if o.lemma.lower() in lex.HOMES)]
    city = next((where for h in homes for p in children(said, h, "prep") if p.lower == "in"
                 and (where := place(said, p))), None)
    return one(candidate(said, MemoryKind.FACT, "household", said.text(), confidence=0.8,
                         attribute="home_city" if city else None, value=city,
                         entities=(city,) if city else ()))


def negative(said: Said) -> list[Candidate]:
    """What the person does not do or have, said plainly: "I don't eat pork", "I don't have a car"."""
    clause = said.clause
    if clause.person != "i" or not clause.negated or clause.reported or clause.asked:
        return []
    lemma = clause.lemma
    objects = children(said, clause.head, "dobj")
    if clause.supposed:  # "I can't eat gluten", "I can't drink milk": what the body will not take
        if lemma in ("eat", "drink", "have") and objects and able_only(clause) and names_a_thing(
                said, said.sentence.subtree(objects[0].i)):
            # "I can't eat nuts, allergic": the word tacked on after a comma is why, no part of what
            comma = next((w.i for w in said.sentence.words if w.text == "," and w.i > objects[0].i), None)
            aside = [w.i for c in children(said, clause.head, "acomp", "advcl", "npadvmod")
                     if comma is not None and c.i > comma for w in said.sentence.subtree(c.i)]
            return one(candidate(said, MemoryKind.FACT, "cannot_take", said.text(drop=aside), confidence=0.8))
        return []
    # "I don't drink", "I don't drive": said of no thing, the habit itself (not "I didn't drive today")
    alone = not (objects or clause.past or said.dated or children(said, clause.head, "prep", "advmod"))
    if lemma in ("eat", "drink", "smoke") and (objects or lemma == "smoke" or (lemma == "drink" and alone)):
        return one(candidate(said, MemoryKind.FACT, "abstains", said.text(), confidence=0.8))
    if lemma == "drive" and alone:
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


# A stretch of a life is counted in years; hours, days or weeks count an episode ("I was on hold
# for two hours"), not something the person is.
_LIFE_SPANS = frozenset({"year", "decade"})


def years_spent(said: Said) -> list[Candidate]:
    """ "I taught maths for twenty years", "I was a nurse for a decade": what the person did for
    years is part of who they are, though it is over."""
    clause = said.clause
    if clause.person != "i" or not clause.asserted or clause.head.tag != "VBD" or clause.perfect:
        return []
    if not any(_counted_years(said, prep) for prep in clause_words(clause) if prep.lower == "for"):
        return []
    if not names_a_thing(said, [w for w in clause_words(clause) if w.i > clause.head.i]):
        return []
    return one(candidate(said, MemoryKind.FACT, "years_spent", said.text(), confidence=0.8))


def _counted_years(said: Said, prep: Word) -> bool:
    """ "for 40 years", "for a decade": a counted number of years ("for years" may be a sigh)."""
    return any(
        span.lemma.lower() in _LIFE_SPANS
        and any(c.dep == "nummod" or c.lower in ("a", "one") for c in children(said, span))
        for span in children(said, prep, "pobj")
    )


# "Three weeks today.", "10 days.", "been 2 months now": how long something has lasted, said alone.
_LASTED_SO_FAR = re.compile(
    r"^(?:(?:it'?s|it has been|it's been|been|now|that's|already)\s+)?(?P<n>\d{1,3}|a|an|one|two|three|four|"
    r"five|six|seven|eight|nine|ten|eleven|twelve)\s+(?P<unit>day|week|month|year)s?"
    r"(?:\s+(?:now|today|already|in|so far|and counting|clean|without [\w\s-]+|off [\w\s-]+"
    r"|[\w-]+-free))*\W*$",
    re.IGNORECASE)


def given_up_since(made: Candidate, later: Sequence[str], at: datetime,
                   asides: Sequence[str] = ()) -> Candidate:
    """ "I stopped smoking. Three weeks today.", "gave up the smokes, 3 weeks today": a habit given up
    with no time of its own, and how long ago said right after it (a sentence, or a part after a
    comma), was given up that long before it was said."""
    if not made.extractor.endswith(":given_up") or made.valid_from.date() != at.date():
        return made
    # "Three weeks now, I use the patches": the time said before the sentence goes on
    firsts = [text.split(",")[0] for text in later if "," in text]
    for text in [*later, *asides, *firsts]:
        lasted = _LASTED_SO_FAR.match(text.strip())
        counted = _DAY_COUNTED.search(text.strip())
        if lasted is None and counted is None:
            continue
        if counted is not None:  # "day 5": the fifth day without it, given up four days before
            said_as = rf",? day {counted.group('n')}\b.*$"
            ago = f"{int(counted.group('n')) - 1} days ago"
        else:
            assert lasted is not None
            said_as = rf",? {re.escape(lasted.group('n'))} {lasted.group('unit')}"
            n = lasted.group("n").lower()
            ago = f"{'1' if n in ('a', 'an') else n} {lasted.group('unit')}s ago"
        cut = re.search(said_as, made.content, re.IGNORECASE)
        if cut is not None:  # said with what was given up: the memory ends before it
            made = made.model_copy(update={"content": made.content[:cut.start()]})
        when = resolve_phrase(ago, at, False)
        if when is None:
            return made
        content = re.sub(r"^Has (stopped|quit|given up|cut out)\b", lambda m: m.group(1).capitalize(),
                         made.content)
        content = re.sub(r"^Is (quitting|stopping|giving up|cutting out)\b",
                         lambda m: _GIVEN_UP_DONE[m.group(1)], content)
        return made.model_copy(update={"content": f"{content} {when.text}", "valid_from": when.moment()})
    return made


# "day 5", "day 4 no vaping": a day counted since one gave something up
_DAY_COUNTED = re.compile(r"(?:^|[.!,;]\s*)day (?P<n>[1-9]\d{0,2})\b(?:\s+[\w\s-]*)?\W*$", re.IGNORECASE)
_GIVEN_UP_DONE = {"quitting": "Quit", "stopping": "Stopped", "giving up": "Gave up", "cutting out": "Cut out"}


# What goes with a condition and is the person's because the condition is: "my asthma inhaler",
# "my glaucoma drops", "my diabetes nurse".
_CARE_OF = frozenset({"drops", "inhaler", "inhalers", "medication", "medications", "medicine", "medicines",
                      "meds", "cream", "creams", "tablets", "pills", "injection", "injections", "pump",
                      "monitor", "puffer", "nurse", "specialist", "clinic", "flare", "flares", "flare-up",
                      "flare-ups", "attack", "attacks", "symptoms"})
# Conditions that are only half named without what they are to: "for my allergy" (to what?).
_TO_SOMETHING = frozenset({"allergy", "allergies", "intolerance"})


def conditions_owned(said: Said) -> list[Candidate]:
    """ "I'm already on a lot for my psoriasis", "I keep forgetting my glaucoma drops": a condition
    the person calls theirs in passing, whatever the sentence says of it (asked, put off or denied:
    "Should I take my asthma inhaler?" is still theirs). Not another's ("for her asthma"), not a
    word that only says what a thing is ("asthma charity")."""
    sentence = said.sentence
    found: list[Candidate] = []
    def mine(word: Word) -> bool:
        return any(c.lower == "my" for c in children(said, word, "poss"))

    for word in sentence.words:
        if word.dep == "pobj" and sentence.words[word.head].lower == "for" and mine(word) and is_condition(
                word, said):
            if word.lemma.lower() in _TO_SOMETHING or word.lower in _TO_SOMETHING:
                continue
            named = [w for w in sentence.subtree(word.i) if w.dep not in ("det", "poss") and w.pos != "PUNCT"]
        elif word.lower in _CARE_OF or word.lemma.lower() in _CARE_OF:
            # "my diabetes meds": the parser may hang the "my" on the condition
            named = [m for m in children(said, word, "compound", "amod") if m.lower in lex.CONDITIONS
                     and m.lower not in _TO_SOMETHING and (mine(word) or mine(m))]
        else:
            continue
        if named:
            found += one(candidate(said, MemoryKind.HEALTH, "condition", "Has " + joined(named),
                                   confidence=0.8))
    return found
