"""The one text module: each purpose reads words through its language's analyzer."""

from __future__ import annotations

import pytest
import snowballstemmer

from domain.text import LANGUAGES, analyzer, language, stem
from tests.support.threads import misread_under_threads


def test_every_language_names_an_analyzer_for_every_purpose() -> None:
    for code, known in LANGUAGES.items():
        assert set(known.analyzers) >= {"index", "query", "detail", "topic"}, code


def test_an_unknown_language_or_purpose_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'xx'"):
        language("xx")
    with pytest.raises(ValueError, match="'poetry'"):
        analyzer("poetry")


def test_the_index_reads_as_lucenes_english_analyzer_and_the_query_leaves_function_words_out() -> None:
    assert analyzer("index").words("What did she say about the dog's bowls?") == \
        ["what", "did", "she", "sai", "about", "dog", "bowl"]
    assert analyzer("query").words("What did she say about the dog's bowls?") == ["sai", "dog", "bowl"]


def test_detail_words_are_stemmed_without_the_small_words() -> None:
    assert analyzer("detail").words("I live in Berlin and I'm running 10 km") == \
        ["live", "berlin", "m", "run", "10", "km"]
    detail = analyzer("detail")
    assert set(detail.words("Lives in Berlin")) == set(detail.words("I live in Berlin."))


def test_topic_words_are_as_said_without_chat_filler() -> None:
    said = "Yeah, I think the pottery class was great fun!"
    assert analyzer("topic").words(said) == ["pottery", "class", "fun"]


def test_sentences_are_cut_at_their_ends_and_lines() -> None:
    assert language().sentences("I moved. Did you?\nYes!  ") == ["I moved.", "Did you?", "Yes!"]


def test_stems_stay_right_when_threads_share_a_stemmer() -> None:
    words = [f"{a}{b}{c}{ending}" for a in "bcdfgklmnprst" for b in "aeiou" for c in "dlmnrst"
             for ending in ("ations", "ing", "ness", "edly", "ful")]
    for algorithm in ("porter", "english"):
        reference = snowballstemmer.stemmer(algorithm)
        expected = {w: reference.stemWord(w) for w in words}
        stem.cache_clear()
        assert misread_under_threads(expected, lambda w, a=algorithm: stem(a, w)) == []
