"""A clause of the person's, written as a memory: in the third person with no subject ("Works as a
nurse at Denver Health", "Has a cat named Pixel"), the times it names written out against when
it was said, without the openers, hedges and laughs of a chat."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.extraction.clauses import Clause, asked_after_a_comma, is_noise
from domain.extraction.lexicon import DISCOURSE, OCCUPATIONS
from domain.extraction.times import (
    MONTHS,
    WEEKDAYS,
    When,
    names_a_kind,
    resolve_phrase,
    resolve_written_date,
    written,
)
from domain.text.parse import Sentence, Word

_PRONOUNS = {
    "my": "their",
    "me": "them",
    "myself": "themselves",
    "mine": "theirs",
    "i": "they",
    "our": "their",
    "us": "them",
    "we": "they",
    "ours": "theirs",
    "ourselves": "themselves",
}
_ASSISTANT = {
    "you": "the assistant",
    "your": "the assistant's",
    "u": "the assistant",
    "ur": "the assistant's",
}
_CONTRACTIONS = {
    "n't": "not",
    "nt": "not",
    "'ll": "will",
    "'d": "would",
    "ca": "can",
    "wo": "will",
    "'re": "are",
    "'m": "am",
    "m": "am",
    "'ve": "have",
    "'s": "is",
    "gon": "going",
    "wan": "want",
    "na": "to",
}
_THIRD = {"be": "is", "have": "has", "do": "does", "go": "goes"}
# Times said with "the" that name the nearest of their kind: "at the weekend", "for the summer".
_NEAREST_OF_KIND = frozenset({"weekend", "spring", "summer", "autumn", "winter"})
_KEPT_PREPOSITIONS = frozenset({"since", "by", "before", "until", "after", "from"})
_TIME_PREPOSITIONS = frozenset(
    {"in", "on", "at", "since", "by", "before", "until", "till", "after", "from", "during", "over", "for"}
)
_NOT_TIMES = frozenset({"every", "each", "most", "some", "all", "many"})
# The words that end a range ("until Friday", "to the 7th", "3 - 7 April"), and those of either end.
_RANGE_ENDS = frozenset({"until", "till", "to", "through", "-"})
_RANGE = _RANGE_ENDS - {"-"} | {"from"}
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?%])")


@dataclass(frozen=True)
class Dated:
    """A time a clause names: the words it takes, how they are written now, the time."""

    first: int
    last: int
    text: str
    when: When


_PARTS_OF_DAY = frozenset({"mornings", "afternoons", "evenings", "nights", "lunchtimes"})


def _recurring(words: Sequence[Word]) -> bool:
    """ "on Tuesdays", "Wednesday mornings", "weekends": a time that comes back each week, which
    names no one day."""
    lowered = [w.lower for w in words]
    if "ago" in lowered:
        return False  # "2 saturdays ago": one day, counted back
    return any(
        (w.endswith("s") and w[:-1] in WEEKDAYS) or w in _PARTS_OF_DAY or w == "weekends" for w in lowered
    )


_DAY_WORDS = frozenset({"today", "tomorrow", "tonight", "yesterday"})
_CLOCK = re.compile(r"^(?:\d{1,2}(?::\d\d)?(?:am|pm)?|am|pm|a\.m\.|p\.m\.|o'clock|noon|midday)$")


def _day_of_a_clock_time(words: Sequence[Word], at: datetime, future: bool | None) -> When | None:
    """ "2pm tomorrow", "10am on Friday": the day the clock time is on (the hour stays in the text
    as said)."""
    rest = [w.lower for w in words if not _CLOCK.match(w.lower) and w.lower not in ("at", "on")]
    if not rest or len(rest) == len(words):
        return None
    return resolve_phrase(" ".join(rest), at, future)


def times(sentence: Sentence, at: datetime, future: bool | None) -> list[Dated]:
    """The times a sentence names (its DATE and TIME entities, with the preposition before each)."""
    found: list[Dated] = []
    for kind, words in sentence.entities():
        words = _widened(sentence, kind, words)
        if kind not in ("DATE", "TIME") and not (kind == "ORDINAL" and words[0].lower == "the"):
            continue
        if any(d.first <= words[0].i <= d.last for d in found) or _a_kind_of_thing(sentence, words):
            continue  # "May" of "the 4th of May", taken with its day; "the Christmas cards"
        after = sentence.words[words[-1].i + 1] if words[-1].i + 1 < len(sentence.words) else None
        if words[0].lower in _NOT_TIMES or _recurring([*words, *([after] if after is not None else [])]):
            continue
        words = _misread_head_left_out(words, at, future)
        first = words[0].i
        before = sentence.words[first - 1] if first > 0 else None
        prep = before.lower if before is not None and before.lower in _TIME_PREPOSITIONS else None
        phrase = " ".join(w.text for w in words)
        if after is not None and after.lower in ("before", "after") and words[0].lower == "the":
            continue  # "the weekend before", "the day after the party": of another time, not said
        if prep == "in" and _first_in_a_while(sentence, before):
            continue  # "first holiday in 3 years": how long since the last, no time of its own
        if prep == "since":
            future = False  # "since Tuesday": the last one, whatever the verb
        # "a place on the course starting September": what starts is ahead, whatever the verb
        opener = sentence.words[first - 2] if prep and first > 1 else before
        ahead = True if opener is not None and opener.lower in ("starting", "beginning") else future
        when = (
            resolve_phrase(f"{prep} {phrase}" if prep else phrase, at, ahead)
            or resolve_phrase(phrase, at, ahead)
            or resolve_written_date(phrase, at, ahead)
        )
        clock = ""
        if when is None and (when := _day_of_a_clock_time(words, at, ahead)) is not None:
            clock = "at " + "".join(w.text for w in words if _CLOCK.match(w.lower)) + " "  # "at 2pm"
        if when is None:
            continue
        if found and before is not None and before.lower in _RANGE_ENDS and when.start < found[-1].when.start:
            # "from Monday until Friday": the end is the first such day after the start, not
            # before it (each day alone is the next one after the time it was said)
            later = resolve_phrase(phrase, found[-1].when.moment(), True)
            if later is not None and later.start >= found[-1].when.start:
                when = later
        start = first - 1 if prep else first
        found.append(Dated(start, words[-1].i,
                           clock + (written(when, prep) if prep in _KEPT_PREPOSITIONS else when.text), when))
    taken = {i for d in found for i in range(d.first, d.last + 1)}
    for word in sentence.words:
        # "I've got an interview tomorrow": a day a small model does not always tag
        if word.i not in taken and word.lower in _DAY_WORDS and not word.ent:
            when = resolve_phrase(word.lower, at, future)
            if when is not None:
                found.append(Dated(word.i, word.i, when.text, when))
                taken.add(word.i)
    for word in sentence.words[1:]:
        # "by the 31st", untagged: a day of the month, the next one (or the last, told in the past)
        the = sentence.words[word.i - 1]
        after = sentence.words[word.i + 1] if word.i + 1 < len(sentence.words) else None
        if (word.i in taken or word.ent or the.lower != "the" or not _DAY_OF_MONTH.fullmatch(word.lower)
                or (after is not None and after.pos in ("NOUN", "PROPN", "ADJ"))):
            continue
        day = resolve_phrase(f"the {word.lower}", at, future)
        if day is None:
            continue
        opening = sentence.words[the.i - 1] if the.i > 0 else None
        prep = opening.lower if opening is not None and opening.lower in _TIME_PREPOSITIONS else None
        found.append(Dated(opening.i if prep and opening else the.i, word.i,
                           written(day, prep) if prep in _KEPT_PREPOSITIONS else day.text, day))
        taken.update(range(the.i - (1 if prep else 0), word.i + 1))
    for word in sentence.words[1:]:
        # "at Easter", "over Easter", untagged (not "Easter eggs")
        opening = sentence.words[word.i - 1]
        if word.i in taken or word.ent or word.lower != "easter" or _a_kind_of_thing(sentence, [word]) or (
                opening.lower not in ("at", "over", "for", "after", "before", "by", "until")):
            continue
        holiday = resolve_phrase(f"{opening.lower} easter", at, future)
        if holiday is not None:
            found.append(Dated(opening.i, word.i, holiday.text, holiday))
            taken.update((opening.i, word.i))
    for word in sentence.words[2:]:
        # "at the weekend", "for the summer", untagged: the one nearest, with its preposition
        article, opening = sentence.words[word.i - 1], sentence.words[word.i - 2]
        if word.i in taken or word.lower not in _NEAREST_OF_KIND or article.lower != "the" or word.ent or (
                opening.lower not in ("on", "at", "over", "this", "for", "during", "in")):
            continue
        nearest = resolve_phrase(f"the {word.lower}", at, future)
        if nearest is not None:
            found.append(Dated(opening.i, word.i, nearest.text, nearest))
            taken.update((opening.i, article.i, word.i))
    for word in sentence.words[1:]:
        # "last Tues": a day a small model does not see as a date
        before = sentence.words[word.i - 1]
        if word.i in taken or before.lower not in ("last", "next", "this") or word.ent:
            continue
        when = resolve_phrase(f"{before.lower} {word.lower}", at, future)
        if when is not None and when.grain == "day":
            found.append(Dated(before.i, word.i, when.text, when))
    return _days_told_twice(sentence, found, at, future)


_NTH = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$")


def _days_told_twice(
    sentence: Sentence, found: list[Dated], at: datetime, future: bool | None
) -> list[Dated]:
    """ "next Friday, the 8th": one day told twice, the weekday and the day of the month — the
    Nth that is that weekday, as "Friday the 8th" is (where "next Friday" alone may be tomorrow),
    and written once."""
    ordered = sorted(found, key=lambda d: d.first)
    merged: list[Dated] = []
    for dated in ordered:
        last = merged[-1] if merged else None
        between = sentence.words[last.last + 1:dated.first] if last is not None else []
        weekday = next((w.lower for w in sentence.words[last.first:last.last + 1] if w.lower in WEEKDAYS),
                       None) if last is not None else None
        nth = [m.group(1) for w in sentence.words[dated.first:dated.last + 1] if (m := _NTH.match(w.lower))]
        if (last is None or weekday is None or len(nth) != 1 or [w.text for w in between] != [","]
                or last.when.grain != "day" or dated.when.grain != "day"):
            merged.append(dated)
            continue
        when = resolve_phrase(f"{weekday} the {nth[0]}", at, future) or dated.when
        opening = sentence.words[last.first].lower
        prep = opening if opening in _TIME_PREPOSITIONS else None
        merged[-1] = Dated(last.first, dated.last, written(when, prep) if prep in _KEPT_PREPOSITIONS
                           else when.text, when)
    return merged


def _misread_head_left_out(words: list[Word], at: datetime, future: bool | None) -> list[Word]:
    """ "ramipril last month": a name a small model runs into the date after it; the date is the
    words after it, when they name one and the whole does not."""
    phrase = " ".join(w.text for w in words)
    if len(words) < 2 or resolve_phrase(phrase, at, future) or resolve_written_date(phrase, at, future):
        return words
    for k in range(1, len(words)):
        if words[k - 1].pos not in ("PROPN", "NOUN") or any(ch.isdigit() for ch in words[k - 1].text):
            return words
        if resolve_phrase(" ".join(w.text for w in words[k:]), at, future):
            return words[k:]
    return words


def _another_clause_after(sentence: Sentence, head: Word) -> int | None:
    """The comma after the clause's head where another clause of the person's starts ("..., so at
    home I bake", "..., because I ...") that the parser hung inside this one: a joining word after
    the comma and a subject "I" or "we" of its own later on."""
    words = sentence.words
    for comma in (w for w in words[head.i + 1:] if w.text == ","):
        after = words[comma.i + 1] if comma.i + 1 < len(words) else None
        if after is None or after.lower not in _SUBORDINATE:
            continue
        if any(w.lower in ("i", "we") and w.dep in ("nsubj", "nsubjpass") and w.head != head.i
               for w in words[comma.i + 2:]):
            return comma.i
    return None


def _a_kind_of_thing(sentence: Sentence, words: list[Word]) -> bool:
    """ "the Christmas cards", "my winter coat", "the autumn leaves": a season or a holiday that
    says what kind a thing is (the noun after it, or a plural the parser took for a verb)."""
    if len(words) != 1 or not names_a_kind(words[0].text):
        return False
    word = words[0]
    head = sentence.words[word.head]
    if word.dep in ("compound", "amod", "nmod") and head.i > word.i and head.pos in ("NOUN", "PROPN"):
        return True
    after = sentence.words[word.i + 1] if word.i + 1 < len(sentence.words) else None
    before = sentence.words[word.i - 1] if word.i > 0 else None
    return (after is not None and before is not None and before.lower in ("the", "my", "our", "a")
            and after.tag in ("NNS", "VBZ") and after.lower.endswith("s"))


_DAY_OF_MONTH = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)")
_PART_OF = ("end", "start", "beginning", "middle")


def _first_in_a_while(sentence: Sentence, prep: Word | None) -> bool:
    """ "the first holiday in three years", "best night in ages": "in" after a first, last, only or
    best of something counts back from now; it is not when anything happens."""
    if prep is None or prep.i == 0:
        return False
    thing = sentence.words[prep.head]
    return thing.i < prep.i and thing.pos == "NOUN" and any(
        c.lower in ("first", "last", "only") or c.tag == "JJS" for c in sentence.children(thing.i)
        if c.dep in ("amod", "advmod"))


def _widened(sentence: Sentence, kind: str, words: list[Word]) -> list[Word]:
    """An entity with the words a small model leaves out of a date: "the" before a day of the
    month it calls an ordinal ("on the 16th"), "end of" before a month ("deadline is end of
    April")."""
    first = words[0].i
    before = sentence.words[max(first - 3, 0):first]
    after = sentence.words[words[-1].i + 1] if words[-1].i + 1 < len(sentence.words) else None
    counting = after is not None and after.pos in ("NOUN", "PROPN", "ADJ")  # "the 3rd time", "the 2nd floor"
    if kind == "ORDINAL" and len(words) == 1 and _DAY_OF_MONTH.fullmatch(words[0].lower) and (
            before and before[-1].lower == "the") and not counting:
        month = sentence.words[after.i + 1] if after and after.i + 1 < len(sentence.words) else None
        if after is not None and after.lower == "of" and month is not None and month.lower in MONTHS:
            return [before[-1], *words, after, month]  # "the 4th of May", its month read as no date
        return [before[-1], *words]
    if kind == "DATE" and len(words) == 1 and words[0].lower == "weekend" and before and (
            before[-1].lower == "the"):
        return [before[-1], *words]  # "on the weekend": the one nearest, not "a weekend away"
    if kind == "DATE" and len(words) == 1 and words[0].lower in WEEKDAYS and after is not None:
        # "Thursday the 12th": the day of the month a small model leaves out of the weekday's date
        wanted = 2 if after.lower == "the" else 1
        rest = sentence.words[after.i:after.i + wanted]
        if len(rest) == wanted and _DAY_OF_MONTH.fullmatch(rest[-1].lower):
            of_month = list(sentence.words[rest[-1].i + 1:rest[-1].i + 3])
            if len(of_month) == 2 and of_month[0].lower == "of" and of_month[1].lower in MONTHS:
                return [*words, *rest, *of_month]  # "Monday the 26th of October"
            return [*words, *rest]
    if kind == "DATE" and words[-1].lower in ("week", "weekend") and after is not None and after.lower in (
            "in", "of"):
        month = sentence.words[after.i + 1] if after.i + 1 < len(sentence.words) else None
        if month is not None and month.lower in MONTHS:
            return [*words, after, month]  # "the last weekend in May", the month its own entity
    if kind == "DATE" and len(before) >= 2 and before[-1].lower == "of" and before[-2].lower in _PART_OF:
        start = before[-2].i
        if start > 0 and sentence.words[start - 1].lower == "the":
            start -= 1
        return [*sentence.words[start:first], *words]
    return words


def third_person(word: Word) -> str:
    """A verb said by "I", as said of someone else: am → is, have → has, go → goes, write → writes."""
    lemma = word.lemma.lower()
    if word.tag in ("VBD", "VBN", "VBG", "MD"):
        return {"were": "was"}.get(word.lower, _CONTRACTIONS.get(word.lower, word.text))
    if lemma in _THIRD:
        return _THIRD[lemma]
    if word.lower in ("'ve", "ve"):
        return "has"
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ies"
    return lemma + "s"


def _finite(words: Sequence[Word]) -> Word | None:
    """The word that agrees with the subject: the first auxiliary or verb, in the present."""
    for word in words:
        if word.pos in ("AUX", "VERB") and word.tag in ("VBP", "VBZ", "VB") and word.dep != "xcomp":
            return word
        if word.pos in ("AUX", "VERB") and word.tag in ("VBD", "MD"):
            return None
    return None


def written_words(
    words: Sequence[Word],
    dated: Iterable[Dated],
    drop_subject_agreement: bool = True,
    assistant: bool = False,
) -> str:
    """`words` (in order, from one sentence) as a memory's sentence."""
    by_start = {d.first: d for d in dated}
    skip: set[int] = set()
    for d in by_start.values():
        skip |= set(range(d.first + 1, d.last + 1))
    finite = _finite(words) if drop_subject_agreement else None
    kept = [w for w in words if w.i not in skip]
    out: list[str] = []
    for place, word in enumerate(kept):
        after = kept[place + 1] if place + 1 < len(kept) else None
        if word.i in by_start:
            last = by_start[word.i].last
            text, space = by_start[word.i].text, " "
            # "from the 3rd to the 7th": a range keeps its words, not "on 3 April to on 7 April"
            before = out[-1].strip().lower() if out else ""
            if text.startswith(("on ", "in ")) and before in _RANGE:
                text = text[3:]  # "to October": "to October 2026", not "to in October 2026"
            elif text.startswith("on ") and word.lower in _RANGE:
                text = f"{word.lower} {text[3:]}"
        else:
            last = word.i
            # "when you write to me": the assistant, named in the third person, writes
            yours = assistant and word.tag == "VBP" and any(
                w.head == word.i and w.dep == "nsubj" and w.lower in ("you", "u") for w in kept
            )
            text, space = _word(word, word is finite or yours, assistant), word.space
            if text != word.text and not space and after is not None and after.lower in ("na", "ta"):
                space = " "  # "gonna": "going" and "to", two words written as one
            if _is_read_as_whose(word, kept):
                text = "is"  # "my sister's coming up": is, not whose (spaced as a contraction below)
            if word.lower == "'s" and text == "is" and after is not None and (
                    after.lower == "been" or after.tag == "VBN"):
                text = "has"  # "my knee's been playing up": has been
            rough = word.lower in ("maybe", "probably", "perhaps", "like") and word.pos != "VERB"
            if rough and after is not None and (after.pos == "NUM" or after.lower in ("once", "twice")):
                text = "about"  # "maybe twice a month": a count given roughly, not a doubt
            if word.lower in ("morning", "afternoon", "evening", "night") and place > 0 and any(
                d.last == word.i - 1 for d in by_start.values()
            ):
                text = f"in the {word.lower}"  # "on Monday morning": "on 23 March 2026 in the morning"
            spelt_out = word.lower in ("n't", "nt") or (
                word.lower.startswith("'") and not text.startswith("'"))
            if spelt_out and out and not out[-1].endswith(" "):
                out[-1] += " "  # "Sister's coming": "Sister is coming"
        if after is not None and after.i != last + 1 and not space and after.pos != "PUNCT":
            space = " "  # a word between them was left out
        out.append(text + space)
    return tidy("".join(out))


def _is_read_as_whose(word: Word, words: Sequence[Word]) -> bool:
    """A "'s" the parser took for a possessive that is "is": it hangs on the subject of an -ing
    verb that has no "is" of its own ("my sister's coming up next month")."""
    if word.tag != "POS":
        return False
    by_i = {w.i: w for w in words}
    owner = by_i.get(word.head)
    verb = by_i.get(owner.head) if owner is not None else None
    return (owner is not None and owner.dep in ("nsubj", "nsubjpass") and verb is not None
            and verb.tag == "VBG"
            and not any(w.head == verb.i and w.dep in ("aux", "auxpass") for w in words))


def _word(word: Word, finite: bool, assistant: bool) -> str:
    lower = word.lower
    if finite:
        if lower in ("wanna", "gonna"):
            return "wants to" if lower == "wanna" else "is going to"
        if word.lemma.lower() == "be" or lower in ("am", "'m", "m", "are", "'re"):
            return "is" if lower in ("am", "'m", "m", "are", "'re", "be", "'s") else word.text
        return third_person(word)
    if lower in _PRONOUNS and word.pos == "PRON":
        return _PRONOUNS[lower]
    if assistant and lower in _ASSISTANT and word.pos == "PRON":
        return _ASSISTANT[lower]
    if (
        lower in _CONTRACTIONS
        and word.tag != "POS"
        and (word.pos in ("AUX", "PART", "VERB") or word.dep == "neg")
    ):
        return _CONTRACTIONS[lower]
    return word.text


def word_space(words: Sequence[Word], index: int) -> str:
    return next((w.space for w in words if w.i == index), " ")


def in_a_list(items: Sequence[str]) -> str:
    """Items as a sentence lists them: "14, 11 and 6", "Mateo (8) and Sofia (5)"."""
    return f"{', '.join(items[:-1])} and {items[-1]}" if len(items) > 1 else "".join(items)


def tidy(text: str) -> str:
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", re.sub(r"\s+", " ", text)).strip(" ,;:-–—")
    text = re.sub(r"\bthey (was|am|is)\b", lambda m: "they were" if m.group(1) == "was" else "they are", text)
    for quote in ('"', "“", "”"):
        if text.count(quote) % 2:
            text = text.replace(quote, "")
    text = text.rstrip(".!?… ").strip()
    if text.count("(") == text.count(")") + 1 and text.rfind("(") > text.rfind(")"):
        text += ")"  # "Sam (7) and Ella (4)": the last bracket went with the punctuation at the end
    text = re.sub(r"\bcan not\b", "cannot", text)
    text = _clock_written(text)
    return text[:1].upper() + text[1:] if text else text


# "7.30am", "8 o'clock in the morning": a time of day as typed
_DOTTED_CLOCK = re.compile(r"\b(\d{1,2})\.(\d\d) ?(am|pm)\b", re.IGNORECASE)
_OCLOCK_PART = re.compile(r"\b(\d{1,2}) o'clock in the (morning|afternoon|evening)\b")


def _clock_written(text: str) -> str:
    """A time of day written one way: "7.30am" as "7:30am", "8 o'clock in the morning" as "8am"."""
    text = _DOTTED_CLOCK.sub(lambda m: f"{m[1]}:{m[2]}{m[3].lower()}", text)
    return _OCLOCK_PART.sub(lambda m: m[1] + ("am" if m[2] == "morning" else "pm"), text)


def leading_trimmed(words: list[Word], head: Word | None = None) -> list[Word]:
    """Without the openers, fillers and laughs a chat line starts or ends with; never the clause's
    own verb ("I like spicy food": "like" is a filler only when it is not the verb)."""
    while words and words[0] is not head and words[0].dep != "neg" and (  # "no longer": no opener
        words[0].lower in DISCOURSE
        or words[0].pos in ("PUNCT", "INTJ", "CCONJ")
        or words[0].dep in ("cc", "intj")
        or is_noise(words[0])
    ):
        words = words[1:]
    dropped: Word | None = None
    while words and words[-1] is not head and (
        words[-1].pos == "PUNCT"
        or is_noise(words[-1])
        or words[-1].lower in DISCOURSE
        or words[-1].dep in ("cc",)
        # "... for now": the preposition whose object was a filler goes with it
        or (dropped is not None and dropped.head == words[-1].i and words[-1].pos == "ADP")
    ):
        dropped, words = words[-1], words[:-1]
    return words


_SUBORDINATE = frozenset(
    {
        "so",
        "because",
        "since",
        "but",
        "although",
        "though",
        "while",
        "if",
        "when",
        "as",
        "cause",
        "before",
        "after",
        "until",
        "unless",
        "whereas",
        "whether",
    }
)
_OTHERS = frozenset(
    {
        "he",
        "she",
        "it",
        "him",
        "her",
        "his",
        "hers",
        "its",
        "they",
        "them",
        "their",
        "theirs",
        "this",
        "that",
        "these",
        "those",
        "himself",
        "herself",
        "itself",
        "themselves",
    }
)
_REMOVABLE = frozenset({"advcl", "xcomp", "prep", "relcl", "acl", "npadvmod", "ccomp", "appos", "conj"})
_CORE = frozenset({"ccomp", "xcomp"})
_STEADY = frozenset({"always", "usually", "often", "never", "sometimes", "recently", "still", "mostly",
                     "rarely", "seldom", "hardly", "barely", "occasionally", "normally", "generally",
                     "regularly", "frequently", "mainly", "only"})
# an adverb that says how often or since when only with the word before it: "no longer", "hardly ever"
_BY_WHAT_BEFORE = {"longer": frozenset({"no"}), "ever": frozenset({"hardly", "barely", "rarely", "never"})}
_FILLERS = (
    ("by", "the", "way"),
    ("to", "be", "honest"),
    ("for", "some", "reason"),
    ("at", "least"),
    ("if", "i", "'m", "honest"),
    ("in", "fact"),
    ("of", "course"),
    ("for", "sure"),
    ("to", "be", "fair"),
)


def _cut(sentence: Sentence, head: Word, child: Word) -> bool:
    """Whether a word under the clause's head starts a part that is not the clause's own."""
    if child.dep in ("nsubj", "nsubjpass", "expl", "intj", "parataxis", "dep", "discourse"):
        return True
    if child.dep == "punct":  # a word read as punctuation is the parser's slip ("down to 80 kilos")
        return not any(ch.isalnum() for ch in child.text)
    if child.dep == "cc":  # "and": cut with the clause it joins, kept in "my business and my routines"
        return any(c.dep == "conj" and c.pos in ("VERB", "AUX") for c in sentence.children(head.i))
    if child.dep == "conj" and child.pos in ("VERB", "AUX"):
        return True
    if child.dep in ("advcl", "ccomp") and child.i < head.i:
        return True
    if child.dep == "advcl" and any(
        c.dep == "mark" and c.lower in _SUBORDINATE for c in sentence.children(child.i)
    ):
        return True
    own = sentence.children(child.i)
    # "..., tinnitus in my left ear, not shocking": a statement of its own (not "when I ...")
    subjected = any(c.dep in ("nsubj", "nsubjpass") for c in own)
    if child.dep == "advcl" and child.i > head.i and subjected and not any(
        c.dep == "mark" or c.tag == "WRB" for c in own
    ):
        return True
    # "found a room near Ossington, moving 1 April": what follows a comma in -ing after a thing done is
    # a thing of its own, ahead, not the manner of the first (nor its day, read into the past)
    if child.dep == "advcl" and child.tag == "VBG" and head.tag == "VBD" and child.i > head.i and not any(
            c.dep == "mark" or c.tag == "WRB" for c in own) and sentence.subtree(child.i)[0].i > 0:
        return sentence.words[sentence.subtree(child.i)[0].i - 1].text == ","
    # "I'm retired, used to be a postman": a statement of its own, its "I" left out
    if child.dep == "advcl" and child.tag in ("VBD", "VBN") and child.i > head.i and not any(
            c.dep == "mark" for c in own) and any(c.dep in ("xcomp", "dobj", "attr") for c in own):
        return sentence.words[sentence.subtree(child.i)[0].i - 1].text == ","
    return child.dep == "ccomp" and any(c.dep in ("nsubj", "nsubjpass") for c in sentence.children(child.i))


def _who_we_are(sentence: Sentence, head: Word) -> list[Word]:
    """ "We live in Leeds, me and my husband Tom": after a comma, who "we" are — named apart, as
    the person's people, never as a part of where or what."""
    if not any(c.dep == "nsubj" and c.lower == "we" for c in sentence.children(head.i)):
        return []
    for child in sentence.subtree(head.i):  # the parser hangs the list on the verb or on the place
        part = sentence.subtree(child.i)
        if (child.i > head.i and child.dep in ("npadvmod", "appos", "dep", "conj") and part[0].i > 0
                and sentence.words[part[0].i - 1].text == ","
                and any(w.lower in ("me", "i", "myself") and w.pos == "PRON" for w in part)):
            start = part[0].i - 1
            # the list runs on over commas ("my wife Pauline and me, and Rufus, our old beagle") up
            # to one before a time or a place that is the clause's again ("…, me and the kids, in 2019")
            end = next((c.i for c in sentence.words[start + 1:-1] if c.text == ","
                        and sentence.words[c.i + 1].dep == "prep"), len(sentence.words) - 1)
            return [w for w in sentence.words if start <= w.i <= end and not (
                w.i == end and w.pos == "PUNCT" and w.text != ",")]
    return []


def _aside_after_what_they_are(sentence: Sentence, head: Word) -> Word | None:
    """ "I'm a nurse, night shifts mostly", "I'm a chef, pastry mostly": a remark after a comma on
    what the person is, with no verb of its own; the memory is what they are."""
    what = next((c for c in sentence.children(head.i) if c.dep == "attr" and c.i > head.i), None)
    if what is None or what.pos not in ("NOUN", "PROPN"):
        return None  # "I'm 40, a teacher, ...": a list of what they are, each its own memory
    # "a locksmith in Inverness, 68 years old, ...": an age after it is a thing of its own, wherever
    # the parser hangs it (a bare adjective is said of the job: "a chef, self-employed")
    aged = [w for w in sentence.subtree(what.i) if w.dep == "amod" and w.lower == "old"]
    for c in [*sentence.children(head.i), *sentence.children(what.i), *aged]:
        part = sentence.subtree(c.i)
        aside = c.dep in ("attr", "npadvmod", "appos") or (
            c.dep == "amod" and any(w.pos == "NUM" for w in part))
        if (aside and c.i > what.i and part[0].i > 0
                and c.lemma.lower() not in OCCUPATIONS  # "a nurse, a midwife really": two things
                and c.pos != "NUM"  # "a retired nurse, 67": an age, a thing of its own
                and sentence.words[part[0].i - 1].text == ","
                and not any(w.pos in ("VERB", "AUX") for w in part)):
            return c
    return None


def clause_words(clause: Clause, drop: Iterable[int] = (), assistant: bool = False) -> list[Word]:
    """The words of a clause, without its subject, the clauses joined to it ("and I ...", "so
    ..."), the chat around it, and any part that points at someone or something named elsewhere
    ("to research it"). Nothing when its very core does ("I love it")."""
    sentence, head = clause.sentence, clause.head
    whole = {w.i for w in sentence.subtree(head.i)}
    inside = set(whole)
    aside = _aside_after_what_they_are(sentence, head)
    if aside is not None:  # with all after it: "..., season ticket holder since 2019"
        start = sentence.subtree(aside.i)[0].i
        inside -= {i for i in whole if i >= start}
    # "I'm lactose intolerant so no milk please": what follows "so" is what it means for now
    so = next((c for c in sentence.children(head.i)
               if c.dep == "cc" and c.lower == "so" and c.i > head.i), None)
    if so is not None:
        inside -= {i for i in whole if i >= so.i}
    for word in sentence.subtree(head.i):
        if (
            word.i in inside
            and word is not head
            and (
                (word.head == head.i and _cut(sentence, head, word))
                or (word.head != head.i and word.dep == "advcl" and _cut(sentence, head, word))
            )
        ):
            inside -= {w.i for w in sentence.subtree(word.i)}
    # "... before I turn 40": a word the parser hung on the head as punctuation, right after a part
    # cut away, goes with that part
    inside -= {w.i for w in sentence.children(head.i)
               if w.dep == "punct" and any(ch.isalnum() for ch in w.text)
               and w.i - 1 >= 0 and w.i - 1 not in inside and w.i - 1 in whole}
    discourse = [w for w in sentence.children(head.i) if w.dep == "advmod" and w.lower in DISCOURSE]
    inside -= {w.i for w in discourse}  # the word alone: what hangs on a misread "lol" is kept
    inside -= {a.i for w in discourse for a in sentence.children(w.i) if a.dep == "advmod" and a.pos == "ADV"}
    # ("right now": the adverb of the word left out goes with it)
    inside -= {w.i for w in sentence.words if w.lower in ("here", "there") and w.dep == "advmod"}
    # "On a better note, I stopped smoking": a turn of the talk, not where or when it happened
    inside -= {w.i for p in sentence.children(head.i) if p.dep == "prep" and p.lower == "on" and any(
        o.lemma.lower() == "note" and any(d.dep == "amod" or d.lower in ("another", "that")
                                           for d in sentence.children(o.i))
        for o in sentence.children(p.i) if o.dep == "pobj") for w in sentence.subtree(p.i)}
    # "I want to learn Telugu properly this time": unlike the times before, not a time it names
    inside -= {w.i for t in sentence.subtree(head.i) if t.dep == "npadvmod" and t.lemma.lower() == "time"
               and any(d.lower == "this" for d in sentence.children(t.i)) for w in sentence.subtree(t.i)}
    # "Nurse here, I work nights ...": the one speaking introduces themselves; what the clause says
    # is without it ("Works nights ...", not "... in Bristol Nurse").
    inside -= {w.i for intro in sentence.words if intro.dep == "npadvmod" and any(
        c.lower == "here" and c.dep == "advmod" for c in sentence.children(intro.i))
        for w in sentence.subtree(intro.i)}
    inside -= {w.i for w in _remarks_before(sentence, head)}
    inside -= {w.i for w in _who_we_are(sentence, head)}
    # "Bit of an odd one: I'm a funeral director": what comes before a colon that opens the
    # statement is its headline, not part of it
    colon = next((w.i for w in sentence.words if w.text == ":" and w.i < head.i), None)
    if colon is not None and clause.subject is not None and clause.subject.i > colon:
        inside -= set(range(colon + 1))
    asked = asked_after_a_comma(sentence)
    if asked is not None and head.i < asked:  # "I'm coeliac, where could I get lunch": what is asked
        inside -= {w.i for w in sentence.words if w.i >= asked}
    joined_on = _another_clause_after(sentence, head)
    if joined_on is not None:  # "I'm lactose intolerant, so at home I bake dairy free"
        inside -= {w.i for w in sentence.words if w.i >= joined_on}
    inside -= set(drop)
    for word in [w for w in sentence.words if w.i in inside and w.lower in _OTHERS and w.pos == "PRON"]:
        if word.i not in inside:
            continue
        part = next(
            (
                a
                for a in [word, *sentence.ancestors(word.i)]
                if a is not head and a.dep in _REMOVABLE and a.i in inside
            ),
            None,
        )
        if part is None or (part.i == word.i and word.head == head.i) or part.dep in _CORE:
            return []  # what the clause is about is named elsewhere ("I love seeing them eat")
        inside -= {w.i for w in sentence.subtree(part.i)}
    if not assistant and any(
        w.lower in ("you", "your", "yours", "u", "ur") and w.pos == "PRON" and w.i in inside
        for w in sentence.words
    ):
        return []  # about the one they talk to, not about them
    words = [w for w in sentence.words
             if w.i in inside and (not is_noise(w) or _hyphen_inside(sentence, w, inside))]
    words = _without_fillers(words)
    return _head_first(leading_trimmed(words, head), head)


def _hyphen_inside(sentence: Sentence, word: Word, inside: set[int]) -> bool:
    """A hyphen that joins the two words around it into one name, as written without spaces
    ("Trans-Wielkopolska", which a parser may split into three names): part of it, no noise."""
    return (word.text == "-" and word.space == "" and 0 < word.i < len(sentence.words) - 1
            and sentence.words[word.i - 1].space == "" and word.i - 1 in inside and word.i + 1 in inside
            and sentence.words[word.i - 1].text[-1:].isalnum()
            and sentence.words[word.i + 1].text[:1].isalnum())


# What a fronted time names when it is a time ("last week, ..."), not a remark ("big week, ...").
_TIME_MARKS = frozenset(
    {"last", "next", "this", "every", "each", "following", "coming", "past", "same", "other"})


def _remarks_before(sentence: Sentence, head: Word) -> list[Word]:
    """A remark on the time said before the clause, set off by a comma ("big week, we're moving on
    Saturday", "crazy day, I ..."): how it feels, not when; not "last week, I ..."."""
    out: list[Word] = []
    for word in sentence.children(head.i):
        if word.dep != "npadvmod" or word.i > head.i:
            continue
        part = sentence.subtree(word.i)
        after = sentence.words[part[-1].i + 1] if part[-1].i + 1 < len(sentence.words) else None
        marks = [c for c in sentence.children(word.i) if c.dep in ("amod", "det", "nummod")]
        if (after is not None and after.text == "," and marks
                and not any(m.lower in _TIME_MARKS or m.pos == "NUM" for m in marks)
                and all(m.dep == "amod" for m in marks)):
            out += part
    return out


def _head_first(words: list[Word], head: Word) -> list[Word]:
    """The clause starting at its verb, as a memory does: what came before it ("However", "That's
    why", "Once") is left out, a time or place before it ("In May, I ...") is moved after it."""
    start = next(
        (
            n
            for n, w in enumerate(words)
            if w.i == head.i or (w.head == head.i and w.dep in ("aux", "auxpass", "neg") and w.i < head.i)
        ),
        None,
    )
    if start is None or start == 0:
        return words
    before, rest = words[:start], words[start:]
    places = {w.i: w for w in words}
    moved = [
        w
        for w in before
        if (
            w.dep in ("prep", "npadvmod", "pobj", "det", "amod", "nummod", "compound")
            or any(a.dep in ("prep", "npadvmod") and a.head == head.i for a in [w])
        )
        # "Tom and I went ...", misread: Tom is who went with them, not a time to move
        and not (w.pos == "PROPN" and w.dep == "npadvmod" and _before_and_i(w, places))
    ]
    # how often, or that no longer ("I no longer have a car", "I hardly ever drink"): the adverb
    # with the words that make it one
    steady = {w.i for w in before if w.dep == "advmod" and w.head == head.i and (
        w.lower in _STEADY or (w.lower in _BY_WHAT_BEFORE and any(
            c.head == w.i and c.lower in _BY_WHAT_BEFORE[w.lower] for c in before)))}
    kept_adverbs = [w for w in before if w.i in steady or (w.head in steady and w.dep in ("neg", "advmod"))]
    names = any(w.pos in ("NOUN", "PROPN", "NUM") for w in moved)
    return [*kept_adverbs, *rest, *moved] if names else [*kept_adverbs, *rest]


def _before_and_i(word: Word, places: dict[int, Word]) -> bool:
    after = places.get(word.i + 1)
    return after is not None and after.lower == "and"


def _without_fillers(words: list[Word]) -> list[Word]:
    lowered = [w.lower for w in words]
    out = list(words)
    for filler in _FILLERS:
        n = len(filler)
        for start in range(len(lowered) - n, -1, -1):
            if tuple(lowered[start : start + n]) == filler:
                del out[start : start + n]
                del lowered[start : start + n]
    return out
