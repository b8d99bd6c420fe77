"""The people and animals in the person's life, by name: "my sister Anna", "a dog named Biscuit"."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.extraction import lexicon as lex
from domain.extraction.candidate import Candidate
from domain.extraction.clauses import Clause, is_question, stated_before_asked
from domain.extraction.render import Dated, clause_words, in_a_list, third_person
from domain.extraction.rules.said import (
    Said,
    candidate,
    children,
    names_a_thing,
    one,
)
from domain.extraction.rules.said import place as said_place
from domain.model import MemoryKind
from domain.text.parse import Sentence, Word, joined

# --- the people and animals in their life --------------------------------------------------------------


def _named(said: Said, word: Word) -> str | None:
    """The name given to a relative or a pet: "my sister Anna", "a dog named Biscuit", "my boss,
    Grace Hopper", "my physio is called Dr. Okafor"."""
    sentence = said.sentence
    if (called := _someone_called(sentence, word)) is not None:
        return called.text.capitalize() if called.text.islower() else called.text
    for child in sentence.children(word.i):
        if (
            child.dep == "appos"
            # a name the small model does not know is read as a noun ("my girlfriend Saoirse")
            and (child.pos == "PROPN" or (_a_name_read_as_noun(child) and child.i == word.i + 1))
            and not (any(c.dep in ("conj", "cc") for c in sentence.children(child.i))
                     and not _named_then_i(sentence, word, child))
        ):  # "my girlfriend, Toby and I": a list, not a name; "my husband Dev and I": a name
            return _full_name(said, child)
        if child.dep == "acl" and child.lemma.lower() in ("name", "call"):
            named = [
                w
                for w in sentence.children(child.i)
                if w.dep in ("oprd", "attr", "dobj", "xcomp")
                and (w.pos == "PROPN" or _a_name_read_as_noun(w) and w.i > 0)  # "a rabbit called Biscuit"
            ]
            if named:
                return _full_name(said, named[0])
    head = sentence.words[word.head]
    if (word.dep == "compound" or _name_read_after(sentence, word)) and head.pos == "PROPN":
        return _full_name(said, head)
    if word.dep == "compound" and _a_name_read_as_noun(head) and head.i == word.i + 1:
        return head.text  # "our dog Rex", the name read as a noun the dog's word hangs on
    if word.dep == "poss" and head.lemma.lower() == "name" and head.dep == "nsubj":
        verb = sentence.words[head.head]  # "my dog's name is Rex"
        given = [w for w in sentence.children(verb.i)
                 if w.dep == "attr" and (w.pos == "PROPN" or _a_name_read_as_noun(w))]
        if verb.lemma.lower() == "be" and verb.tag in ("VBZ", "VBP") and given and not said.clause.asked \
                and not _supposed_or_denied(sentence, verb):  # "my grandmother's name was Roshan": gone
            return _full_name(said, given[0])
    if word.dep == "appos" and head.pos == "PROPN" and head.i < word.i:
        return _full_name(said, head)  # "Pip, my budgie, has been ...": the name said first
    after = sentence.words[word.i + 1] if word.i + 1 < len(sentence.words) else None
    if (
        after is not None
        and after.pos == "PROPN"
        and after.dep == word.dep
        and after.head == word.head
        and word.dep in ("nsubj", "dobj")
    ):
        return _full_name(said, after)  # "my cat Mochi walked ...", parsed as two subjects
    if (
        after is not None
        and after.pos == "PROPN"
        and after.head == word.head
        and word.dep in ("npadvmod", "dep")
        and after.dep in ("nsubj", "nsubjpass", "dobj")
    ):
        return _full_name(said, after)  # "my girlfriend Anke thinks ...", as chat writes it, lower case
    if word.dep in ("nsubj", "nsubjpass"):
        if head.lemma.lower() == "be" and not said.clause.asked:
            attr = [w for w in sentence.children(head.i) if w.dep == "attr" and w.pos == "PROPN"]
            if attr:
                return _full_name(said, attr[0])
        if head.lemma.lower() in ("call", "name") and head.tag == "VBN":
            named = [
                w
                for w in sentence.children(head.i)
                if w.dep in ("oprd", "attr", "xcomp") and w.pos == "PROPN"
            ]
            if named:
                return _full_name(said, named[0])
    return None


# Who is over the person at work, said without "my" as often as with it.
_OVER_ONE = frozenset({"boss", "manager", "supervisor"})
# The kind of person someone is said to be before their name is given.
_SOMEONE = frozenset({"guy", "man", "woman", "lady", "bloke", "girl", "boy", "fella", "fellow", "chap",
                      "dude", "gal", "person"})


def _someone_called(sentence: Sentence, word: Word) -> Word | None:
    """The name in "my manager's a guy named Dev", "boss up here is a woman called Priya", "my new
    neighbour is a lovely old man called Ted": what kind of person one of theirs is, then their name
    (which after "named" or "called" is a name however it is typed). Read along the words, which the
    parser often gets wrong ("manager's" taken for a possessive). Not "was" (someone they had)."""
    words = sentence.words
    at = word.i + 1
    while at < len(words) and words[at].pos == "ADV":  # "boss up here is ..."
        at += 1
    if at >= len(words) or words[at].lower not in ("is", "'s", "’s"):
        return None
    at += 1
    if at >= len(words) or words[at].lower not in ("a", "an"):
        return None
    at += 1
    while at < len(words) and words[at].pos == "ADJ":
        at += 1
    if at + 2 >= len(words) or words[at].lemma.lower() not in _SOMEONE:
        return None
    if words[at + 1].lower not in ("named", "called"):
        return None
    name = words[at + 2]
    return name if name.text.isalpha() and name.pos in ("PROPN", "NOUN") and name.lower not in (
        "something", "someone") else None


def _named_here(sentence: Sentence, word: Word) -> bool:
    """Whether a name comes right after the noun ("our boy Kofi")."""
    after = sentence.words[word.i + 1] if word.i + 1 < len(sentence.words) else None
    return after is not None and (after.pos == "PROPN" or _a_name_read_as_noun(after))


def _name_read_after(sentence: Sentence, word: Word) -> bool:
    """ "my parrot Captain": an animal's word the small model read as an adjective of the name."""
    head = sentence.words[word.head]
    return word.pos == "ADJ" and word.lemma.lower() in lex.PETS and word.dep == "amod" and (
        head.i == word.i + 1 and head.pos == "PROPN")


def _mine(sentence: Sentence, word: Word) -> bool:
    """Whether a noun is said with "my" or "our": "my dog Rex", where the parser may hang "my" on
    the name and make the noun a compound of it."""
    head = sentence.words[word.head]
    named_after = word.dep == "compound" or _name_read_after(sentence, word)
    held = head if named_after and (head.pos == "PROPN" or _a_name_read_as_noun(head)) else word
    return any(c.lower in ("my", "our") and c.dep == "poss"
               for c in (*sentence.children(word.i), *sentence.children(held.i)))


def _a_name_read_as_noun(word: Word) -> bool:
    """A name the small model does not know, read as a noun: written with one capital ("Saoirse",
    "Biscuit"), which inside a sentence only a name has."""
    return word.pos == "NOUN" and word.text[:1].isupper() and word.text[1:].islower()


def _a_name_typed_in_lower_case(sentence: Sentence, word: Word, name: str) -> bool:
    """ "my gf maya is doing the groceries", "our dog bruno ate my boots": a name right after the
    word for who or what it is, read by the parser as a name, in a sentence typed in lower case
    (where no name has its capital). Not a word of a sentence written with capitals ("my
    girlfriend really likes it"), nor one the parser reads as anything but a name."""
    after = sentence.words[word.i + 1] if word.i + 1 < len(sentence.words) else None
    if after is None or after.text != name or after.pos != "PROPN":
        return False
    if not name.isalpha() or not name.islower():
        return False
    first = next((w for w in sentence.words if w.text[:1].isalpha()), None)
    capitals = [w for w in sentence.words if w.text[:1].isupper() and w.text != "I"]
    return first is not None and (first.text[:1].islower() or (first.text == "I" and not capitals))


def _named_then_i(sentence: Sentence, word: Word, name: Word) -> bool:
    """ "my husband Dev and I": the name right after the noun, then "and I" — one person named, not
    a list after a comma ("my girlfriend, Toby and I")."""
    joined_to = [c for c in sentence.children(name.i) if c.dep == "conj"]
    return name.i == word.i + 1 and bool(joined_to) and all(c.lower in ("i", "me") for c in joined_to)


def _full_name(said: Said, word: Word) -> str:
    words = [
        w
        for w in said.sentence.subtree(word.i)
        if w.pos == "PROPN" or (w.pos == "PUNCT" and w.text in (".", "-")) and w.i <= word.i
    ] or [word]
    words = [w for w in words if w.i <= word.i or w.head == word.i and w.pos == "PROPN"]
    # one run of words: "Pepper, a Jack Russell" names Pepper (the breed set beside is no surname)
    kept = {word.i}
    for w in sorted(words, key=lambda w: abs(w.i - word.i)):
        if w.i - 1 in kept or w.i + 1 in kept:
            kept.add(w.i)
    words = [w for w in words if w.i in kept] or [word]
    return joined(words).strip(" ,-")  # "Owusu-Ansah", "Jean-Luc": the hyphen is the name's


_GONE = frozenset({"late", "ex", "former", "deceased", "dead"})
_DYING = frozenset({"die", "pass", "decease"})


def _gone(sentence: Sentence, word: Word) -> str | None:
    """Whether the one named is no longer the person's: "my late husband", "my ex-wife", "my
    husband Ernesto died" — "late", "ex", "died", or None."""
    for child in sentence.children(word.i):
        if child.lower in _GONE or (
            child.lower == "-" and child.i > 0 and sentence.words[child.i - 1].lower == "ex"
        ):
            return "ex" if child.lower in ("ex", "former", "-") else "late"
    if word.i >= 2 and sentence.words[word.i - 1].text == "-" and sentence.words[word.i - 2].lower == "ex":
        return "ex"
    holder = sentence.words[word.head] if word.dep in ("nsubj", "nsubjpass") else None
    if word.dep == "compound":
        name = sentence.words[word.head]
        holder = sentence.words[name.head] if name.dep in ("nsubj", "nsubjpass") else None
    elif holder is None and word.dep == "appos":
        holder = None
    if holder is not None and holder.lemma.lower() in _DYING:
        return "died"
    for child in sentence.children(word.i):
        if child.dep == "appos":
            up = sentence.words[word.head]
            if word.dep in ("nsubj", "nsubjpass") and up.lemma.lower() in _DYING:
                return "died"
    return None


def _put_down(sentence: Sentence, animal: Word) -> bool:
    """ "we had to put our dog Bruno down", "we had our cat put to sleep", "our dog Max was put
    down": an animal put down is one that died ("put the dog down for a nap" is no death)."""
    held = sentence.words[animal.head] if animal.dep == "compound" else animal  # "my dog Rex": Rex is put
    verb = sentence.words[held.head]
    causative = held.dep == "dobj" and verb.lemma.lower() == "have"
    if held.dep == "nsubj" and verb.dep == "ccomp" and sentence.words[verb.head].lemma.lower() == "have":
        causative = True  # "we had our dog Bruno put down", read as a clause of its own
    elif causative:
        # "had our cat (Luna) put to sleep": the putting hangs on the animal or its name
        verb = next((w for w in sentence.subtree(held.i) if w.lemma.lower() == "put"), verb)
    elif held.dep not in ("dobj", "nsubjpass"):
        return False
    if verb.lemma.lower() != "put":
        return False
    below = [*sentence.children(verb.i), *sentence.children(held.i)]
    if any(c.lower == "for" for c in below):
        return False  # down for a nap, for the night
    if verb.dep != "xcomp" and held.dep != "nsubjpass" and not causative:
        return False  # "I put my cat down and he ran off": set down; "had to put ... down" is not
    return any(c.lower == "down" and c.dep in ("prt", "advmod") for c in below) or any(
        c.lower == "to" and any(g.lower == "sleep" for g in sentence.children(c.i)) for c in below
    )


# An age written in words ("turned three"), kept in digits as an age is written in a memory.
_AGE_WORDS = {w: str(n) for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))}


def _years(word: Word) -> str | None:
    """The age a number says ("5", "three"), if it can be one."""
    text = _AGE_WORDS.get(word.lower, word.text)
    return text if word.pos == "NUM" and text.isdigit() and 0 < int(text) < 120 else None


def _age(sentence: Sentence, word: Word) -> str | None:
    """ "my daughter is 7", "my son Leo is 12 years old": the age said of a relative."""
    subject = word
    if word.dep == "compound" and sentence.words[word.head].pos == "PROPN":
        subject = sentence.words[word.head]
    if subject.dep != "nsubj":
        return None
    verb = sentence.words[subject.head]
    if _supposed_or_denied(sentence, verb) or is_question(sentence):
        return None
    if verb.lemma.lower() == "turn" and verb.tag in ("VBD", "VBG"):  # "my son turned 5 last week": 5 now
        return _turned(sentence, verb)
    return _age_told(sentence, verb) if verb.lemma.lower() == "be" else None


def _turned(sentence: Sentence, verb: Word) -> str | None:
    """The age a "turn" tells: "turned 5" (5 now), "is turning 7" (turning 7: 6 until then)."""
    age = next((age for c in sentence.children(verb.i)
                if c.dep in ("dobj", "attr", "oprd", "npadvmod") and (age := _years(c))), None)
    if age is None:
        return None
    return f"turning {age}" if verb.tag == "VBG" else age


def _supposed_or_denied(sentence: Sentence, verb: Word) -> bool:
    """Whether an age's "be" is no statement of it: "my son isn't 12", "if my son were 12", "when
    my son is 12"."""
    return verb.lower == "were" or any(c.dep in ("neg", "mark") for c in sentence.children(verb.i))


def _age_told(sentence: Sentence, verb: Word) -> str | None:
    """The age a "be" tells: "is 7", "is 12 years old"."""
    for c in sentence.children(verb.i):
        if c.dep == "attr" and c.pos == "NUM":
            return _years(c) or c.text
        if c.dep == "acomp" and c.lower == "old":
            number = [w for w in sentence.subtree(c.i) if w.pos == "NUM"]
            if number:
                return f"{number[0].text} years old"
    return None


# Who "he" or "she" can be, where the word says (a kid, a partner, a cousin can be either).
_HE = frozenset({"son", "brother", "father", "dad", "husband", "boyfriend", "uncle", "nephew", "grandson",
                 "grandfather", "grandpa", "stepson", "fiance", "fiancé"})
_SHE = frozenset({"daughter", "sister", "mother", "mom", "mum", "wife", "girlfriend", "aunt", "niece",
                  "granddaughter", "grandmother", "grandma", "stepdaughter", "fiancee", "fiancée"})


def _age_said_after(sentence: Sentence, word: Word, relation: str, name: str) -> str | None:
    """ "my son Leo, he's 7": an age told of one of the person's people in a clause of its own
    after the name, by "he" or "she"; only when no one else was named between them."""
    if is_question(sentence):
        return None
    for pronoun in sentence.words[word.i + 1:]:
        if pronoun.lower not in ("he", "she") or pronoun.dep != "nsubj":
            continue
        if relation in (_SHE if pronoun.lower == "he" else _HE):
            return None
        if _another_between(sentence.words[word.i + 1 : pronoun.i], name):
            return None  # "my son Leo and his friend Finn, he's 9": which one?
        verb = sentence.words[pronoun.head]
        turning = verb.lemma.lower() == "turn" and verb.tag == "VBG"  # "my daughter Mia, she's turning 9"
        if verb.lemma.lower() != "be" and not turning:
            continue  # "my son Leo will help, he's 15": what else is said of him comes first
        if _supposed_or_denied(sentence, verb) or not _said_outright(sentence, verb):
            return None
        return _turned(sentence, verb) if turning else _age_told(sentence, verb)
    return None


def _holders(sentence: Sentence, word: Word, name: str) -> list[Word]:
    """The words that stand for one of theirs: the relation's noun and the words of the name."""
    return [word, *(w for w in sentence.words if w.text in name.split())]


def _age_beside(sentence: Sentence, word: Word, name: str) -> str | None:
    """An age set beside the name: "my daughter Camila, 16, wants to ..." (a number of its own
    between commas), "my granddaughter Lily, who is nine"."""
    holders = _holders(sentence, word, name)
    for holder in holders:
        for c in sentence.children(holder.i):
            if (c.dep == "appos" and c.pos == "NUM" and c.i > 0 and sentence.words[c.i - 1].text == ","
                    and (age := _years(c))):
                return age
            if (c.dep == "relcl" and c.lemma.lower() == "be"
                    and any(w.dep == "nsubj" and w.lower in ("who", "that") for w in sentence.children(c.i))
                    and not _supposed_or_denied(sentence, c) and (age := _age_told(sentence, c))):
                return age
    return None


def _another_between(words: Sequence[Word], name: str) -> bool:
    """Whether someone other than the one named comes up in these words."""
    others = lex.OWN_PEOPLE | lex.CASUAL | set(lex.PETS)
    return any(w.pos == "PROPN" and w.text not in name.split() for w in words) or any(
        w.pos == "NOUN" and w.lemma.lower() in others for w in words
    )


def _aged(found: Candidate | None, age: str | None) -> Candidate | None:
    if found is None or age is None:
        return found
    told = age if age.startswith("turning ") else f"aged {age.removesuffix(' years old')}"
    return found.model_copy(update={"content": f"{found.content}, {told}"})


# Ways of coming that say where from: a visit comes from home ("is coming down from Aberdeen next week").
_COMING = frozenset({"come", "fly", "drive", "travel", "visit"})
_ON_THE_WAY = frozenset({"up", "down", "over", "home", "back", "across"})


# How long a visit is said to last: "for three days", "for the weekend".
_SPANS = frozenset({"day", "days", "week", "weeks", "weekend", "night", "nights", "fortnight", "month"})
# Who "he" or "she" cannot be: a son is no "she", a sister no "he".
_NOT_SAID_OF = {
    **dict.fromkeys(("son", "brother", "husband", "boyfriend", "dad", "father", "uncle", "nephew", "grandad",
                     "grandson", "grandfather", "stepson", "stepdad", "fiance", "fiancé"), "she"),
    **dict.fromkeys(("daughter", "sister", "wife", "girlfriend", "mum", "mom", "mother", "aunt", "auntie",
                     "niece", "nan", "grandma", "granddaughter", "grandmother", "stepdaughter", "stepmum",
                     "fiancee", "fiancée"), "he"),
}


# Moving to a place to be near someone: they live there.
_MOVING = frozenset({"move", "relocate", "come", "settle"})
# A stay at someone's ("crash at his", "stay at hers"): at their home.
_STAYING = frozenset({"stay", "crash", "sleep", "live", "lodge", "kip"})
_HIS_OR_HERS = {"his": "he", "hers": "she", "him": "he", "her": "she"}


def _where_near(said: Said, word: Word) -> str | None:
    """Where a named one of theirs lives, said by where the person would go to be near them or
    stays at theirs: "my daughter Karen keeps saying I should move down to Tucson near her", "...
    asking us to move to Bristol to be near her and the grandchildren", "my cousin Dev says I can
    crash at his in Nottingham". "Her" or "him" must fit them (a son is no "her"), and be the one
    near, not their work ("near her work")."""
    sentence = said.sentence
    for pronoun in sentence.words[word.i + 1:]:
        said_of = _HIS_OR_HERS.get(pronoun.lower)
        if said_of is None or pronoun.dep != "pobj" or said_of == _NOT_SAID_OF.get(word.lemma.lower()):
            continue
        prep = sentence.words[pronoun.head]
        near = prep.lower == "near" or (prep.lower == "to" and sentence.words[prep.head].lemma.lower() in
                                        ("close", "near"))
        at_theirs = prep.lower == "at" and pronoun.lower in ("his", "hers")
        if not near and not at_theirs:
            continue
        verb = sentence.words[prep.head]
        while verb.pos not in ("VERB", "AUX") and verb.head != verb.i:
            verb = sentence.words[verb.head]
        if near and verb.lemma.lower() == "be" and verb.dep == "advcl":
            verb = sentence.words[verb.head]  # "move to Bristol to be near her"
        wanted = ("to",) if near else ("in",)
        if verb.lemma.lower() not in (_MOVING if near else _STAYING):
            continue
        for c in sentence.children(verb.i):
            if c.dep == "prep" and c.lower in wanted and (place := said_place(said, c, named=True)):
                return f"lives in {place}"
    return None


def _lives(said: Said, word: Word, name: str) -> str | None:
    """Where a named one of theirs lives, said of them in the same sentence: "my son Tariq
    lives in Leeds", "... is in Leeds", "my son Leo, who lives in Bristol, ...", "my daughter Ines
    is coming down from Aberdeen next week" (a visit comes from home): "who lives in Leeds". Not where
    they are for a while ("is in Paris this week", "is in Rome for work"), were ("lived in Rome"),
    will be, or might be; "my wife comes from Kraków" is where she is from: "who comes from Kraków"."""
    sentence = said.sentence
    holders = _holders(sentence, word, name)
    # "my sister Kate in Bristol just had a baby": a named place right after them is where they live
    beside = [p for w in holders for c in sentence.children(w.i) if c.dep == "prep" and c.lower == "in"
              and c.i == max(h.i for h in holders) + 1 and (p := said_place(said, c, named=True))]
    if beside:
        return f"lives in {beside[0]}"
    if near := _where_near(said, word):
        return near
    verbs = [sentence.words[w.head] for w in holders if w.dep in ("nsubj", "appos") and w.head != w.i]
    verbs += [c for w in holders for c in sentence.children(w.i) if c.dep == "relcl"]
    # "my son Declan is driving me, he lives in Limerick": the one named, taken up by "he" or "she"
    verbs += [sentence.words[w.head] for w in sentence.words
              if w.i > word.i and w.dep == "nsubj" and w.head != w.i
              and w.lower in ("he", "she") and w.lower != _NOT_SAID_OF.get(word.lemma.lower())]
    # "is 7 and lives in Cardiff"
    verbs += [c for v in verbs for c in sentence.children(v.i) if c.dep == "conj" and c.pos in ("VERB", "AUX")
              and not any(s.dep.startswith("nsubj") for s in sentence.children(c.i))]
    for verb in verbs:
        if verb.dep == "relcl":
            if not any(c.lower in ("who", "that") and c.dep == "nsubj" for c in sentence.children(verb.i)):
                continue
        elif not _said_outright(sentence, verb):
            continue
        parts = sentence.children(verb.i)
        a_while = any(c.ent in ("DATE", "TIME") or (c.dep == "prep" and c.lower in ("for", "until", "till"))
                      for c in parts)
        # "my son Bao came from San Diego for three days": a visit, over now, from home
        came_a_while = verb.tag == "VBD" and verb.lemma.lower() in _COMING and any(
            c.dep == "prep" and c.lower == "for"
            and any(w.ent in ("DATE", "TIME") or w.lemma.lower() in _SPANS for w in sentence.subtree(c.i))
            for c in parts)
        if verb.tag in ("VBD", "VBN", "MD") and not came_a_while or _supposed_or_denied(sentence, verb):
            continue
        if any(c.dep == "aux" and (c.tag in ("MD", "VBD") or c.lower in ("had", "has", "have"))
               for c in parts):
            continue  # "might be in Leeds", "has lived in Leeds": no statement of where they live now
        lemma = verb.lemma.lower()
        preps = [c for c in parts if c.dep == "prep"]
        if not a_while and (doing := _doing_there(said, verb)):
            return doing
        if lemma == "live":
            place = next((p for c in preps if c.lower == "in" and (p := said_place(said, c, named=True))),
                         None)
            return f"lives in {place}" if place else None
        if lemma == "be" and not a_while:
            place = next((p for c in preps if c.lower == "in" and (p := said_place(said, c))), None)
            return f"lives in {place}" if place else None
        if lemma in _COMING:
            place = next((p for c in preps if c.lower == "from" and (p := said_place(said, c, named=True))),
                         None)
            if place is None:
                continue
            visiting = a_while or verb.tag == "VBG" or any(
                c.dep == "prt" and c.lower in _ON_THE_WAY for c in parts)
            return f"lives in {place}" if visiting else f"comes from {place}"
    return None


# What one of theirs does in a place, which says where they are: "studies law in Wrocław".
_DOING = frozenset({"study", "work", "teach"})
# Where a clause said of them stops: "she studies law in Wrocław, but ...".
_CLAUSE_ENDS = frozenset({"but", "and", "so", "because", "although", "though", "while"})


def _doing_there(said: Said, verb: Word) -> str | None:
    """What one of theirs does, said with the named place they do it in, in the present: "she
    study law in Wrocław" -> "studies law in Wrocław", "she is accountant in Marseille" -> "is an
    accountant in Marseille", "works in Leeds as a plumber". Nothing for "is happy in Leeds" (no
    one's work), or with no place named."""
    sentence = said.sentence
    lemma = verb.lemma.lower()
    attr = next((c for c in sentence.children(verb.i) if c.dep == "attr"), None)
    if lemma == "be" and (attr is None or attr.pos != "NOUN" or attr.i != verb.i + 1 + sum(
            1 for c in sentence.children(attr.i) if c.dep == "det")):
        return None
    if lemma not in _DOING and lemma != "be":
        return None
    inside = {w.i for w in sentence.subtree(verb.i)}
    span: list[Word] = []
    for w in sentence.words[verb.i + 1:]:
        if w.i not in inside or w.pos == "PUNCT" or w.lower in _CLAUSE_ENDS or w.dep == "nsubj":
            break
        span.append(w)
    places = [w for w in span if w.dep == "prep" and w.lower == "in" and said_place(said, w, named=True)]
    if not places or any(w.ent in ("DATE", "TIME") for w in span):
        return None
    if lemma == "be" and attr is not None and not any(c.dep == "det" for c in sentence.children(attr.i)):
        article = "an" if attr.lower[:1] in "aeiou" else "a"
        return f"is {article} {joined(span)}"
    return f"{third_person(verb)} {joined(span)}"


def _described(found: Candidate | None, sentence: Sentence, word: Word, pet: str, age: str | None
               ) -> Candidate | None:
    """A pet's memory with the breed it was called by and its age: "Has a dog named Pip, a
    3-year-old whippet", "... , a beagle", "Has a cat named Miso, aged 12"."""
    if found is None:
        return None
    before = _age_before(sentence, word)
    age = before or (age.removesuffix(" years old") if age else None)
    breed = word.lower if word.lemma.lower() in lex.BREEDS else None
    if breed is None:
        return _aged(found, age)
    if age and age.startswith("turning "):  # "my lab Bonnie is turning 9": "..., a lab, turning 9"
        return _aged(found.model_copy(update={"content": f"{found.content}, a {breed}"}), age)
    described = f"{age}-year-old {breed}" if age else breed
    sounds_a_vowel = described[:1] in "aeiou8" or described.split("-")[0] in ("11", "18")
    article = "an" if sounds_a_vowel else "a"
    return found.model_copy(update={"content": f"{found.content}, {article} {described}"})


def _age_before(sentence: Sentence, word: Word) -> str | None:
    """The age said before an animal's noun: "a 3 year old beagle", "my 11-year-old lab"."""
    for old in sentence.children(word.i):
        if old.dep == "amod" and old.lower == "old":
            numbers = [w for w in sentence.subtree(old.i) if w.pos == "NUM"]
            years = [w for w in sentence.subtree(old.i) if w.lemma.lower() == "year"]
            if len(numbers) == 1 and years and (age := _years(numbers[0])):
                return age
    return None


def _only_where(said: Said, after: Sequence[Word]) -> bool:
    """Whether what a clause says after its verb is where, and nothing more ("lives in Lagos")."""
    where = {w.i for p in after if p.dep == "prep" and p.lower == "in" for w in said.sentence.subtree(p.i)}
    return all(w.i in where or w.pos == "PUNCT" for w in after)


def _living(found: Candidate | None, where: str | None) -> Candidate | None:
    """The memory of one of theirs with where they live: "Has a son named Tariq who lives in
    Leeds"; one of a slot is named already: "Husband is named Omar and lives in Beirut"."""
    if found is None or where is None:
        return found
    joint = ", who" if ", aged " in found.content else " and" if " is named " in found.content else " who"
    return found.model_copy(update={"content": f"{found.content}{joint} {where}"})


_HOW_MANY = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _the_children(sentence: Sentence, word: Word) -> bool:
    """ "the kids", "the children": in a parent's mouth their own, though said without "my"."""
    return word.lower in ("kids", "children") and any(
        c.dep == "det" and c.lower == "the" for c in sentence.children(word.i)
    )


def _ages(sentence: Sentence, word: Word) -> list[str]:
    """ "my kids are 5 and 11", "the boys are 3, 6 and 10": one age for each of several children,
    said together (an age alone, or of one child, is `_age`'s)."""
    if word.tag != "NNS" or word.lemma.lower() not in lex.CHILDREN or word.dep != "nsubj":
        return []
    verb = sentence.words[word.head]
    if verb.lemma.lower() != "be" or _supposed_or_denied(sentence, verb) or is_question(sentence):
        return []  # "if my kids were 5 and 11", "when the kids are 5 and 11"
    if not _said_outright(sentence, verb):
        return []  # "she said the kids are 5 and 11"
    ages = _listed_numbers(sentence, verb.i + 1)
    if not all(a.isdigit() and 0 < int(a) < 60 for a in ages) or len(ages) not in _HOW_MANY:
        return []  # one age is `_age`'s; "the girls are 100 percent right"
    return ages


def _listed_numbers(sentence: Sentence, start: int) -> list[str]:
    """The numbers listed from word `start` on ("5 and 11", "3, 6 and 10 years old"), up to the
    first word that is none of the list's (the parser hangs such lists in too many ways to follow)."""
    numbers: list[str] = []
    for word in sentence.words[start:]:
        if word.pos == "NUM":
            numbers.append(word.text)
        elif word.lower not in (",", "and", "years", "year", "old") or not numbers:
            break
    return numbers


def _children_aged(said: Said, word: Word, ages: list[str]) -> Candidate | None:
    content = f"Has {_HOW_MANY[len(ages)]} {word.lower}, aged {in_a_list(ages)}"
    return candidate(said, MemoryKind.PERSON, "ages", content, confidence=0.8)


def people(
    sentence: Sentence, position: int, at: datetime, owner: Clause | None, dated: tuple[Dated, ...] = ()
) -> list[Candidate]:
    """The relatives, people and pets a sentence names as the person's own (in a line that asks,
    those named in what it states first: "my boyfriend Jonas and I want a cat, is a kitten ...?")."""
    if owner is None:
        return []
    asked = len(sentence.words)
    if is_question(sentence) and not _asked_for_help(sentence):
        asked = stated_before_asked(sentence)  # type: ignore[assignment]
        if asked is None:
            return []
    said = Said(owner, position, at, ())
    found = []
    for word in sentence.words[:asked]:
        lemma = word.lemma.lower()
        if word.pos != "NOUN" and not _name_read_after(sentence, word):
            continue
        mine = _mine(sentence, word)
        if mine and lemma in lex.CHILD_BY_SEX and _named_here(sentence, word):
            lemma = lex.CHILD_BY_SEX[lemma]  # "our boy Kofi": a son
        if (mine or _the_children(sentence, word)) and (ages := _ages(sentence, word)):
            found.append(_children_aged(said, word, ages))
            continue
        pet = _pet(sentence, word)
        relation = (
            "best friend"
            if lemma == "friend" and any(c.lower == "best" for c in sentence.children(word.i))
            else lemma
        )
        an_ex = lemma == "ex" and mine  # "my ex, Ray, ...": a partner once
        relation = "partner" if an_ex else relation
        if pet is None and relation not in lex.OWN_PEOPLE | lex.CASUAL:
            continue
        age = _age(sentence, word) if mine and (relation in lex.FAMILY or pet is not None) else None
        named = _named(said, word) if age else None
        if age and pet is None and not (named and named[:1].isupper() and named.lower() not in ("i", "me")):
            found.append(
                candidate(
                    said,
                    MemoryKind.PERSON,
                    "age",
                    f"{relation.capitalize()} {named or ''} is {age}".replace("  ", " "),
                    confidence=0.8,
                )
            )
        # "the supervisor's a bloke called Wayne": the one over the person at work, whose else
        mine = mine or (relation in _OVER_ONE and _someone_called(sentence, word) is not None and all(
            c.lower == "the" for c in sentence.children(word.i) if c.dep in ("det", "poss")))
        # "a dog called Rex" we got, "I have a daughter named Mia": theirs, said with "a"
        if not mine and ((pet is None and relation not in lex.FAMILY)
                         or not any(c.lower in ("a", "an") for c in sentence.children(word.i))
                         or not _got_now(sentence, word)):
            continue
        name = _named(said, word)
        if name and _a_name_typed_in_lower_case(sentence, word, name):
            name = name.capitalize()  # "my gf maya is ...", "our dog bruno ate ...", as chat types it
        if not name or name.lower() in ("i", "me") or not name[:1].isupper():
            continue
        holder = sentence.words[word.head] if word.dep in ("nsubj", "compound") else None
        if word.dep == "compound":
            holder = sentence.words[sentence.words[word.head].head]
        if relation in lex.CASUAL and holder is not None and holder.lemma.lower() in lex.REPORTING:
            continue  # "my friend Kemi says ...": who said it, not who they are to the person
        told = (_age_said_after(sentence, word, relation, name) or _age_beside(sentence, word, name)
                or age)  # "my daughter Mia is 9": one memory
        gone = "ex" if an_ex else _gone(sentence, word) or (
            "died" if pet is not None and _put_down(sentence, word) else None)
        if gone is None:
            if pet is not None:  # "my 11-year-old lab Duke": "Has a dog named Duke, an 11-year-old lab"
                found.append(_described(theirs(said, relation, pet, name), sentence, word, pet, told))
                continue
            found.append(_living(_aged(theirs(said, relation, pet, name), told), _lives(said, word, name)))
            continue
        # no longer theirs: no slot; a death is kept with its time
        past = [d for d in dated if d.when.moment().date() <= at.date()]
        when = past[0].when if past else None
        died = f"{relation.capitalize()} {name} died {when.text if when else ''}".strip()
        at_death = _age_at_death(sentence) if gone == "died" else None
        died += f", aged {at_death}" if at_death else ""
        if pet is not None:
            # a pet that died is no pet of theirs now, and its death a day in their life
            found.append(candidate(said, MemoryKind.EVENT, "person", died, entities=(name,), confidence=0.85,
                                   valid_from=when.moment() if when else None,
                                   ends=(pet_slot(pet),), ended_value=name))
            continue
        relation_text = f"ex-{relation}" if gone == "ex" else f"late {relation}"
        found.append(
            candidate(
                said,
                MemoryKind.PERSON,
                "person",
                died if gone == "died" else f"{relation_text.capitalize()} is named {name}",
                entities=(name,),
                typed="person",
                relation=relation_text.replace(" ", "_").replace("-", "_"),
                confidence=0.85,
                valid_from=when.moment() if when and gone == "died" else None,
                # "my husband Ernesto died", "my ex-wife Maria": no longer the one in their slot
                ends=(slot,) if (slot := lex.SINGLE.get(relation)) else (),
                ended_value=name,
            )
        )
    return [f for f in found if f]


def pet_slot(pet: str) -> str:
    """The slot of the person's one pet of a kind: `pet_dog`, `pet_guinea_pig`."""
    return f"pet_{pet.replace(' ', '_')}"


def _asked_for_help(sentence: Sentence) -> bool:
    """ "Can you help me write to my manager Sara?": a request to the assistant, put as a question,
    whose "my manager Sara" is said as plainly as in a statement (unlike "is my boss Sara right?")."""
    words = [w for w in sentence.words if w.pos not in ("PUNCT", "INTJ") and w.lower not in ("please", "pls")]
    return len(words) >= 3 and words[0].lower in ("can", "could", "would", "will") and words[1].lower in (
        "you", "u") and not any(w.lower == "if" for w in words)


def _age_at_death(sentence: Sentence) -> str | None:
    """ "Our dog Lola died on Sunday, she was 14": the age said of the one who died, as "he/she/it
    was N" beside it."""
    for verb in sentence.words:
        if verb.lemma.lower() != "be" or verb.tag != "VBD":
            continue
        own = sentence.children(verb.i)
        if not any(c.dep == "nsubj" and c.lower in ("he", "she", "it") for c in own):
            continue
        age = next((c for c in own if c.dep in ("attr", "acomp") and c.pos == "NUM" and c.text.isdigit()
                    and 0 < int(c.text) < 120 and c.ent != "TIME" and not sentence.children(c.i)
                    and sentence.words[min(c.i + 1, len(sentence.words) - 1)].lower not in (
                        "am", "pm", "o'clock")), None)
        if age is not None:
            return age.text
    return None


def theirs(said: Said, relation: str, pet: str | None, name: str, rule: str | None = None,
           confidence: float = 0.85) -> Candidate | None:
    """The memory of one of the person's people or animals, by name: "Has a dog named Rolo",
    "Sister is named Anna" (a single one: a slot), "Has a cousin named Tolu". `rule`: the rule
    that found it (by default "pet" or "person")."""
    if pet is not None:
        return candidate(
            said,
            MemoryKind.FACT,
            rule or "pet",
            f"Has a {pet} named {name}",
            attribute=pet_slot(pet),
            value=name,
            entities=(name,),
            typed="animal",
            relation="pet",
            confidence=confidence,
        )
    slot = lex.SINGLE.get(relation)
    text = (
        f"{relation.capitalize()} is named {name}"
        if slot or relation in lex.CLOSE
        else f"Has {'an' if relation[:1] in 'aeiou' else 'a'} {relation} named {name}"  # "an aunt"
    )
    return candidate(
        said,
        MemoryKind.PERSON,
        rule or "person",
        text,
        attribute=slot,
        value=name if slot else None,
        entities=(name,),
        typed="person",
        relation=relation.replace(" ", "_").replace("-", "_"),
        confidence=confidence,
    )


# What a person does when an animal becomes theirs: "we got a puppy", "I adopted a cat".
_GETTING = frozenset({"get", "have", "adopt", "rescue", "buy", "foster", "bring", "take"})
_POINTING_BACK = frozenset({"his", "her", "its", "their"})
_CALLED = frozenset({"he", "she", "it", "they"})


def _got_now(sentence: Sentence, animal: Word) -> bool:
    """Whether "a dog called Rex" is one the person has now: got, adopted or had by them, said
    outright ("we got a puppy, a beagle called Biscuit"), not wished for ("I'd love a dog called
    Waffles"), supposed ("if I got ..."), denied or long gone ("we had a dog called Bruno when I was
    a kid", "I used to have ...")."""
    verb = animal
    while verb.pos not in ("VERB", "AUX") and verb.head != verb.i:
        verb = sentence.words[verb.head]
    if verb.pos not in ("VERB", "AUX"):
        return True  # no verb: a fragment that goes on a list of one's own ("and a dog named Biscuit")
    children = sentence.children(verb.i)
    subjects = [c.lower for c in children if c.dep in ("nsubj", "nsubjpass")]
    if verb.lemma.lower() not in _GETTING or subjects[:1] not in (["i"], ["we"]):
        return False
    if any(c.dep == "neg" or c.lower in ("would", "'d", "might", "could", "should", "if") for c in children):
        return False
    used = sentence.words[verb.head].lemma.lower() == "use" and verb.dep == "xcomp"
    return not used and not (verb.lemma.lower() == "have" and verb.tag == "VBD")


def _name_given(sentence: Sentence) -> Word | None:
    """The name a sentence gives to one said before it: "His name is Rolo.", "she's called
    Mochi" (not asked, not denied)."""
    if is_question(sentence):
        return None
    for word in sentence.words:
        pointing = word.lemma.lower() == "name" and word.dep == "nsubj" and any(
            c.dep == "poss" and c.lower in _POINTING_BACK for c in sentence.children(word.i))
        called = word.lower in _CALLED and word.dep == "nsubjpass"
        verb = sentence.words[word.head]
        if not (pointing and verb.lemma.lower() == "be" or called and verb.lemma.lower() in ("call", "name")):
            continue
        if not _said_outright(sentence, verb) or any(c.dep == "neg" for c in sentence.children(verb.i)):
            continue  # "the vet said her name is Tigger": reported; "his name isn't Rex"
        named = [c for c in sentence.children(verb.i) if c.dep in ("attr", "oprd", "xcomp")]
        if named and (named[0].pos == "PROPN" or (_a_name_read_as_noun(named[0]) and named[0].i > 0)):
            return named[0]  # "her name is Biscuit", the name read as a noun
    return None


def _said_outright(sentence: Sentence, verb: Word) -> bool:
    """Whether a clause stands on its own: the root, or one of a chat line's comma-joined clauses
    that the parser hangs on the next ("..., her name is Ines, we met at choir"), unless that one
    reports it ("her name is Rosa, she said")."""
    if verb.dep == "ROOT":
        return True
    governor = sentence.words[verb.head]
    # "..., she's turning 7" hung on the "It's" before it: no one reports it either
    return verb.dep == "ccomp" and governor.lemma.lower() not in lex.REPORTING and (
        governor.i > verb.i or governor.lemma.lower() == "be")


def _unnamed(said: Said, before: int) -> tuple[Word, str, str | None] | None:
    """The last of the person's people or animals a sentence brings in without a name, before
    word `before`: "We got a puppy", "my new boss starts Monday" (the noun, its relation, the
    animal)."""
    sentence = said.sentence
    last: tuple[Word, str, str | None] | None = None
    for word in sentence.words[:before]:
        if _courted(sentence, word):
            last = (word, "partner", None)
            continue
        lemma = word.lemma.lower()
        if word.pos not in ("NOUN", "PRON"):
            continue
        pet = _pet(sentence, word)
        if word.pos == "PRON" or pet is None and lemma not in lex.OWN_PEOPLE:
            if lemma in _ANYONE or lemma in lex.CASUAL or lemma in lex.OCCUPATIONS:
                last = None  # "my sister is seeing someone, his name is Paul": "his" is the later one
            continue
        mine = _mine(sentence, word)
        head = sentence.words[word.head]
        subject = [c.lower for c in sentence.children(head.i) if c.dep == "nsubj"]
        if not subject and head.tag == "VBD" and all(
                w.dep in ("advmod", "cc", "punct", "intj") for w in sentence.words[:head.i]):
            subject = ["i"]  # "also adopted a cat, ...": chat leaves the "I" out
        got = word.dep == "ROOT" or head.lemma.lower() in _GETTING and subject[:1] in (["i"], ["we"])
        new = pet is not None and got and any(c.lower in ("a", "an") for c in sentence.children(word.i))
        if (mine or new) and _named(said, word) is None and _gone(sentence, word) is None:
            last = (word, lemma, pet)
        else:
            last = None  # "my brother got a new dog, her name is Bella": the brother's dog
    return last


# Someone brought in who is nobody of the person's: a name given after is theirs, not an earlier one's.
_ANYONE = frozenset({"someone", "somebody", "person", "guy", "man", "woman", "lady", "girl", "boy", "bloke"})


# "I'm seeing someone", "I've been dating somebody": said in the -ing form, someone courted; "I saw
# someone" is only met.
_COURTING = frozenset({"see", "date"})


def _courted(sentence: Sentence, word: Word) -> bool:
    """Whether `word` is the someone the person has lately been seeing ("I've been seeing someone")."""
    if word.lower not in ("someone", "somebody") or word.dep != "dobj":
        return False
    verb = sentence.words[word.head]
    subjects = [c.lower for c in sentence.children(verb.i) if c.dep == "nsubj"]
    about = [c for w in (verb, word) for c in sentence.children(w.i) if c.dep == "prep"  # "about the roof"
             and not _by_the_way(sentence, c)]
    return verb.lemma.lower() in _COURTING and verb.tag == "VBG" and subjects == ["i"] and not about


def _by_the_way(sentence: Sentence, prep: Word) -> bool:
    """ "..., by the way": a turn of the talk, no part of what is said."""
    return prep.lower == "by" and any(o.lower == "way" for o in sentence.children(prep.i) if o.dep == "pobj")


def named_after(sentences: Sequence[Sentence], owners: Sequence[Clause | None], position: int,
                at: datetime) -> list[Candidate]:
    """A name given after the one it names was brought in, in the same sentence or the next: "We
    got a puppy! His name is Rolo." is a dog named Rolo. No further: there "his" may be anyone.
    The one brought in must be the person's (my, our; an animal they got), in what was neither
    asked nor denied."""
    found = []
    for n, sentence in enumerate(sentences):
        name, owner = _name_given(sentence), owners[n]
        if name is None or owner is None:
            continue
        said = Said(owner, position, at, ())
        brought = _unnamed(said, name.i) if not (owner.asked or owner.negated) else None
        earlier = owners[n - 1] if n > 0 else None
        if brought is None and earlier is not None and not (earlier.asked or earlier.negated or is_question(
                sentences[n - 1])):
            brought = _unnamed(Said(earlier, position, at, ()), len(sentences[n - 1].words))
        if brought is not None:
            _, relation, pet = brought
            found.append(theirs(said, relation, pet, _full_name(said, name)))
    return [f for f in found if f]


def told_next(kept: Candidate, sentences: Sequence[Sentence], position: int, at: datetime) -> Candidate:
    """What the sentence after the one that named one of theirs says of them by "he" or "she" at
    its start: "My daughter Zosia is happy. She is 19, she studies law in Wrocław." -> "Has a
    daughter named Zosia, aged 19, who studies law in Wrocław". No further, and not where someone
    else was named after them (then "she" may be anyone), nor a "he" for a daughter."""
    if kept.kind is not MemoryKind.PERSON or not kept.entities or not kept.relations:
        return kept
    name, relation = kept.entities[0], kept.relations[0].predicate.replace("_", " ")
    first, at_name = next(((n, w.i) for n, s in enumerate(sentences) for w in s.words
                           if w.text == name.split()[0]), (None, 0))
    if first is None or first + 1 >= len(sentences):
        return kept
    named_in, after = sentences[first], sentences[first + 1]
    pronoun = after.words[0] if after.words else None
    if (pronoun is None or pronoun.lower not in ("he", "she") or pronoun.dep != "nsubj"
            or pronoun.lower == _NOT_SAID_OF.get(relation) or is_question(after)
            or _another_between(named_in.words[at_name + 1:], name)):
        return kept
    root = next((w for w in after.words if w.dep == "ROOT"), after.words[0])
    said = Said(Clause(after, root, None, "none", False, False, False, False), position, at, ())
    age = doing = None
    for verb in (after.words[w.head] for w in after.words if w.dep == "nsubj" and w.lower == pronoun.lower):
        if (verb.tag in ("VBD", "VBN", "MD") or _supposed_or_denied(after, verb)
                or any(c.dep == "aux" for c in after.children(verb.i))):
            continue
        if verb.lemma.lower() == "be" and age is None:
            age = _age_told(after, verb)
        doing = doing or _doing_there(said, verb)
    if age and ", aged " not in kept.content and ", turning " not in kept.content:
        kept = _aged(kept, age) or kept
    if doing and " who " not in kept.content and " and " not in kept.content:
        kept = _living(kept, doing) or kept
    return kept


def _second_subject(said: Said, subject: Word) -> list[Word]:
    """The name right after the relative's noun when the parser made it a subject of its own ("my
    boyfriend Tom is a chef": "boyfriend" and "Tom" both subjects of "is"): it is the name the
    memory must keep, and the noun's own words leave it out."""
    sentence = said.sentence
    after = sentence.words[subject.i + 1] if subject.i + 1 < len(sentence.words) else None
    if after is None or after.pos != "PROPN" or after.dep != subject.dep or after.head != subject.head:
        return []
    return list(sentence.subtree(after.i))


def _nationality(said: Said) -> bool:
    """Whether a "be" says where one is from or what faith one keeps, as a people's adjective: "my
    husband Tom is German", "my friend Ana is Catholic" — not how they are ("is great", "is 7")."""
    return any(w.ent == "NORP" for w in children(said, said.clause.head, "acomp", "attr"))


# What one of the person's people does that lasts: where they live, what they work at.
_LASTING = frozenset({"live", "work", "study", "teach", "run", "own"})


# Nouns that judge someone rather than say what they are: "my boss is a nightmare".
_VERDICTS = frozenset({"nightmare", "legend", "saint", "star", "angel", "idiot", "pain", "joke", "gem",
                       "hero", "rock", "genius", "monster", "jerk", "diva", "control", "freak", "menace",
                       "sweetheart", "treasure", "character", "handful", "mess", "disaster", "dream"})


def _at_home_with_them(said: Said) -> bool:
    """ "my mum lives with us now": one of theirs at home with the person."""
    return said.clause.lemma == "live" and any(
        p.lower == "with" and any(o.lower in ("us", "me") for o in children(said, p, "pobj"))
        for p in children(said, said.clause.head, "prep"))


def _known_relative(said: Said, subject: Word) -> list[Candidate]:
    """What one of the person's people named earlier in the conversation is or does that lasts:
    "my husband Dev ..." then "Dev is diabetic" is "Husband Dev is diabetic"."""
    clause, sentence = said.clause, said.sentence
    name = _full_name(said, subject)
    relation = said.known[name]
    if clause.lemma == "be":
        told = children(said, clause.head, "acomp", "attr")
        lasting = any(w.lower in lex.HEALTH_STATES for w in told) or any(
            w.dep == "attr" and (w.pos == "NOUN" or w.lemma.lower() in lex.OCCUPATIONS) for w in told)
    else:
        lasting = clause.lemma in _LASTING and names_a_thing(
            said, [w for w in clause_words(clause) if w.i > clause.head.i])
    if not lasting:
        return []
    words = sorted({*sentence.subtree(subject.i), *clause_words(clause)}, key=lambda w: w.i)
    # No slot: the name was given to it already; this is what is so of them.
    text = f"{relation.capitalize()} {said.text(words=words)}"
    return one(candidate(said, MemoryKind.PERSON, "relative", text, entities=(name,), typed="person",
                         relation=relation.replace(" ", "_").replace("-", "_"), confidence=0.7))


def relative(said: Said) -> list[Candidate]:
    """What one of the person's people is or does that lasts, said now: "my brother lives in
    Boston", "my son runs the farm", "my sister is a nurse in Leeds" — not what they did once,
    think or say ("my brother thinks I should quit"), nor an animal's."""
    clause = said.clause
    subject = clause.subject
    if subject is None or not clause.asserted or clause.past or clause.head.tag not in ("VBZ", "VBP"):
        return []
    sentence = said.sentence
    word: Word | None = subject
    if clause.person == "my":
        name = _named(said, subject)
    else:  # "My cousin Tolu lives ...", parsed with the name as the subject
        word = next((c for c in sentence.children(subject.i)
                     if c.pos == "NOUN" and c.dep in ("compound", "appos")
                     and any(p.lower in ("my", "our") and p.dep == "poss" for p in sentence.children(c.i))),
                    None)
        name = _full_name(said, subject) if word is not None and subject.pos == "PROPN" else None
        if name is None and subject.pos == "PROPN" and _full_name(said, subject) in said.known:
            return _known_relative(said, subject)  # "Dev is diabetic", Dev named as theirs before
        if name is None:
            return []
    assert word is not None
    relation = word.lemma.lower()
    if relation not in lex.OWN_PEOPLE | lex.CASUAL or _someone_called(sentence, word) is not None:
        return []  # "my neighbour is a man called Ted": a name given, which `people` keeps
    if relation in lex.CASUAL and name is None:
        return []  # "my flatmate is a vet": said in passing; "my friend Dave lives in Brighton" is kept
    after = [w for w in clause_words(clause) if w.i > clause.head.i]
    if clause.lemma == "be":
        # "my husband is diabetic": how one of theirs is, which the person lives with too
        unwell = any(w.lower in lex.HEALTH_STATES for w in children(said, clause.head, "acomp", "attr"))
        # what they are, not what they are to the person ("our kids are our future", "my rock")
        a_kind = any((w.pos == "NOUN" or w.lemma.lower() in lex.OCCUPATIONS) and not children(said, w, "poss")
                     and w.lemma.lower() not in _VERDICTS for w in children(said, clause.head, "attr"))
        if not a_kind and not (name and _nationality(said)) and not unwell:
            return []  # "my sister is great", "my son is 7" (an age: another rule)
    elif clause.lemma == "have":
        # "my dad has diabetes": a condition of one of theirs, which the person lives with too
        if not any(o.lemma.lower() in lex.CONDITIONS or o.lower in lex.CONDITIONS
                   for o in children(said, clause.head, "dobj")):
            return []
    elif clause.lemma not in _LASTING or not (names_a_thing(said, after) or _at_home_with_them(said)):
        return []
    elif name and clause.lemma == "live" and _lives(said, word, name) and _only_where(said, after):
        return []  # "my friend Tolu lives in Lagos": one memory, "Has a friend named Tolu who lives in Lagos"
    if name and (doing := _doing_there(said, clause.head)) and doing == _lives(said, word, name):
        return []  # "my brother Tom works in Leeds": "Has a brother named Tom who works in Leeds" says it
    subject_words = [w for w in sentence.subtree(subject.i) if w.lower not in ("my", "our")]
    named_words = _second_subject(said, subject)
    words = sorted({*subject_words, *named_words, *clause_words(clause)}, key=lambda w: w.i)
    # Named, a partner or a boss is the slot's value too: "Partner Sam is a pastry chef".
    slot = lex.SINGLE.get(relation) if name else None
    return one(candidate(said, MemoryKind.PERSON, "relative", said.text(words=words), attribute=slot,
                         value=name if slot else None, entities=(name,) if name else (),
                         typed="person" if name else None,
                         relation=relation.replace(" ", "_").replace("-", "_") if name else None,
                         confidence=0.75))


def _pet(sentence: Sentence, word: Word) -> str | None:
    """The kind of animal a noun names, with the word before it where the two are one name ("a
    guinea pig", "a bearded dragon")."""
    lemma = word.lemma.lower()
    before = [c.lower for c in sentence.children(word.i)
              if c.dep in ("compound", "amod") and c.i == word.i - 1]
    for joined_ in (f"{before[0]}_{lemma}", f"{before[0]} {lemma}") if before else ():
        if joined_ in lex.PETS:  # "guinea_pig" in the lexicon's own keys, "jack russell" among breeds
            return lex.PETS[joined_]
    return lex.PETS.get(lemma)
