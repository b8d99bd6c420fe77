"""The person's own BM25: a word common among their memories weighs little, whatever the
rest of the index holds."""

from __future__ import annotations

from projections.bm25 import rescore, terms


def test_words_are_lowered_without_stop_words_and_with_plurals_folded() -> None:
    assert terms("The Cats AND the dog's bowls, class") == ["cat", "dog", "bowl", "class"]


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
