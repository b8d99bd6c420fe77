"""What the person likes, wants and asks always to be done."""

from __future__ import annotations

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.clauses import is_noise, is_question
from domain.extraction.render import clause_words, in_a_list, written_words
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
    # "I like answers that get to the point": which answers is the liking ("Likes answers" says
    # nothing), so what is said of the thing liked stays with it
    which = [w for o in objects for r in children(said, o, "relcl") for w in said.sentence.subtree(r.i)]
    text = said.text(words=sorted({*words, *which}, key=lambda w: w.i)) if which else said.text()
    return one(
        candidate(
            said,
            MemoryKind.PREFERENCE,
            "dislike" if clause.negated or lemma in ("hate", "dislike", "detest", "loathe") else "like",
            text,
            confidence=0.8,
        )
    )


_BEST = frozenset({"best", "better", "easiest", "easier", "ideal"})


def suits(said: Said) -> list[Candidate]:
    """A kind of thing said to suit the person: "bullet points are best for me", "short answers
    work best for me", "mornings suit me better", "email works better for me than calls". Only of
    things in general: "this time is better for me", "Tuesday works for me" choose once, and last
    no longer than the choice."""
    clause = said.clause
    subject = clause.subject
    if clause.person != "other" or not clause.asserted or clause.past or subject is None:
        return []
    if subject.pos != "NOUN" or children(said, subject, "det", "poss", "nummod", "predet"):
        return []
    best = [w for w in children(said, clause.head, "acomp", "advmod") if w.lower in _BEST]
    below = [clause.head, *best]
    # "bullet points are perfect", "table format is great, keep doing that": said to the assistant
    # of what its answers are made of, praise of a kind of answer is for the person
    praised = clause.lemma == "be" and _a_kind_of_answer(said, subject) and any(
        w.lower in _PRAISE for w in children(said, clause.head, "acomp"))
    if praised:
        to_me = True
    elif clause.lemma == "suit":  # "mornings suit me better"
        to_me = any(o.lower == "me" for o in children(said, clause.head, "dobj"))
    elif clause.lemma in ("be", "work") and best:  # "... are best for me", "... work best for me"
        to_me = any(
            p.lower == "for" and any(o.lower == "me" for o in children(said, p, "pobj"))
            for w in below for p in children(said, w, "prep")
        )
    else:
        return []
    if not to_me:
        return []
    rather = [o for w in below for p in children(said, w, "prep") if p.lower == "than"
              for o in children(said, p, "pobj")]
    text = "Prefers " + _phrase(said, subject)
    if rather:
        text += " to " + _phrase(said, rather[0])
    return one(candidate(said, MemoryKind.PREFERENCE, "suits", text, confidence=0.8))


# Praise of a kind of answer: "bullet points are perfect".
_PRAISE = _BEST | frozenset({"perfect", "great", "helpful", "brilliant", "handy", "useful", "clearer"})


def _a_kind_of_answer(said: Said, noun: Word) -> bool:
    """ "bullet points", "short answers", "table format": what the assistant's answers are made of."""
    lemma = noun.lemma.lower()
    if lemma in _ANSWER_PARTS:
        return True
    return lemma in ("format", "layout", "formatting") and any(
        c.lemma.lower() in _ANSWER_PARTS for c in children(said, noun, "compound"))


def _phrase(said: Said, noun: Word) -> str:
    """A noun with its words, as said mid-sentence; words the parser hung on it from before a comma
    ("keep it short, bullet points ...") are the clause before's."""
    words = said.sentence.subtree(noun.i)
    commas = [w.i for w in words if w.pos == "PUNCT" and w.i < noun.i]
    words = [w for w in words if not commas or w.i > commas[-1]]
    text = written_words(words, [], drop_subject_agreement=False)
    return text if words[0].pos == "PROPN" else text[:1].lower() + text[1:]


def goal(said: Said) -> list[Candidate]:
    clause = said.clause
    lemma = clause.lemma
    if clause.reported or clause.asked or clause.negated:
        return []
    if (
        (clause.person == "my" or _bare_opening(said))
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


def _bare_opening(said: Said) -> bool:
    """ "goal is to save 60k by next year", "big goal now is ...": the subject opens the line with
    no "my", as chat leaves it out (not "the goal is ...", "his goal is ...")."""
    subject = said.clause.subject
    if subject is None or any(c.dep in ("det", "poss") for c in children(said, subject)):
        return False
    first = next((w for w in said.sentence.words if w.pos not in ("PUNCT", "INTJ", "CCONJ")
                  and w.lower not in ("so", "also", "anyway", "ok", "okay")), None)
    return first is not None and first.i == min(w.i for w in said.sentence.subtree(subject.i))


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
        "correct",
        "tell",
        "send",
        "skip",
        "leave",
        "add",
        "put",
        "ask",
        "remind",
        "speak",
        "talk",
        "cite",
        "mention",
        "number",  # "please number the steps"
        "say",  # "if you're not sure, say so"
    }
)


# What the assistant's answers are made of: asked for in general ("keep your answers in bullet
# points", "no long lists"), they are asked for from now on, not for one answer.
_ANSWER_PARTS = lex.words(
    "answer reply response message email list summary explanation example emoji bullet point "
    "heading table paragraph sentence word letter text note mistake error typo recipe instruction "
    "step suggestion option abbreviation acronym mark"
)
# How one writes, asked for once and meant for good ("use NZ spelling", "no jargon").
_STYLE = lex.words("spelling jargon tone formatting slang unit units measurement grammar punctuation")
# Reasons that do not last ("keep it short, I need to go", "I have a meeting").
_PASSING = lex.words("be have need want get go come leave wait hurry run")
# Where a reason hangs beside a request.
_REASONING = frozenset({"ROOT", "conj", "parataxis", "ccomp", "advcl"})
# The words of a request that are not what is asked.
_NOT_ASKED = lex.words("please always never do n't not don't just sure but and though tho")
# A "not" inside what is asked stays ("algebraic notation, not descriptive").
_NEGATIONS = lex.words("not n't never")
# Words an imperative may open with before its verb ("sure but keep ...", "and please don't give").
_LEAD_IN = lex.words(
    "please pls plz just also and but so sure ok okay oh yes yeah do n't not never always kindly perfect "
    "great thanks cool good fine right alright lovely"
)


def _imperative(said: Said) -> bool:
    """A request to the assistant with no one named: "keep your answers short", "and please don't
    give me long lists" (the small parser often hangs it under the reason said after it)."""
    clause = said.clause
    head = clause.head
    if _asked_of_you(said):
        return True
    inherited = clause.subject is not None and clause.subject.head != head.i
    if inherited and head.dep == "conj" and head.tag == "VB":
        above = said.sentence.words[head.head]
        # "I follow the Blues but don't tell me any scores": the subject is the first verb's, and
        # a bare verb after a finite one is said to the assistant
        own = said.sentence.children(head.i)
        return above.tag in ("VBP", "VBZ", "VBD") and not clause.asked and (
            any(a.lemma == "do" for a in own if a.dep == "aux") or any(w.lower == "please" for w in own))
    # "when you give me instructions, please number the steps": the request opens after its condition
    condition = {w.i for c in children(said, head, "advcl") if _a_condition(said, c)
                 for w in said.sentence.subtree(c.i)}
    before = [w for w in said.sentence.words[:head.i] if w.pos != "PUNCT" and w.i not in condition]
    opens = len(before) <= 4 and all(w.lower in _LEAD_IN for w in before)
    # the small parser tags some bare verbs as present ("okay, explain it slowly": VBP)
    if clause.subject is not None or head.tag not in ("VB", "VBP") or clause.asked:
        return False
    if head.tag == "VBP" and not opens:
        return False
    own = said.sentence.children(head.i)
    if any(w.dep in ("mark", "nsubj", "nsubjpass", "expl") or (w.dep == "aux" and w.lower == "to")
           for w in own):
        return False  # "to keep ...", "if you keep ...": not a request
    if head.dep == "ROOT":
        return True
    above = said.sentence.words[head.head]
    if head.dep == "conj" and above.tag == "VB" and not any(
        w.dep in ("nsubj", "nsubjpass", "mark") for w in said.sentence.children(above.i)
    ) and (above.dep == "ROOT" or above.i == 0):
        return True  # "keep letters formal, and use NZ spelling": two requests in a row
    if head.dep not in ("advcl", "conj", "ccomp", "parataxis"):
        return False
    return opens


def _asked_of_you(said: Said) -> bool:
    """ "can you skip the emojis and just give me straight answers": a request put as a question."""
    clause = said.clause
    head = clause.head
    if clause.subject is None or clause.subject.lower not in ("you", "u") or head.tag not in ("VB", "VBP"):
        return False
    before = said.sentence.words[clause.subject.i - 1] if clause.subject.i > 0 else None
    if before is not None and before.lower in ("please", "pls", "plz") and clause.subject.head == head.i:
        return True  # "please you answer me in English": a request, as a learner of English puts it
    asking = head if clause.subject.head == head.i else said.sentence.words[clause.subject.head]
    return any(a.lower in ("can", "could", "would") and a.i < clause.subject.i
               for a in said.sentence.children(asking.i) if a.dep == "aux")


_REPLYING = frozenset({"answer", "reply", "respond", "speak", "talk", "write", "explain"})


def _in_general(said: Said) -> bool:
    """The request names what answers are made of in general ("your answers", "long lists", "NZ
    spelling"), not one thing ("the numbers", "this email", "three options")."""
    head = said.clause.head
    # "reply in simple English": the language one reads, asked of answers (not "write the email in
    # Spanish", one thing, nor "answer in German this time")
    replying = head.lemma.lower() in _REPLYING and not [  # "answer me in English": me is the asker
        o for o in children(said, head, "dobj") if o.lower != "me"]
    for prep in children(said, head, "prep") if replying else []:
        if prep.lower == "in" and any(t.ent == "LANGUAGE" or t.ent == "NORP" and t.pos == "PROPN"
                                      for t in children(said, prep, "pobj")):
            return not any(w.ent in ("DATE", "TIME") or w.lemma.lower() == "time"
                           for w in said.sentence.words)
    for thing in children(said, head, "dobj", "pobj", "dative"):
        lemma = thing.lemma.lower()
        determined = any(
            c.dep in ("det", "nummod") and c.lower not in ("no", "any", "all")
            for c in said.sentence.children(thing.i)
        )
        if lemma in _STYLE and not determined:
            return True
        if thing.ent == "LANGUAGE" and thing.dep == "dobj" and not determined and not any(
                p.lower == "for" for p in children(said, head, "prep")):
            return True  # "use simple English with me", not "use English for this one"
        if thing.tag == "NNS" and lemma in _ANSWER_PARTS and not determined:
            return True
    return False


def _lasting_reason(said: Said) -> bool:
    """A reason said beside the request that is how the person is, not how things are today: "I
    read them between patients", "I don't read long stuff on my phone", "my eyes hurt reading on
    screens" — the present, no time named, not "I need to go" or "I'm in a hurry"."""
    head = said.clause.head
    inside = {w.i for w in said.sentence.subtree(head.i)}
    dated = {i for d in said.dated for i in range(d.first, d.last + 1)}
    for verb in said.sentence.words:
        if verb.i in inside or verb.pos not in ("VERB", "AUX") or verb.dep not in _REASONING:
            continue
        own = said.sentence.children(verb.i)
        subject = next((w for w in own if w.dep == "nsubj"), None)
        if subject is None or subject.lower not in ("i", "it", "they") and not any(
            c.lower == "my" for c in said.sentence.children(subject.i)
        ):
            continue
        auxes = [w for w in own if w.dep == "aux"]
        present = (
            verb.tag in ("VBP", "VBZ")
            or (verb.tag == "VBD" and verb.lower == verb.lemma.lower())  # "I read them": read or read
            or (verb.tag == "VB" and any(a.lemma == "do" and a.tag in ("VBP", "VBZ") for a in auxes))
        )
        never = verb.tag == "VBN" and any(a.lemma == "have" for a in auxes) and any(
            w.lower == "never" for w in own)  # "I've never really cooked": how they are
        plain = present and all(a.lemma == "do" for a in auxes) and verb.lemma.lower() not in _PASSING
        # "my eyes are poor", "I'm dyslexic", "I'm a nurse": how the person is, not how busy today
        told = [w for w in own if w.dep in ("acomp", "attr")]
        being = present and verb.lemma.lower() == "be" and not auxes and told and (
            subject.lemma.lower() in lex.BODY_PARTS or subject.lower in lex.BODY_PARTS
            or any(w.lower in lex.HEALTH_STATES for w in told)
            or any(w.dep == "attr" and w.lemma.lower() in lex.OCCUPATIONS for w in told))
        if not (never or plain or being):
            continue
        if any(w.i in dated for w in said.sentence.subtree(verb.i)):
            continue
        return True
    return False


def _to_you(said: Said) -> bool:
    """A request for whenever a thing happens between the two of them, which lasts: "... when you
    write to me", "when you give me instructions, please number the steps", "if you're not sure, say
    so", "when I make mistakes, correct me" (not "when you get a chance": once; not "when my boss
    calls")."""
    return any(_a_condition(said, c) for c in children(said, said.clause.head, "advcl"))


# Where the person's "no ..." asks of answers ("no emojis in your answers").
_IN_ANSWERS = frozenset({"answer", "answers", "reply", "replies", "response", "responses", "message",
                         "messages"})
_AROUND_NO = frozenset({"please", "pls", "plz", "ever", "again", "thanks", "thx"})


def no_more(said: Said) -> list[Candidate]:
    """ "no emojis please", "please, no bullet points in your answers", "no jargon ever": a request
    said without a verb, read from its words (the parser has no verb to hang them on). Only of the
    parts and style of answers, and with "please", "ever" or "in your answers" to say it is asked
    ("no onions please" is one order, "no emojis" alone may answer a question)."""
    sentence = said.sentence
    if is_question(sentence):
        return []
    # "no ..." opening the sentence or a part of it ("I'm vegan, so no recipes with eggs please")
    opening = next((w.i for w in sentence.words if w.lower == "no" and (
        w.i == 0 or sentence.words[w.i - 1].lower in (",", ";", ":", "-", "so", "and", "but", "please",
                                                      "pls", "plz", "also", "oh", "ok"))), None)
    if opening is None:
        return []
    words = list(sentence.words[opening:])
    if len(words) < 2:
        return []
    chunk: list[Word] = []
    for w in words[1:]:
        if w.pos == "PUNCT" or w.pos in ("CCONJ", "PRON") and w.lower not in ("your", "ur"):
            break
        chunk.append(w)
    thing = [w for w in chunk if w.lower not in _AROUND_NO]
    asked = any(w.lower in ("please", "pls", "plz") for w in sentence.words) or any(
        w.lower in ("ever", "again") for w in chunk)
    where = next((i for i, w in enumerate(thing) if w.lower == "in"), len(thing))
    in_answers = where < len(thing) and thing[-1].lower in _IN_ANSWERS
    named, rest = (thing[:where], thing[where:]) if in_answers else (thing, [])
    if not named or not (asked or in_answers) or any(
            w.pos in ("VERB", "AUX") and w.tag != "VBZ" for w in named):
        return []
    core = next((named[:i] for i, w in enumerate(named) if w.pos == "ADP"), named)  # "recipes with eggs"
    last = core[-1] if core else named[-1]
    if last.lemma.lower() not in _ANSWER_PARTS | _STYLE and last.lower.rstrip("s") not in _ANSWER_PARTS:
        return []
    text = " ".join(w.lower if w.pos != "PROPN" else w.text for w in named)
    if in_answers:
        text += " in " + rest[-1].lower
    return one(candidate(said, MemoryKind.PREFERENCE, "request", f"Does not want {text}", confidence=0.8))


def kind_of_person(said: Said) -> list[Candidate]:
    """ "I'm a cat person", "I'm more of a tea person", "I'm not a morning person": what one is said
    to be a person of is what one likes (or, denied, does not) — a way of saying a preference."""
    clause = said.clause
    if clause.person != "i" or clause.lemma != "be" or clause.asked or clause.supposed or clause.reported:
        return []
    told = children(said, clause.head, "attr")
    told += [o for t in told if t.lower == "more" for p in children(said, t, "prep") if p.lower == "of"
             for o in children(said, p, "pobj")]
    person = next((w for w in told if w.lemma.lower() == "person"), None)
    if person is None:
        return []
    of = [c for c in children(said, person, "compound", "amod")
          if c.pos in ("NOUN", "ADJ") and c.lower != "people"]
    if not of or any(c.dep == "poss" for c in children(said, person)):
        return []  # "I'm a private person" is how they are, not what they like; "I'm his person"
    if of[0].pos == "ADJ":
        return []
    return one(candidate(said, MemoryKind.PREFERENCE, "kind_of_person", said.text(), confidence=0.75))


def standing_request(said: Said) -> list[Candidate]:
    """ "Please always use British spelling", "keep your answers in bullet points, I read them between
    patients": how the person wants to be answered, from now on — said so, or asked of answers in
    general, or for a reason that lasts."""
    clause = said.clause
    # "dont like when u use bullet points": chat leaves out the "I" that opens the line
    i_left_out = clause.person == "none" and clause.lemma in _LIKED | _DISLIKED and all(
        w.dep in ("aux", "neg", "advmod", "intj", "cc") for w in said.sentence.words[:clause.head.i])
    liked = _when_you(said) if clause.person == "i" or i_left_out else _stopped(said)
    if liked or not _imperative(said):
        return liked
    children_ = said.sentence.children(clause.head.i)
    opening = said.sentence.text.lower().lstrip(" ,.!-")
    said_so = (
        any(w.lower in ("always", "never") for w in children_) or "from now on" in said.sentence.text.lower()
        or opening.startswith(("from now ", "from now,"))  # "From now please ...", as a learner says it
    )
    one_thing = any(  # "give me the recipe, I cook for four": this recipe, whatever the reason
        c.dep in ("det", "nummod", "poss") and c.lower not in ("no", "any", "all", "your", "my")
        for o in children(said, clause.head, "dobj") for c in said.sentence.children(o.i)
    )
    ways = _ways_with_me(said)
    lasting = said_so or _in_general(said) or _to_you(said) or (
        _lasting_reason(said) and not one_thing) or _kept_in_a_style(said) or bool(ways)
    # "do bullet points from now on": done to answers, when what is done is a part of them
    formats = clause.lemma == "do" and any(
        o.lemma.lower() in _ANSWER_PARTS | _STYLE for o in children(said, clause.head, "dobj"))
    # a particle changes the verb ("give up"), but not the "on" the parser takes from "from now on"
    particles = [w for w in children_ if w.dep == "prt" and not (
        w.lower == "on" and w.i >= 2 and said.sentence.words[w.i - 1].lower == "now"
        and said.sentence.words[w.i - 2].lower == "from")]
    about_answers = (clause.lemma in _ANSWERING or formats or bool(ways)) and not particles
    if not lasting or not about_answers:
        return []
    words = clause_words(clause, assistant=True)
    pointed = [o for o in children(said, clause.head, "dobj") if o.lower == "it"]
    if not words and pointed:
        # "keep it short": what "it" is, asked for good, is the answers
        # "put it in bullet points": where it is put is how it is wanted
        deps = ("dobj", "oprd", "acomp", "advmod", *(("prep",) if clause.lemma == "put" else ()))
        words = [clause.head, *(w for c in children(said, clause.head, *deps)
                                for w in said.sentence.subtree(c.i))]
    words = sorted(
        (w for w in words
         if not (w.lower in _NOT_ASKED and (w.head == clause.head.i or w.lower not in _NEGATIONS))
        and not (w.head == clause.head.i and w.dep in ("aux", "nsubj"))),
        key=lambda w: w.i,
    )
    negated = clause.negated or any(w.lower == "never" for w in children_)
    head = clause.head
    # What one asks to be used, given or kept is what one wants: "use NZ spelling" → "Wants NZ
    # spelling", "don't give me long lists" → "Does not want long lists", "keep your answers
    # short" → "Wants answers kept short".
    plain = clause.lemma in _WANTED_AS_THING and bool(children(said, head, "dobj"))
    conditions = [c for c in children(said, head, "advcl") if _a_condition(said, c)]
    # "whenever you compare options, put them in a table": what "them" is, the condition names
    named_there = [o for c in conditions for o in children(said, c, "dobj") if o.pos == "NOUN"]
    if plain:
        thing = children(said, head, "dobj")[0]
        within = {w.i for w in said.sentence.subtree(thing.i)}
        for prep in children(said, head, "prep", "dative"):  # "keep letters to parents formal"
            if prep.i == max(within) + 1 and prep.pos == "ADP" and thing.lower != "it":
                within |= {w.i for w in said.sentence.subtree(prep.i)}
        to_me = {w.i for p in children(said, head, "prep") if p.lower == "with"  # "with me": the asker
                 and [o.lower for o in children(said, p, "pobj")] == ["me"]
                 for w in said.sentence.subtree(p.i)}
        kept = [w for w in words if w is not head and w.lower not in ("your", "ur") and w.i not in to_me
                and not (w.head == head.i and w.dep == "dative" and w.pos == "PRON")]
        named = "answers" if thing.lower == "it" else _as_said([w for w in kept if w.i in within])
        rest = _as_said([w for w in kept if w.i not in within])
        if thing.lower in ("them", "those") and named_there:
            named = _as_said(said.sentence.subtree(named_there[0].i))
            conditions = []  # the condition is said by the thing: "Wants options in a table"
            rest = rest or _as_said([w for p in children(said, head, "prep") if p.i not in to_me
                                     for w in said.sentence.subtree(p.i)])
        if not named or (clause.lemma == "keep" and (negated or not rest and len(named.split()) < 3)):
            return []
        if thing.lower == "it" and (not rest or clause.lemma not in ("put", "keep", "give")):
            return []  # "give it": nothing said of how; "use it sparingly": "it" is no answer
        if clause.lemma == "keep":
            text = f"Wants {named} kept {rest}" if rest else f"Wants {named}"
        else:
            text = f"{'Does not want' if negated else 'Wants'} {named} {rest}"
    elif ways:  # "Be precise and technical with me"
        text = f"Wants the assistant to be {in_a_list([w.lower for w in ways])} with them"
    else:
        body = written_words(words, [], drop_subject_agreement=False, assistant=True)
        if not body:
            return []
        body = body.replace("the assistant's", "its")  # "correct your answers": its answers
        if pointed:  # "explain it simply, I've never really cooked": things, from now on
            body = f" {body} ".replace(" it ", " things ", 1).strip()
        if clause.lemma == "say" and any(c.lower == "so" for c in children(said, head, "advmod")):
            body = body if body.endswith(" so") else body + " so"  # "say so": so is what is said
        text = f"Wants the assistant {'never to' if negated else 'always to'} {body[:1].lower()}{body[1:]}"
    # "when you reply": every answer, as the request already says; "when you give me instructions": some
    conditions = [c for c in conditions if c not in words and not (
        c.lemma.lower() in _REPLYING and not [o for o in children(said, c, "dobj", "attr")
                                              if o.lower not in _NOTHING_NAMED])]
    if conditions:  # "... to number the steps when it gives them instructions"
        when = written_words(list(said.sentence.subtree(conditions[0].i)), [], drop_subject_agreement=False,
                             assistant=True).rstrip(" ,")
        when = when.replace(" the assistant ", " it ", 1)  # named once, "it" after
        text = f"{text} {when[:1].lower()}{when[1:]}"
    return one(candidate(said, MemoryKind.PREFERENCE, "request", text, confidence=0.8))


# How answers may be kept or the assistant be with the person: "keep it short", "be blunt with me".
_ANSWER_STYLES = lex.words("""
short shorter brief simple casual practical concise plain basic light friendly formal informal technical
clear direct honest blunt precise detailed gentle positive upbeat real straightforward straight
""")


# What opens a clause that says when a request holds: "when you give me instructions, ...".
_WHENEVER = frozenset({"when", "whenever", "if"})


def _a_condition(said: Said, condition: Word) -> bool:
    """ "when you give me instructions", "if you're not sure", "when I make mistakes": said of the
    two of them, in the present, no time named (not "when you get a chance": once)."""
    marks = {m.lower for m in children(said, condition, "mark", "advmod")}
    subject = [s.lower for s in children(said, condition, "nsubj")]
    if not marks & _WHENEVER or subject not in (["you"], ["u"], ["i"]) or condition.tag not in ("VBP", "VBZ"):
        return False
    if condition.lemma.lower() in _COURTESY:
        return False  # "if you want, send me the link": a courtesy, not when
    dated = {i for d in said.dated for i in range(d.first, d.last + 1)}
    inside = said.sentence.subtree(condition.i)
    return not any(w.i in dated or w.lower in ("chance", "sec", "second", "minute", "time") for w in inside)


# What a condition's verb may take that names nothing: "when you explain me something".
_NOTHING_NAMED = frozenset({"me", "it", "something", "anything", "things", "stuff", "them"})
# "if you want", "if you like", "if you don't mind": a courtesy around one request.
_COURTESY = frozenset({"want", "like", "wish", "mind", "prefer", "can", "please"})


def _kept_in_a_style(said: Said) -> bool:
    """ "keep it short", "keep it practical though": answers kept a way, asked with nothing to say it
    is one thing's ("keep it short, she's a friend": the message for her; "this time", "for now")."""
    clause = said.clause
    objects = [o.lower for o in children(said, clause.head, "dobj")]
    # "give it to me straight", "give me the answer straight up": answers given a way
    given = clause.lemma == "give" and (objects == ["it"] or objects in (["answer"], ["answers"]))
    if not (clause.lemma == "keep" and objects == ["it"] or given):
        return False
    ways = children(said, clause.head, "oprd", "acomp", "xcomp", *(("advmod",) if given else ()))
    ways += [w for way in ways for w in children(said, way, "advmod")]  # "straight up"
    if not any(w.lower in _ANSWER_STYLES for w in ways):
        return False
    text = said.sentence.text.lower()
    if any(passing in text for passing in ("this time", "for now", "this one", "for today")):
        return False
    # a reason said beside it is weighed by `_lasting_reason` ("keep it short, I'm in a hurry"); "she's
    # a friend": who the one thing is for
    return not any(w.dep in ("nsubj", "nsubjpass") and w.i > clause.head.i for w in said.sentence.words)


def _ways_with_me(said: Said) -> list[Word]:
    """ "Be precise and technical with me", "be blunt with me": how the assistant is to be with the
    person, always (not "be careful on the stairs"); none where it is not asked so."""
    clause = said.clause
    if clause.lemma != "be" or clause.head.tag != "VB":
        return []
    ways = children(said, clause.head, "acomp")
    ways += [c for w in ways for c in children(said, w, "conj")]
    with_me = any(p.lower == "with" and [o.lower for o in children(said, p, "pobj")] == ["me"]
                  for w in [clause.head, *ways] for p in children(said, w, "prep"))
    return ways if with_me and ways and all(w.lower in _ANSWER_STYLES for w in ways) else []


def _stopped(said: Said) -> list[Candidate]:
    """ "stop using so many headings", "can you stop adding a summary": what the assistant is asked
    to stop doing in its answers, which lasts (one does not ask to stop for one answer)."""
    clause = said.clause
    if clause.lemma != "stop" or clause.negated or not _imperative(said):
        return []
    doing = next((x for x in children(said, clause.head, "xcomp")
                  if x.tag == "VBG" and x.lemma.lower() in _ANSWERING | _OFFERING), None)
    objects = children(said, doing, "dobj") if doing is not None else []
    # "stop calling me sir": what they are called is the thing
    named = [w for o in objects if o.lower == "me"
             for w in [*children(said, doing, "oprd", "attr"), *children(said, clause.head, "npadvmod")]
             if w.i > o.i] if doing else []
    if doing is None or not objects or not (
            named or names_a_thing(said, said.sentence.subtree(objects[0].i))):
        return []
    if doing.lemma.lower() in _WANTED_AS_THING:
        text = "Does not want " + _as_said(said.sentence.subtree(objects[0].i))
    else:
        words = sorted({*said.sentence.subtree(doing.i), *named}, key=lambda w: w.i)
        done = written_words(words, [], drop_subject_agreement=False, assistant=True)
        text = "Wants the assistant to stop " + done[:1].lower() + done[1:]
    return one(candidate(said, MemoryKind.PREFERENCE, "request", text, confidence=0.8))


_WANTED_AS_THING = frozenset({"use", "give", "send", "keep", "include", "do", "put"})
# What the assistant offers the person, which asked to stop is stopped for good: "stop suggesting
# recipes with mushrooms" (asked for once, "suggest a recipe" is one answer's).
_OFFERING = frozenset({"suggest", "recommend", "offer"})
_LIKED = frozenset({"love", "like", "appreciate", "prefer"})
_DISLIKED = frozenset({"hate", "dislike", "detest", "loathe"})


def _when_you(said: Said) -> list[Candidate]:
    """ "I hate it when you use emojis", "I love it when you explain with examples": how the person
    likes to be answered, said of the assistant's ways (not of anyone else's: "when my boss calls")."""
    clause, sentence = said.clause, said.sentence
    lemma = clause.lemma
    if lemma not in _LIKED | _DISLIKED or clause.asked or clause.past or clause.supposed:
        return []
    if clause.negated and lemma in _DISLIKED:
        return []  # "I don't hate it when you ...": no wish either way
    disliked = lemma in _DISLIKED or clause.negated  # "I don't like it when you ...": disliked
    for doing in children(said, clause.head, "advcl"):
        own = sentence.children(doing.i)
        if not (any(m.lower == "when" for m in own if m.dep in ("advmod", "mark"))
                and any(s.lower in ("you", "u", "ya") for s in own if s.dep == "nsubj")
                and doing.tag in ("VBP", "VB") and not any(c.dep == "neg" for c in own)):
            continue
        words = [w for w in sentence.subtree(doing.i)
                 if not (w.head == doing.i and (w.lower == "when" or w.dep == "nsubj" or w.dep == "aux"))
                 and not is_noise(w)]  # "... use bullet points btw"
        if not names_a_thing(said, [w for w in words if w is not doing]):
            return []  # "I hate it when you do that": what "that" is was said before
        body = written_words(words, [], drop_subject_agreement=False, assistant=True)
        if not body:
            return []
        wish = "Does not want" if disliked else "Wants"
        return one(candidate(said, MemoryKind.PREFERENCE, "request",
                             f"{wish} the assistant to {body[:1].lower()}{body[1:]}", confidence=0.8))
    return []


def _as_said(words: list[Word]) -> str:
    """Words of a request as the person wrote them, not opening a sentence ("NZ spelling", "long lists")."""
    if not words:
        return ""
    text = written_words(words, [], drop_subject_agreement=False, assistant=True)
    return text if words[0].text[:1].isupper() else text[:1].lower() + text[1:]
