"""An analyzer: how one purpose reads a text as words (cut, folded, stop words left out, stemmed).

Each language names its analyzers (`domain/text/languages.py`); a reader asks for one by purpose
and language, so that BM25, consolidation and summaries read a text the way they each need, from
one place.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from domain.text.stemming import stem


def _lower(text: str) -> str:
    return text.lower()


@dataclass(frozen=True)
class Analyzer:
    name: str
    token: re.Pattern[str]  # what a word is
    fold: Callable[[str], str] = _lower  # case folding (str.lower, str.casefold)
    fold_first: bool = True  # fold the text before it is cut (as Lucene does)
    strip: str = ""  # characters taken off each word's ends
    min_length: int = 1  # shorter words are left out
    stop: frozenset[str] = frozenset()  # words left out
    suffix: str = ""  # taken off a word once stop words are out ("'s")
    stemmer: str | None = None  # a snowball algorithm, or None: no stemming
    # A language written without spaces is cut by a segmenter; `token` then says which of its
    # pieces are words (not punctuation).
    cut: Callable[[str], list[str]] | None = None

    def words(self, text: str) -> list[str]:
        """The words of `text` as this analyzer reads them, in order."""
        if self.cut is not None:
            found = [self.fold(w) for w in self.cut(text) if self.token.search(w)]
        elif self.fold_first:
            found = self.token.findall(self.fold(text))
        else:
            found = [self.fold(w) for w in self.token.findall(text)]
        out = []
        for word in found:
            if self.strip:
                word = word.strip(self.strip)
            if len(word) < self.min_length or word in self.stop:
                continue
            if self.suffix:
                word = word.removesuffix(self.suffix)
                if not word:
                    continue
            out.append(stem(self.stemmer, word) if self.stemmer else word)
        return out
