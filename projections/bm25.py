"""BM25 with the person's own statistics, over the candidates Lucene found for them.

Lucene scores with document frequencies of the whole index, which spans everyone: a word that
is rare in general but common for one person (their own name, their employer) then outweighs
every other word of their query. Lucene still finds the candidates (every node of theirs
that holds a query word, up to a cap); this rescoring counts how often each word occurs among
*their* nodes, which is what one person's search should weigh.

Words are read as Lucene's English analyzer reads them (the `index` analyzer of `domain/text`:
possessive dropped, lower-cased, its stop words left out, Porter-stemmed), so that every candidate
Lucene found by a word ("adopted" for "adoption") is scored by that word too. Function words
(what, did, she, about, ...) are left out of what is looked for: a question is mostly made of them,
they hold in most turns, and each one matched lifts a turn that shares nothing else with the
question.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from domain.text import analyzer
from domain.text.english import FUNCTION_WORDS, LUCENE_STOP_WORDS

STOP_WORDS = LUCENE_STOP_WORDS  # what Lucene's English index leaves out
__all__ = ["FUNCTION_WORDS", "STOP_WORDS", "rescore", "terms"]
K1, B = 1.2, 0.75


def terms(text: str, function_words: bool = False, language: str = "en") -> list[str]:
    """The words of `text` as BM25 weighs them: lower-cased, without stop words (and without
    function words unless asked for), possessives dropped, Porter-stemmed; Chinese cut by jieba."""
    return analyzer("index" if function_words else "query", language).words(text)


@lru_cache(maxsize=20_000)
def _document_terms(text: str, function_words: bool, language: str) -> tuple[str, ...]:
    """`terms` of a candidate's text, kept: the same person's nodes come back search after search
    (Lucene's pool for each of their queries), and reading them again was a tenth of the API's
    CPU per search under load."""
    return tuple(terms(text, function_words=function_words, language=language))


def _indexed(words: str, function_words: bool, language: str) -> list[str]:
    """Words as an index holds them (`words_zh`: the index analyzer's, space-separated), less the
    function words unless asked for: what `terms` gives of the text they were cut from."""
    found = words.split()
    if function_words:
        return found
    stop = analyzer("query", language).stop
    return [w for w in found if w not in stop]


def rescore(query: str, documents: Sequence[str], total_documents: int, language: str = "en",
            indexed: bool = False) -> list[float]:
    """BM25 of each document for `query`, with document frequencies counted in `documents`
    (all of the person's that hold a query word) and `total_documents` the person's count.
    A query made only of function words is weighed by them. `indexed`: the documents are words as
    the index holds them (`_indexed`), not texts to read."""
    wanted = set(terms(query, language=language))
    keep = not wanted
    if keep:
        wanted = set(terms(query, function_words=True, language=language))
    if not wanted or not documents:
        return [0.0] * len(documents)
    tokenized = [_indexed(d, keep, language) if indexed else _document_terms(d, keep, language)
                 for d in documents]
    df = Counter(t for tokens in tokenized for t in set(tokens) & wanted)
    n = max(total_documents, len(documents))
    average = sum(len(t) for t in tokenized) / len(tokenized) or 1.0
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in df}
    scores = []
    for tokens in tokenized:
        norm = K1 * (1 - B + B * len(tokens) / average)
        counts = {t: tokens.count(t) for t in idf}  # only the query's words: a handful
        scores.append(sum(idf[t] * counts[t] * (K1 + 1) / (counts[t] + norm) for t in idf if counts[t]))
    return scores
