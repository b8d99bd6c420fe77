"""Whether a model's candidate comes from the conversation it was asked about.

Small models copy the example in their prompt ("Works at Acme as a designer", "Call the dentist on
11 March") or name what no one said. A candidate is kept only when it shares a detail word with the
conversation, is not one of the prompt's examples with words the conversation does not say, and
every name it gives — a capitalised word inside its sentence, its slot's value, its entities — is
said there.
Dates and numbers are left out of the test: a model may rightly write "in March" for "last month",
or "2" for "two".
"""

from __future__ import annotations

import re
from functools import lru_cache

from domain.extraction.consolidate import content_words

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_CALENDAR = frozenset(
    {
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tomorrow",
        "yesterday",
        "i",
    }
)


def names(text: str, every_word: bool = False) -> set[str]:
    """The names in `text`: its capitalised words after the first (all words when `every_word`)."""
    words = _WORD.findall(text)
    named = words if every_word else [w for w in words[1:] if w[0].isupper()]
    return {w.casefold().strip("'’-") for w in named} - _CALENDAR


def ungrounded(
    content: str,
    value: str | None,
    entities: tuple[str, ...] | list[str],
    conversation: str,
    examples: tuple[str, ...] = (),
) -> str | None:
    """Why the candidate is not from `conversation`, or None when it is. `examples`: the memories
    the prompt shows (a copy of one, some of whose words no one said, is not from the conversation)."""
    said, detail = _said(conversation)
    words = content_words(content)
    if not words & detail:
        return "no word of it is in the conversation"
    unsaid = {w for w in words - detail if not w.isdigit() and w not in _CALENDAR}
    if any(words <= content_words(example) and unsaid for example in examples):
        return "it is the prompt's example, not what was said"
    named = names(content) | names(value or "", every_word=True)
    for entity in entities:
        named |= names(entity, every_word=True)
    missing = sorted(n for n in named if n not in said and not _possessive_of_said(n, said))
    if missing:
        return f"names what the conversation does not: {', '.join(missing[:5])}"
    return None


@lru_cache(maxsize=8)
def _said(conversation: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of a conversation, and its detail words: worked out once for all its candidates."""
    words = frozenset(w.casefold().strip("'’-") for w in _WORD.findall(conversation))
    return words, content_words(conversation)


def _possessive_of_said(word: str, said: frozenset[str]) -> bool:
    return word.endswith(("'s", "’s")) and word[:-2] in said
