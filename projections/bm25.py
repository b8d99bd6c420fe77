"""BM25 with the person's own statistics, over the candidates Lucene found for them.

Lucene scores with document frequencies of the whole index, which spans everyone: a word that
is rare in general but common for one person (their own name, their employer) then outweighs
every other word of their query. Lucene still finds the candidates (every node of theirs
that holds a query word, up to a cap); this rescoring counts how often each word occurs among
*their* nodes, which is what one person's search should weigh.

Words are read as Lucene's English analyzer reads them (possessive dropped, lower-cased, its stop
words left out, Porter-stemmed), so that every candidate Lucene found by a word ("adopted" for
"adoption") is scored by that word too. Function words (what, did, she, about, ...) are left out
of what is looked for: a question is mostly made of them, they hold in most turns, and each one
matched lifts a turn that shares nothing else with the question.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import snowballstemmer

_WORD = re.compile(r"\w+(?:'\w+)?", re.UNICODE)
# Lucene's English stop words, which its index leaves out.
STOP_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
})
# Words that ask, point or join rather than name what a text is about: NLTK's English stop words
# (question words, pronouns, auxiliaries, prepositions) and their contractions, less those that
# are also words of their own ("won"). A search looks for them only when a query holds nothing else.
_FUNCTION_WORDS = """
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
hers herself it its itself they them their theirs themselves what which who whom this that these
those am is are was were be been being have has had having do does did doing a an the and but if
or because as until while of at by for with about against between into through during before after
above below to from up down in out on off over under again further then once here there when where
why how all any both each few more most other some such no nor not only own same so than too very
s t can will just don should now d ll m re ve aren couldn didn doesn hadn hasn haven isn mustn
shouldn wasn weren wouldn i'm i've i'd i'll you're you've you'd you'll
he's she's it's we're we've we'd we'll they're they've they'd they'll that's what's who's where's
when's why's how's there's here's let's don't doesn't didn't isn't aren't wasn't weren't haven't
hasn't hadn't won't wouldn't can't couldn't shouldn't mustn't
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
K1, B = 1.2, 0.75
_PORTER = snowballstemmer.stemmer("porter")  # the stemmer of Lucene's English analyzer
# A snowball stemmer keeps the word it works on in itself: two threads at once garble each other's
# stems (or raise), and a search's sources run on several threads.
_STEMMING = threading.Lock()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    with _STEMMING:
        return str(_PORTER.stemWord(word))


def terms(text: str, function_words: bool = False) -> list[str]:
    """The words of `text` as BM25 weighs them: lower-cased, without stop words (and without
    function words unless asked for), possessives dropped, Porter-stemmed."""
    out = []
    for word in _WORD.findall(text.lower()):
        if word in STOP_WORDS or (not function_words and word in FUNCTION_WORDS):
            continue
        word = word.removesuffix("'s")
        if word:
            out.append(_stem(word))
    return out


def rescore(query: str, documents: Sequence[str], total_documents: int) -> list[float]:
    """BM25 of each document for `query`, with document frequencies counted in `documents`
    (all of the person's that hold a query word) and `total_documents` the person's count.
    A query made only of function words is weighed by them."""
    wanted = set(terms(query))
    keep = not wanted
    if keep:
        wanted = set(terms(query, function_words=True))
    if not wanted or not documents:
        return [0.0] * len(documents)
    tokenized = [terms(d, function_words=keep) for d in documents]
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
