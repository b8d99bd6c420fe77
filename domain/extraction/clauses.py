"""Clauses of what the person said: each verb with who does it, and whether it asserts anything.

A sentence says several things ("I'm an accountant, so I can work from anywhere"); each verb
heads a clause, and a clause is about the person when its subject is "I" (or "we", or nobody at
the head of a chat line: "Booked the flights!"). A clause asserts nothing when it is asked,
denied, supposed ("if", "would", "might"), or reported or guessed (a clause under "say",
"think", "hope"): the rules see these flags and most of them then keep nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from domain.extraction.lexicon import (
    APPOINTMENTS,
    CHAT_NOISE,
    COMPANY_VERBS,
    DISCOURSE,
    REPORTING,
    SARCASM_MARKS,
    SARCASM_OPENERS,
)
from domain.text.parse import Sentence, Word

_SUBJECTS = ("nsubj", "nsubjpass", "csubj", "expl")
# Forms the small model lemmatizes wrongly ("hoping" as "hop").
_LEMMA_FIXES = {"hoping": "hope", "hoped": "hope", "hopes": "hope"}
_CLAUSE_DEPS = ("ROOT", "conj", "ccomp", "advcl", "parataxis", "xcomp", "relcl", "acl")
_HYPOTHETICAL_MODALS = frozenset(
    {"would", "could", "might", "should", "may", "must", "'d", "ca", "can", "shall"}
)
_CONDITIONAL_MARKS = frozenset({"if", "unless", "whether", "once", "when", "whenever", "until", "till"})
_HYPOTHETICAL_OPENERS = frozenset(
    {"if", "maybe", "perhaps", "suppose", "imagine", "hopefully", "probably", "someday", "unless"}
)
_NEGATIONS = frozenset({"not", "n't", "nt", "never", "no", "nobody", "nothing", "neither", "nor"})
_QUESTION_OPENERS = frozenset(
    {
        "what",
        "who",
        "whom",
        "whose",
        "which",
        "where",
        "when",
        "why",
        "how",
        "is",
        "are",
        "am",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "will",
        "should",
        "shall",
        "may",
        "might",
        "have",
        "has",
        "was",
        "were",
        "u",
    }
)


@dataclass(frozen=True)
class Clause:
    sentence: Sentence
    head: Word
    subject: Word | None  # None: nobody named ("Booked the flights!")
    person: str  # "i", "we", "my" (my X ...), "other" or "none"
    negated: bool
    supposed: bool  # a hypothesis, a condition, a modal
    reported: bool  # under a verb of saying or thinking
    asked: bool  # the sentence is a question

    @property
    def lemma(self) -> str:
        lower = self.head.lower
        if lower in ("m", "'m", "am", "im"):
            return "be"
        if self.has_got or _obliged(self.sentence, self.head):
            return "have"
        return _LEMMA_FIXES.get(lower, self.head.lemma.lower())

    @property
    def has_got(self) -> bool:
        """ "I've got an appointment on the 26th", "I've got two cats": what one has now, said
        with "got" (not "I've got engaged": became)."""
        # "got a dentist appointment on the 19th": chat's "I've got", its "I've" left out, of a
        # thing one has for a day (one gets an appointment for a day ahead)
        appointed = not self.children("aux", "auxpass") and self.head.tag == "VBD" and any(
            o.lemma.lower() in APPOINTMENTS for o in self.children("dobj"))
        return (
            self.head.lower == "got"
            and (appointed
                 or any(w.lemma == "have" and w.tag in ("VBP", "VBZ") for w in self.children("aux")))
            and bool(self.children("dobj"))
            # "I've got a job as a barista", "I've got the job!": a job one has just got
            and not any(o.lemma.lower() in ("job", "promotion") for o in self.children("dobj"))
        )

    def children(self, *deps: str) -> list[Word]:
        return [w for w in self.sentence.children(self.head.i) if not deps or w.dep in deps]

    @property
    def asserted(self) -> bool:
        return not (self.negated or self.supposed or self.reported or self.asked)

    @property
    def past(self) -> bool:
        if self.has_got or _obliged(self.sentence, self.head):
            return False
        verbs = [self.head, *self.children("aux", "auxpass")]
        alone = self.head.tag == "VBN" and self.head.dep == "ROOT" and len(verbs) == 1  # "Sold the flat!"
        # "I quit drinking in January": the same word in the past, which the tagger reads as now
        # (one does not quit as a habit)
        quit = self.head.lower == "quit" and self.head.tag == "VBP" and len(verbs) == 1
        return (
            quit
            or any(w.tag == "VBD" for w in verbs)
            or alone
            or (self.head.tag == "VBN" and any(w.lemma == "have" for w in verbs))
        )

    @property
    def perfect(self) -> bool:
        """ "I've lived here since 2019": begun in the past, true still."""
        return not self.has_got and self.head.tag in ("VBN", "VBG") and any(
            w.lemma == "have" and w.tag in ("VBP", "VBZ") for w in self.children("aux")
        )

    @property
    def looking_ahead(self) -> bool:
        """A plan or a future: will, going to, a present progressive ("I'm flying on Friday")."""
        aux = {w.lower for w in self.children("aux")}
        # "I'm getting married in October": the passive with "get", under way ahead ("'m" may hang
        # on "getting")
        getting = [w for w in self.children("auxpass") if w.lower == "getting" and self.head.tag == "VBN"]
        for word in getting:
            aux |= {c.lower for c in self.sentence.children(word.i) if c.dep == "aux"}
        progressive = (
            self.head.dep not in ("acl", "relcl")
            and bool(aux & {"am", "'m", "m", "is", "are", "'re"})
            and (self.head.tag == "VBG" or bool(getting))
        )
        return (
            bool(aux & {"will", "'ll", "gon", "going", "shall"})
            or progressive
            or self.lemma in ("plan", "want", "hope", "intend")
        )


def is_sarcastic(sentence: Sentence) -> bool:
    """A sentence that says it means the opposite: it opens "Oh great", "Yeah right", or carries
    "/s" or an eye-roll."""
    words = [w.lower for w in sentence.words if w.pos != "PUNCT"]
    text = sentence.text.lower()
    return any(tuple(words[: len(o)]) == o for o in SARCASM_OPENERS) or any(m in text for m in SARCASM_MARKS)


# A question tagged onto a statement asks for no answer: "he's not here, you know?"
_TAGS = frozenset({"you know", "y'know", "ya know", "right", "yeah", "no", "eh", "innit", "you see",
                   "isn't it", "don't you think"})


def is_question(sentence: Sentence) -> bool:
    words = [w for w in sentence.words if w.pos not in ("PUNCT", "INTJ") and w.lower not in DISCOURSE]
    text = sentence.text.rstrip()
    if text.endswith("?"):
        head, comma, tag = text.rstrip("?!. ").rpartition(",")
        if not (comma and head.strip() and tag.strip().lower() in _TAGS):
            return True
    if not words:
        return False
    if asked_after_a_comma(sentence) is not None:
        return True
    first = words[0]
    if first.lower == "do" and len(words) > 1 and words[1].lower in ("n't", "not"):
        return False  # "Don't use emojis": an order, not a question ("Don't you think ...?" ends in "?")
    if first.tag == "WRB" and sentence.words[first.head].dep == "advcl":
        return False  # "When you write to me, please use short words": a time the main clause holds in
    # "Do you know ...", "Can you ...": an auxiliary before its subject
    return (
        first.lower in _QUESTION_OPENERS
        and first.tag in ("VBP", "VBZ", "VBD", "MD", "WP", "WRB", "WDT")
        and first.dep in ("aux", "auxpass", "ROOT", "advmod", "nsubj", "attr", "dobj")
        and not (first.dep == "nsubj" and first.tag not in ("WP",))
    )


def subject_of(sentence: Sentence, head: Word) -> Word | None:
    own = [w for w in sentence.children(head.i) if w.dep in _SUBJECTS]
    if own:
        return own[0]
    if head.dep in ("conj", "xcomp", "acl", "relcl") and head.head != head.i:
        above = sentence.words[head.head]
        if head.dep in ("acl", "relcl"):
            # "a schoolteacher living in Porto": the one the noun is, when the noun is what the
            # subject is ("I am a ...")
            if above.dep in ("attr", "acomp") and (verb := sentence.words[above.head]) is not above:
                return subject_of(sentence, verb)
            return None
        return subject_of(sentence, above)
    return None


def _obliged(sentence: Sentence, head: Word) -> bool:
    """ "I've got to pay the council tax", "gotta call the bank": "('ve) got to" and a verb is
    "have to"."""
    if head.lower != "got":
        return False
    has = any(a.dep == "aux" and a.lemma.lower() == "have" for a in sentence.children(head.i))
    return any(
        x.pos in ("VERB", "AUX")
        and any(a.dep == "aux" and (a.lower == "ta" or (has and a.lower == "to"))
                for a in sentence.children(x.i))
        for x in sentence.children(head.i) if x.dep == "xcomp"
    )  # not "I got to see the Northern Lights": was able to


def _person(sentence: Sentence, subject: Word | None, head: Word) -> str:
    if subject is None:
        first = next(
            (w for w in sentence.words if w.pos not in ("PUNCT", "INTJ") and w.lower not in DISCOURSE), None
        )
        # "Booked the flights!", "passed micro!!!": a chat line in the past, its "I" left out; so
        # too when the parser hangs it on the clause after ("moved out in May, it's been quiet")
        if (
            (head.dep == "ROOT" and head.tag in ("VBD", "VBN") or head.dep == "advcl" and head.tag == "VBD")
            and first is head
            and any(c.dep in ("dobj", "prep", "prt") for c in sentence.children(head.i))
        ):
            return "i"
        # "got diagnosed with IBS in May", "got promoted last week!": the same, said with "got"
        if (
            head.dep == "ROOT"
            and head.tag == "VBN"
            and first is not None
            and first.lower == "got"
            and first.dep == "auxpass"
            and first.head == head.i
        ):
            return "i"
        # "Training for the Berlin marathon!", "Moving to Leeds next week": a chat line that opens
        # with its verb in -ing, its "I'm" left out
        if head.dep == "ROOT" and head.tag == "VBG" and first is head and not is_question(sentence):
            return "i"
        # "Need to renew my passport by Friday", "Have to call the bank", "gotta call the bank": a
        # need, its "I" left out
        if (
            head.dep == "ROOT"
            and first is head
            and (head.lemma.lower() in ("need", "have", "want") and head.tag in ("VB", "VBP")
                 or _obliged(sentence, head))
            and any(c.dep == "xcomp" for c in sentence.children(head.i))
            and not is_question(sentence)
        ):
            return "i"
        return "none"
    word = subject.lower
    if word in ("i", "me"):
        return "i"
    if word == "we":
        # "we make software for clinics", "we're based in Madrid": a company speaking, not a household
        return "other" if head.lemma.lower() in COMPANY_VERBS else "we"
    children = sentence.children(subject.i)
    named = [c for c in children if c.dep == "appos"]  # "my husband Dev and I": "and I" on the name
    if any(c.lower == "i" and c.dep == "conj" for c in [*children, *(g for a in named
                                                              for g in sentence.children(a.i))]):
        return "we"  # "my wife and I"
    if any(c.lower in ("my", "our") and c.dep == "poss" for c in children):
        return "my"  # "our son", "our dog": the household's, the person's as much as "my"
    return "other"


def _under_report(sentence: Sentence, head: Word) -> bool:
    """Whether the clause is said or guessed under another: "she says I ...", "I think I failed"."""
    word = head
    while word.dep in ("ccomp", "xcomp", "conj", "advcl") and word.head != word.i:
        above = sentence.words[word.head]
        if not any(c.dep in ("nsubj", "nsubjpass") for c in sentence.children(above.i)):
            word = above  # "Guess what, I moved ...": said to the listener, no one's report
            continue
        if (
            word.dep in ("ccomp", "xcomp")
            and above.lemma.lower() in REPORTING
            and above.lemma.lower() not in ("hope", "wish", "know")
        ):
            return True
        if word.dep == "ccomp" and above.lemma.lower() in ("hope", "wish"):
            return True
        word = above
    return False


def able_only(clause: Clause) -> bool:
    """ "I can't eat gluten": supposed by "can" alone, which says what the person is able to do, now
    (not "if I could", "I might", "I can't eat if I'm nervous")."""
    able = _HYPOTHETICAL_MODALS - {"ca", "can"}
    return clause.supposed and not _supposed(clause.sentence, clause.head, able)


def _supposed(sentence: Sentence, head: Word, modals: frozenset[str] = _HYPOTHETICAL_MODALS) -> bool:
    words = [w for w in sentence.words if w.pos not in ("PUNCT",) and w.lower not in DISCOURSE - {"maybe"}]
    if words and words[0].lower in _HYPOTHETICAL_OPENERS:
        return True
    for verb in [head, *(w for w in sentence.children(head.i) if w.dep == "xcomp")]:
        for clause in sentence.children(verb.i):
            if (
                clause.dep == "advcl"
                and any(
                    c.dep == "mark" and c.lower in _CONDITIONAL_MARKS for c in sentence.children(clause.i)
                )
                and not _to_the_listener(sentence, clause)
                and not _if_it_matters(sentence, clause)
            ):
                between = [w for w in sentence.words if head.i < w.i < clause.i or clause.i < w.i < head.i]
                if not any(w.lower in ("so", "but", "and") for w in between):
                    return True
    word = head
    while True:
        children = sentence.children(word.i)
        if any(c.dep == "mark" and c.lower in _CONDITIONAL_MARKS for c in children):
            return True
        if word.tag in ("VBP", "VBZ") and any(c.dep == "mark" and c.lower == "before" for c in children):
            return True  # "... before I'm 40": a time ahead, not what is true now ("before I moved" is)
        if word.dep == "advcl" and any(
            c.dep == "advmod" and c.tag == "WRB" and c.lower in ("when", "whenever") for c in children
        ):
            return True  # "... when my knee hurts": a condition of the clause above, said of no time
        if any(c.dep == "aux" and c.lower in modals for c in children) and not _would_like(
            sentence, word
        ):
            return True
        around = [*children, *(g for c in children if c.dep == "xcomp" for g in sentence.children(c.i))]
        if any(
            c.lower in ("someday", "maybe", "perhaps", "probably", "hopefully", "eventually")
            and c.dep in ("advmod", "npadvmod")
            for c in around
        ):
            return True
        if word.dep not in ("conj", "xcomp") or word.head == word.i:
            return False
        word = sentence.words[word.head]


def _to_the_listener(sentence: Sentence, clause: Word) -> bool:
    """ "..., if you're suggesting meals", "if you need to know": a condition on the telling (its
    subject is the one they talk to), not on what is told."""
    return any(
        c.dep in ("nsubj", "nsubjpass") and c.lower in ("you", "u") for c in sentence.children(clause.i)
    ) and clause.i > next((w.i for w in sentence.words if w.dep == "ROOT"), 0)


# What a telling may be for: "if that matters", "if it helps", "if that's relevant".
_OF_USE = frozenset({"matter", "help", "count", "relevant", "useful", "important", "helpful"})


def _if_it_matters(sentence: Sentence, clause: Word) -> bool:
    """ "I'm vegetarian, if that matters": a condition on whether the telling is of use, not on
    what is told."""
    parts = sentence.children(clause.i)
    if not any(c.dep == "nsubj" and c.lower in ("that", "it", "this") for c in parts):
        return False
    if any(c.dep in ("dobj", "ccomp", "xcomp") for c in parts) or any(
            c.dep == "prep" and c.lower == "to"
            and not any(o.lower in ("you", "u") for o in sentence.children(c.i))
            for c in parts):
        return False  # "if it helps the planet", "if that matters to her": a condition on something else
    return clause.lemma.lower() in _OF_USE or (
        clause.lemma.lower() == "be" and any(c.dep == "acomp" and c.lower in _OF_USE for c in parts))


def _would_like(sentence: Sentence, verb: Word) -> bool:
    """ "I'd like to", "I would love to": a wish said politely, not a hypothesis."""
    return verb.lemma.lower() in ("like", "love") and any(c.dep == "xcomp" for c in sentence.children(verb.i))


def negated(sentence: Sentence, head: Word) -> bool:
    """ "I don't", "I never", "I no longer", "not anymore"."""
    children = sentence.children(head.i)
    if head.lemma.lower() == "be":  # "I'm no longer vegetarian": the parser hangs it on the adjective
        children = [*children, *(g for c in children if c.dep in ("acomp", "attr")
                                 for g in sentence.children(c.i) if g.dep == "advmod")]
    around = [*children, *(g for c in children if c.dep == "advmod" for g in sentence.children(c.i))]
    return any(
        c.dep == "neg" or (c.lower in _NEGATIONS and c.dep in ("advmod", "neg", "det")) for c in around
    ) or any(c.lower == "anymore" for c in children)


_INVERTED = frozenset({"can", "could", "should", "would", "will", "shall", "may", "might", "do", "does",
                       "did", "is", "are", "am"})


def asked_after_a_comma(sentence: Sentence) -> int | None:
    """ "I'm coeliac, where could I get lunch near the station": a question typed with no question
    mark after a statement — a question word, then its verb before the subject — the comma before
    it. "I live in Leeds, where I grew up" is no question (its subject comes first)."""
    if sentence.text.rstrip().endswith("?"):
        return None
    words = sentence.words
    for comma in (w for w in words if w.text == ","):
        after = [w for w in words[comma.i + 1:] if w.pos not in ("PUNCT", "INTJ")]
        if (len(after) >= 3 and after[0].tag in ("WRB", "WP", "WDT") and after[1].lower in _INVERTED
                and after[2].pos == "PRON"):
            return comma.i
    return None


def stated_before_asked(sentence: Sentence) -> int | None:
    """Where the question starts in a line that states something and then asks ("I'm allergic to
    penicillin, how do I say that?"): the comma before a question's opener; None when none."""
    words = sentence.words
    if not sentence.text.rstrip().endswith("?"):
        return asked_after_a_comma(sentence)
    for comma in reversed([w for w in words if w.text == ","]):
        after = [w for w in words[comma.i + 1:] if w.pos not in ("PUNCT", "INTJ")]
        if len(after) >= 2 and after[0].lower in _QUESTION_OPENERS and (
            after[0].tag in ("WP", "WRB", "WDT") or after[1].pos == "PRON"
            # "..., is a kitten or an adult better?": a verb before its subject
            or (after[0].pos == "AUX" and after[1].pos == "DET")
        ) or (after and not any(w.pos in ("VERB", "AUX") for w in after)):  # "..., any tips?": no verb
            before = words[:comma.i]
            stated = any(w.dep in _SUBJECTS and w.head < comma.i for w in before) and any(
                w.pos in ("VERB", "AUX") for w in before)
            return comma.i if stated else None
    return None


def clauses(sentence: Sentence) -> Iterator[Clause]:
    """The clauses of a sentence, each with its subject and what it asserts."""
    asked = is_question(sentence)
    stated_before = stated_before_asked(sentence) if asked else None
    for head in sentence.words:
        if head.dep not in _CLAUSE_DEPS or head.pos not in ("VERB", "AUX"):
            continue
        if (
            head.dep == "xcomp"
            and subject_of(sentence, head) is not None
            and not [w for w in sentence.children(head.i) if w.dep in _SUBJECTS]
        ):
            continue  # "want to learn": part of the clause above it
        subject = subject_of(sentence, head)
        yield Clause(
            sentence,
            head,
            subject,
            _person(sentence, subject, head),
            negated(sentence, head),
            _supposed(sentence, head),
            # what is stated before the question is not what the question says or asks
            _under_report(sentence, head) and not (
                stated_before is not None and head.i < stated_before and not any(
                    a.i < stated_before and a.lemma.lower() in REPORTING for a in sentence.ancestors(head.i))
            ),
            asked and not (stated_before is not None and head.i < stated_before),
        )


def is_noise(word: Word) -> bool:
    return (
        word.lower in CHAT_NOISE
        or (word.pos == "SYM")
        or not any(ch.isalnum() for ch in word.text)
        and word.pos != "PUNCT"
    )
