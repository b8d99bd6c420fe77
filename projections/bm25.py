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
def _document_counts(text: str, function_words: bool, language: str) -> tuple[int, Counter[str]]:
    """How many words a candidate's text holds, and how often each (`terms`), kept: the same
    person's nodes come back search after search (Lucene's pool for each of their queries), and
    reading them again was a tenth of the API's CPU per search under load; counted once, a pool of
    300 is scored in a third of the time it took to count each query word in each candidate."""
    words = terms(text, function_words=function_words, language=language)
    return len(words), Counter(words)


def _indexed(words: str, function_words: bool, language: str) -> tuple[int, Counter[str]]:
    """Words as an index holds them (`words_zh`: the index analyzer's, space-separated), less the
    function words unless asked for: what `_document_counts` gives of the text they were cut from."""
    found = words.split()
    if not function_words:
        stop = analyzer("query", language).stop
        found = [w for w in found if w not in stop]
    return len(found), Counter(found)


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
    read = [_indexed(d, keep, language) if indexed else _document_counts(d, keep, language)
            for d in documents]
    df = Counter(t for _, counts in read for t in wanted if t in counts)
    n = max(total_documents, len(documents))
    average = sum(length for length, _ in read) / len(read) or 1.0
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in sorted(df)}
    scores = []
    for length, counts in read:
        norm = K1 * (1 - B + B * length / average)
        scores.append(sum(idf[t] * counts[t] * (K1 + 1) / (counts[t] + norm) for t in idf if t in counts))
    return scores
