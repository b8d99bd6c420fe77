"""What sort of thing an entity is — a person, a place, an organisation, a tool — read from the
words around its name in the memory that names it. Decided when the memory is recorded and kept
in its event, so a replay types it the same way; a name the words say nothing about stays a
`thing` (a model's extraction, or a later memory, may type it).

The cues are ordinary English: "my sister Maya", "moved to Lisbon", "works at Acme", "switched
to Neovim", and names that say it themselves ("Acme Inc", "Porto University").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

PERSON, PLACE, ORGANISATION, TOOL, THING = "person", "place", "organisation", "tool", "thing"

_KIN = (r"friend|best friend|wife|husband|partner|girlfriend|boyfriend|sister|brother|mother|father|mom|"
        r"mum|dad|son|daughter|boss|colleague|coworker|co-worker|manager|cousin|aunt|uncle|grandma|"
        r"grandpa|grandmother|grandfather|niece|nephew|neighbour|neighbor|roommate|teacher|doctor|"
        r"therapist|coach|mentor|fiancée?|child|kid|baby")
_ORG_SUFFIX = re.compile(r"\b(inc|ltd|llc|gmbh|corp|corporation|company|co|university|college|school|"
                         r"bank|hospital|clinic|labs?|foundation|institute|agency|group|studio|ministry)\.?$",
                         re.IGNORECASE)
# Words just before the name, lower-cased, that say what it is.
_BEFORE: tuple[tuple[str, re.Pattern[str]], ...] = (
    (PERSON, re.compile(rf"\b(my|our|his|her|their)\s+(?:{_KIN})\s*,?\s*$")),
    (PERSON, re.compile(r"\b(met|meet|meeting|married|dating|called|texted|emailed|visited by|"
                        r"talked to|spoke with|spoke to|named)\s*$")),
    (ORGANISATION, re.compile(r"\b(works?|worked|working|job|intern(?:ed|ing)?)\s+(at|for)\s*$")),
    (ORGANISATION, re.compile(r"\b(joined|employer is|company is|hired by|studies at|studied at|"
                              r"graduated from)\s*$")),
    (TOOL, re.compile(r"\b(uses?|used|using|switched to|moved to using|installed|codes? in|coding in|"
                      r"programs? in|writes? in|editor is|ide is|prefers? using)\s*$")),
    (PLACE, re.compile(r"\b(lives? in|living in|lived in|moved to|moving to|born in|grew up in|"
                       r"travel(?:l)?ed to|travel(?:l)?ing to|trip to|flew to|flying to|visit(?:ed|ing)?|"
                       r"from|based in|stays? in|staying in|holiday in|vacation in|in|to)\s*$")),
)


def entity_type(name: str, text: str) -> str:
    """The type the words around `name` in `text` give it; THING when they give none."""
    if _ORG_SUFFIX.search(name.strip()):
        return ORGANISATION
    at = text.find(name)
    if at < 0:
        at = text.lower().find(name.lower())
    if at < 0:
        return THING
    before = text[max(0, at - 40):at].lower()
    for kind, cue in _BEFORE:
        if cue.search(before):
            return kind
    return THING


def entity_types(names: Iterable[str], text: str) -> tuple[tuple[str, str], ...]:
    """(name, type) for the names whose words say what they are."""
    return tuple((name, typed) for name in names if (typed := entity_type(name, text)) != THING)
