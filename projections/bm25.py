"""BM25 with the person's own statistics, over the candidates Lucene found for them.

Lucene scores with document frequencies of the whole index, which spans everyone: a word that
is rare in general but common for one person (their own name, their employer) then outweighs
every other word of their query. Lucene still finds the candidates (every node of theirs
that holds a query word, up to a cap); this rescoring counts how often each word occurs among
*their* nodes, which is what one person's search should weigh.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"\w+(?:'\w+)?", re.UNICODE)
# Lucene's English stop words, so that rescoring weighs the words Lucene matched on.
STOP_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
})
K1, B = 1.2, 0.75


def terms(text: str) -> list[str]:
    """Lower-cased words without stop words, with plural and possessive endings folded."""
    out = []
    for word in _WORD.findall(text.lower()):
        word = word.removesuffix("'s")
        if word in STOP_WORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def rescore(query: str, documents: Sequence[str], total_documents: int) -> list[float]:
    """BM25 of each document for `query`, with document frequencies counted in `documents`
    (all of the person's that hold a query word) and `total_documents` the person's count."""
    wanted = set(terms(query))
    if not wanted or not documents:
        return [0.0] * len(documents)
    tokenized = [terms(d) for d in documents]
    df = Counter(t for tokens in tokenized for t in set(tokens) & wanted)
    n = max(total_documents, len(documents))
    average = sum(len(t) for t in tokenized) / len(tokenized) or 1.0
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in df}
    scores = []
    for tokens in tokenized:
        counts = Counter(tokens)
        norm = K1 * (1 - B + B * len(tokens) / average)
        scores.append(sum(idf[t] * counts[t] * (K1 + 1) / (counts[t] + norm) for t in idf if counts[t]))
    return scores
