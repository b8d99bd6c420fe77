"""The person's own BM25: a word common among their memories weighs little, whatever the
rest of the index holds."""

from __future__ import annotations

import snowballstemmer

from domain.text import stem
from projections.bm25 import FUNCTION_WORDS, rescore, terms
from projections.search import query_words
from tests.support.threads import misread_under_threads


def test_words_are_lowered_without_stop_words_and_stemmed_as_lucenes_english_analyzer_does() -> None:
    assert terms("The Cats AND the dog's bowls, class") == ["cat", "dog", "bowl", "class"]
    # Lucene found "adopted" for "adoption" (both index as "adopt"): the rescoring must score it too
    assert terms("adoption") == terms("adopted") == terms("adopting") == ["adopt"]
    assert terms("hiking trails") == terms("hike trail")


def test_function_words_are_left_out_unless_asked_for() -> None:
    assert terms("What did she plant in her garden?") == ["plant", "garden"]
    assert terms("What did she plant?", function_words=True) == ["what", "did", "she", "plant"]


def test_a_turn_sharing_only_the_questions_function_words_scores_nothing() -> None:
    documents = ["What did you do about it, then?", "Ada planted tomatoes in her garden",
                 "The weather was fine"]
    scores = rescore("What did Ada do about her garden?", documents, total_documents=3)
    assert scores[0] == 0.0 and scores[2] == 0.0
    assert scores[1] > 0


def test_a_query_of_function_words_alone_is_still_weighed_by_them() -> None:
    scores = rescore("what about you?", ["what about you, then?", "green tea"], total_documents=2)
    assert scores[0] > 0 and scores[1] == 0.0


def test_the_words_a_search_looks_for_leave_function_words_out_unless_there_is_nothing_else() -> None:
    assert query_words("When did Ada adopt her cat?") == ["ada", "adopt", "cat"]
    assert query_words("What did she do?") == ["what", "did", "she", "do"]
    assert query_words("Don't you know?") == ["know"]


def test_a_word_every_document_holds_weighs_less_than_a_rare_one() -> None:
    documents = ["Caroline: I went to the pottery class", "Caroline: I love painting",
                 "Caroline: the support group was great", "Melanie: pottery is relaxing"]
    scores = rescore("Caroline pottery", documents, total_documents=4)
    assert scores[0] == max(scores)
    # 'caroline' is in three of four: the document with only 'pottery' beats those with only 'caroline'
    assert scores[3] > scores[1] and scores[3] > scores[2]


def test_documents_without_any_query_word_score_zero() -> None:
    assert rescore("tea", ["coffee please", "green tea"], 2) == [0.0, rescore("tea", ["green tea"], 2)[0]]
    assert rescore("the of", ["anything"], 1) == [0.0]


def test_stems_stay_right_when_searches_run_on_several_threads_at_once() -> None:
    # A snowball stemmer holds its word in itself; unguarded, threads garble each other's stems.
    words = [f"{a}{b}{c}{ending}" for a in "bcdfgklmnprst" for b in "aeiou" for c in "dlmnrst"
             for ending in ("ations", "ing", "ness", "edly", "ful")]
    expected = {w: [snowballstemmer.stemmer("porter").stemWord(w)] for w in words if w not in FUNCTION_WORDS}
    stem.cache_clear()
    assert misread_under_threads(expected, terms) == []
