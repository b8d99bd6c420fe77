"""Names typed in lower case, written as names before the parse that the rules read.

Someone who types all in lower case types names so too: "me n my gf chloe share a flat", "my
sister kayla is getting married", "i got a ferret called biscuit". The small English model reads
a name by its capital; without one, "chloe" is a noun, the rules see no one named, and the
girlfriend, the sister and the ferret are lost. A careful reader of such a line knows the names by
where they stand, and so does this module — only in a line typed in lower case (one that writes
names with capitals writes them so), and only where a name is what the grammar expects:

- the word after "called" or "named" ("a ferret called biscuit", "a dog named max");
- a single word right after one of the person's people named by their role ("my sister kayla",
  "my roommate luis", "my son tyler") that the parse of the line as typed takes for a noun of its
  own — not a verb ("my sister works"), a plural ("my dad jokes") or a word of another kind, not
  after a plural role (a possessive typed without its apostrophe: "my parents house"), and not a
  word the English dictionary knows as a noun ("give my landlord notice", "my wife work is
  crazy", "my friend group") unless the parse took it for a proper noun ("my friend dave");
- a single word after an animal the person has ("my ball python noodle") where even the parse of
  the lower-case line took it for a proper noun ("my dog walker": a noun, left as typed);
- one word paired with the person ("me and chloe split up", "chloe and i") that the dictionary
  does not know as a noun, or that the parse took for a proper noun ("me and work": left).

The line is then parsed again as it would have been written. The decision reads only the line's
own words and their first parse, so the same line always gives the same text.
"""

from __future__ import annotations

import re
from typing import Any

from domain.extraction.lexicon import CASUAL, OWN_PEOPLE, PETS
from domain.text.english import MONTH_NAMES

# What typed_plainly writes with a capital in a line typed in lower case: "I", "I'm", a month
# beside its day.
_CAPITALISED_FOR_THEM = re.compile(
    r"\bI(?:['’](?:m|ve|ll|d))?\b|\b(?:" + "|".join(m.capitalize() for m in MONTH_NAMES) + r")\b"
)
_NAMING = frozenset({"called", "named", "nicknamed"})
_PEOPLE = frozenset(OWN_PEOPLE | CASUAL | {"gf", "bf", "fiancé", "fiance", "ex"})
_OWNERS = frozenset({"my", "our"})
# Words after a role that are never a name, whatever the parse says ("my sister too").
_NEVER = frozenset({"too", "also", "though", "again", "now", "then", "here", "there", "today", "tonight",
                    "lol", "haha", "rn", "tbh", "btw", "idk", "ok", "okay", "pls", "plz", "n", "u", "inlaw",
                    "inlaws"})


def typed_in_lower_case(text: str) -> bool:
    """Whether `text` (as typed_plainly writes it, before a place gets its capital) was typed
    without capitals: none but those written in for the writer (an "I", a month beside its day)."""
    letters = [ch for ch in _CAPITALISED_FOR_THEM.sub("", text) if ch.isalpha()]
    return len(letters) >= 8 and not any(ch.isupper() for ch in letters)


def _owned(role: Any) -> bool:
    """ "my sister", "my little sister", "our cousin": a role of the person's own people."""
    return any(c.dep_ == "poss" and c.lower_ in _OWNERS for c in role.children) or any(
        c.dep_ == "poss" and c.lower_ in _OWNERS for c in role.head.children if role.dep_ == "compound")


def _a_name(token: Any, nouns: frozenset[str]) -> bool:
    """Whether a lower-case word of the first parse stands where a name is expected (`nouns`: the
    words the English dictionary knows as nouns)."""
    if not token.is_alpha or not token.is_lower or token.lower_ in _NEVER or len(token) < 2:
        return False
    before = token.doc[token.i - 1] if token.i > 0 else None
    if before is None:
        return False
    if before.lower_ in _NAMING:
        return not token.is_stop and token.pos_ in ("NOUN", "PROPN", "ADJ", "VERB")
    if token.is_stop or token.tag_ not in ("NN", "NNP"):
        return False
    # "me and chloe split up", "chloe and i": one named beside the person, in a pair with them
    paired = token.dep_ == "conj" and token.head.lower_ in ("me", "i") and before.lower_ in ("and", "n", "&")
    pairs = token.dep_ in ("nsubj", "nsubjpass") and any(
        c.dep_ == "conj" and c.lower_ in ("me", "i") for c in token.children)
    if paired or pairs:
        return token.lower_ not in nouns or token.tag_ == "NNP"
    role = before.lemma_.lower()
    people = (role in _PEOPLE or before.lower_ in _PEOPLE) and before.tag_ != "NNS" and not (
        token.lower_ in nouns and token.tag_ != "NNP")
    pet = role in PETS and token.tag_ == "NNP"
    if not (people or pet) or not _owned(before):
        return False
    # a compound of one ("my sister kayla"), or the name set beside the role ("my friend dave")
    return (before.dep_ == "compound" and before.head.i == token.i) or (
        token.dep_ == "appos" and token.head.i == before.i)


def names_capitalised(doc: Any, nouns: frozenset[str]) -> str | None:
    """The line of `doc` with the names typed in lower case written with capitals, or None where
    it has none."""
    names = [t for t in doc if _a_name(t, nouns)]
    if not names:
        return None
    text = doc.text
    for token in reversed(names):
        text = text[: token.idx] + token.text[:1].upper() + text[token.idx + 1:]
    return text
