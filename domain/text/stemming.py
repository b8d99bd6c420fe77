"""Stemmers that threads may share: a snowball stemmer keeps the word it works on in itself, so
each thread gets its own, and a stem once made is remembered for everyone."""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

_MINE = threading.local()


def _stemmer(algorithm: str) -> object:
    """This thread's stemmer of `algorithm` (made on its first word)."""
    stemmer = getattr(_MINE, algorithm, None)
    if stemmer is None:
        stemmer = snowballstemmer.stemmer(algorithm)
        setattr(_MINE, algorithm, stemmer)
    return stemmer


@lru_cache(maxsize=131072)
def stem(algorithm: str, word: str) -> str:
    """`word` stemmed by the snowball `algorithm` ("porter": Lucene's English analyzer's;
    "english": Porter2)."""
    return str(_stemmer(algorithm).stemWord(word))  # type: ignore[attr-defined]
