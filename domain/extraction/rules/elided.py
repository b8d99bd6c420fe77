"""Chat leaves out the subject a sentence about oneself would have: "doing a nursing degree at
Monash", "got a new housemate last week", "been vegetarian since school". Such a line is the
person's own, and reads as they meant it once the subject is put back ("I'm doing ...", "I got
...", "I've been ..."): it is parsed again with it, and the rules read it like any other.

Only a statement whose main verb comes first and has no subject of its own: an -ing form, a past
tense, a participle ("settled in Leeds now": "I'm"; "finished the draft": "I've"), or "been". An
order ("remind me", "make it a table": the bare verb), a question, and a line whose verb has a
subject ("Sounds good", "the flat is nice") are left as they came. One line with no verb at all is
the person's too: their animals or children listed by count and name ("two cats, Miso and Tofu"),
which is what they have ("I have two cats, ...").
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.extraction import lexicon as lex
from domain.extraction.clauses import is_question
from domain.text.parse import Parser, Sentence, Word

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj", "csubjpass"})
# What may come before the verb of a line without a subject: "- ", "also", "just", "and", "today".
_BEFORE = frozenset({"punct", "cc", "advmod", "intj", "npadvmod"})


def _elided(sentence: Sentence) -> str | None:
    """The subject to put back at the start of a sentence that lost it ("I'm", "I", "I've"), or
    None when it has one or is no statement of the person's."""
    words = sentence.words
    root = next((w for w in words if w.dep == "ROOT"), None)
    if root is None or is_question(sentence):
        return None
    if _named_ones_listed(sentence, root):
        return "I have"
    if any(c.dep in _SUBJECTS for c in sentence.children(root.i)):
        opening = _opening_verb(sentence, root)
        if opening is None:
            return None
        root = opening
    if _unable_first(words, root, sentence):
        return "I"  # "cant eat nuts, allergic": no order says "can't"
    first = _verb_first(words, root)
    if first is None and (opening := _opening_verb(sentence, root)) is not None:
        root, first = opening, opening  # "living in Townsville now, moved up on the 22nd"
    if first is None:
        return None
    if root.tag in ("VB", "VBP") and first is root and root.lemma.lower() in lex.LIKING and _in_general(
            sentence, root):
        return "I"  # "hate cold weather tbh", "love hiking at weekends": no one is ordered to love
    if root.tag in ("VB", "VBP") and first is root and _of_oneself(sentence, root):
        return "I"  # "live in Graz with my boyfriend", "quit vaping": no one is ordered to
    if first.lower == "been":
        return "I've"
    if root.tag == "VBG" and first is root:
        return "I'm"
    if root.tag == "VBD" and first is root:
        return "I"
    if root.tag == "VBN" and first is root:
        # "retired in 2021": done then, a past tense read as a participle; "settled in Leeds now",
        # "based in Hastings": how one is; "finished the draft": done
        if any(w.ent == "DATE" for w in words):
            return "I"
        return "I'm" if root.lower in _STATES else "I've"
    return None


def _in_general(sentence: Sentence, verb: Word) -> bool:
    """Whether what a feeling is about is a kind of thing ("cold weather", "hiking"), not the thing
    just shown or said ("Love that painting!", "Love the colours", "love it"): a reaction to it is
    no lasting taste."""
    objects = [c for c in sentence.children(verb.i) if c.dep in ("dobj", "xcomp", "ccomp")]
    if not objects:
        return False
    return not any(o.pos == "PRON" or any(c.dep in ("det", "poss") for c in sentence.children(o.i))
                   for o in objects)


def _of_oneself(sentence: Sentence, verb: Word) -> bool:
    """A bare verb that tells of the one speaking, not an order: where one lives or works, named
    ("live in Gothenburg", "work at a bakery in Leeds"), or a habit one quit ("quit vaping")."""
    lemma = verb.lemma.lower()
    own = sentence.children(verb.i)
    if lemma == "quit":
        quit_things = lex.GIVEN_UP | lex.FOODS
        return any(c.dep in ("dobj", "xcomp") and (c.tag == "VBG" or c.lower in quit_things
                                                   or c.lemma.lower() in quit_things) for c in own)
    if lemma not in ("live", "work"):
        return False
    for prep in own:
        if prep.dep != "prep" or prep.lower not in ("in", "at", "for", "on", "near"):
            continue
        for place in sentence.children(prep.i):
            if place.dep == "pobj" and (place.ent in ("GPE", "LOC", "ORG", "FAC") or (
                    lemma == "work" and place.lemma.lower() in lex.WORKPLACES)):
                return True
    return False


def _unable_first(words: Sequence[Word], root: Word, sentence: Sentence) -> bool:
    """ "cant eat nuts", "can't drive": a line that opens with "can't" and its verb."""
    opening = [w for w in words if w.dep not in ("punct", "cc", "intj")]
    if len(opening) < 3 or opening[0].lower not in ("ca", "can") or opening[0].dep != "aux":
        return False
    return opening[0].head == root.i and root.tag == "VB" and any(
        c.dep == "neg" for c in sentence.children(root.i))


# Participles that say how one is now, put back with "I'm" rather than "I've".
_STATES = frozenset({"settled", "based", "retired", "married", "engaged", "divorced", "separated",
                     "unemployed", "employed", "stuck", "sorted", "booked", "registered", "enrolled"})


def _named_ones_listed(sentence: Sentence, root: Word) -> bool:
    """A line that is only a count of the person's animals or children with their names: "two
    cats, Miso and Tofu", "three kids, Finn, Nell and Jo", said as a reply: what they have."""
    first = next((w for w in sentence.words if w.dep not in _BEFORE), None)
    if root.pos != "NOUN" or root.tag != "NNS" or first is None:
        return False
    if first.dep != "nummod" or first.head != root.i:
        return False  # the count opens the line
    if root.lemma.lower() not in lex.CHILDREN and root.lemma.lower() not in lex.PETS:
        return False
    return any(c.dep in ("appos", "conj") and c.pos == "PROPN" for c in sentence.children(root.i))


def _opening_verb(sentence: Sentence, root: Word) -> Word | None:
    """ "quit energy drinks this week, dr said no monsters": a line that opens with a verb with no
    subject, in a part of its own before a comma, and goes on with a subject of its own: the first
    part is the person's, with the subject chat left out."""
    first = next((w for w in sentence.words if w.dep not in _BEFORE), None)
    if first is None or first.pos != "VERB" or first.i >= root.i or first.dep not in (
            "ccomp", "advcl", "conj", "parataxis"):
        return None
    if any(c.dep in _SUBJECTS for c in sentence.children(first.i)):
        return None
    return first if _opening_end(sentence, first) is not None else None


def _opening_end(sentence: Sentence, first: Word) -> int | None:
    """Where the opening part ends: the comma after its words (and an adverb the parser hung on the
    next part: "living in Dundee now, ...")."""
    at = max(w.i for w in sentence.subtree(first.i)) + 1
    while at < len(sentence.words) and sentence.words[at].pos == "ADV":
        at += 1
    return at if at < len(sentence.words) and sentence.words[at].text in (",", ";", "-", "–", "—") else None


def _verb_first(words: Sequence[Word], root: Word) -> Word | None:
    """The first word of the verb, when only punctuation and small words come before it."""
    for word in words:
        if word.i == root.i or (word.lower == "been" and word.head == root.i):
            return word
        if word.dep not in _BEFORE:
            return None
    return None


def with_subjects(parsed: list[list[Sentence]], parser: Parser) -> list[list[Sentence]]:
    """Each text's sentences, those that lost their subject parsed again with it put back."""
    asked: list[str] = []
    where: list[tuple[int, int]] = []
    for t, sentences in enumerate(parsed):
        for s, sentence in enumerate(sentences):
            subject = _elided(sentence)
            if subject is not None:
                asked.append(_restored(sentence, subject))
                where.append((t, s))
    if not asked:
        return parsed
    again = dict(zip(where, parser.parse(asked), strict=True))
    return [
        [part for s, sentence in enumerate(sentences) for part in again.get((t, s), [sentence])]
        for t, sentences in enumerate(parsed)
    ]


def _restored(sentence: Sentence, subject: str) -> str:
    """The sentence from its verb on, with the subject before it: "- doing a degree" -> "I'm
    doing a degree" (what came before the verb was a bullet or a small word: "also", "just"). A
    first part that lost its subject before a part that has one ends where its comma was, a
    sentence of its own: the parser would otherwise hang the first part's words on the second's."""
    words = sentence.words
    start = next(w.i for w in words if w.dep not in _BEFORE or w.lower == "been" or w.dep == "ROOT")
    kept = [w for w in words[:start] if w.dep in ("advmod", "npadvmod") and w.pos != "PUNCT"]
    root = next((w for w in words if w.dep == "ROOT"), None)
    opening = _opening_verb(sentence, root) if root is not None else None
    cut = _opening_end(sentence, opening) if opening is not None else None
    if cut is not None:
        first = "".join(w.text + w.space for w in words[start:cut]).strip()
        second = "".join(w.text + w.space for w in words[cut + 1:]).strip()
        rest = f"{first}. {second[:1].upper()}{second[1:]}"
    else:
        rest = "".join(w.text + w.space for w in words[start:]).strip()
    verb = rest[:1].lower() + rest[1:]
    extra = "".join((w.text if w.pos == "PROPN" else w.lower) + " " for w in kept)
    return f"{subject} {extra}{verb}"
