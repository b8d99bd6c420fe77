"""A sentence as a parser reads it: words with their lemma, part of speech, syntactic head and
named-entity type. The domain reads these; which parser made them is the adapter's business
(`infra/nlp`), so that the rules stay pure functions of what was said."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Word:
    i: int  # its place in the sentence, from 0
    text: str
    space: str  # the whitespace after it
    lemma: str
    pos: str  # universal part of speech: NOUN, VERB, AUX, PRON, PROPN, ...
    tag: str  # fine-grained (Penn) tag: VBD, VBZ, NNS, ...
    dep: str  # its relation to its head: nsubj, dobj, neg, ROOT, ...
    head: int  # the place of its head (itself for the root)
    ent: str = ""  # the named-entity type it is part of (PERSON, GPE, DATE, ...), or ""
    ent_start: bool = False  # the first word of its entity

    @property
    def lower(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class Sentence:
    words: tuple[Word, ...]

    @property
    def text(self) -> str:
        return "".join(w.text + w.space for w in self.words).strip()

    def children(self, i: int) -> list[Word]:
        return [w for w in self.words if w.head == i and w.i != i]

    def subtree(self, i: int) -> list[Word]:
        """The word and every word that depends on it, in order."""
        inside = {i}
        changed = True
        while changed:
            changed = False
            for w in self.words:
                if w.i not in inside and w.head in inside and w.head != w.i:
                    inside.add(w.i)
                    changed = True
        return [w for w in self.words if w.i in inside]

    def ancestors(self, i: int) -> Iterator[Word]:
        word = self.words[i]
        while word.head != word.i:
            word = self.words[word.head]
            yield word

    def entities(self) -> list[tuple[str, list[Word]]]:
        """The named entities, in order: (type, words)."""
        found: list[tuple[str, list[Word]]] = []
        for w in self.words:
            if not w.ent:
                continue
            if w.ent_start or not found or found[-1][1][-1].i != w.i - 1 or found[-1][0] != w.ent:
                found.append((w.ent, [w]))
            else:
                found[-1][1].append(w)
        return found


def joined(words: Sequence[Word]) -> str:
    """Words as they were written (their spacing kept), without the space after the last; two
    words with a word left out between them ("steroid cream, hydrocortisone" less its comma) keep
    a space between them."""
    out: list[str] = []
    for n, word in enumerate(words):
        out.append(word.text)
        if n + 1 < len(words):
            out.append(word.space if words[n + 1].i == word.i + 1 else word.space or " ")
    return "".join(out).strip()


class Parser(Protocol):
    """Cuts texts into sentences and parses them; the same text always gives the same parse."""

    name: str

    def parse(self, texts: Sequence[str]) -> list[list[Sentence]]:
        """Per text, its sentences."""
        ...
