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
    assert analyzer("topic").words(said) == ["pottery", "class"]


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


# --- Chinese (issue 31) ------------------------------------------------------------------------------


def test_chinese_is_cut_into_words_and_latin_words_in_it_are_read_as_english_reads_them() -> None:
    said = "我在Google上班，Tom's iPhone坏了，体重5.5公斤"
    assert analyzer("index", "zh").words(said) == \
        ["我", "在", "googl", "上班", "tom", "iphon", "坏", "体重", "5", "5", "公斤"]
    # The query leaves out the function words of both languages, as English's leaves out its own.
    assert analyzer("query", "zh").words("阿杰在哪里上班？") == ["阿杰", "上班"]
    assert analyzer("query", "zh").words("Where does Kevin work?") == analyzer("query").words(
        "Where does Kevin work?")


def test_chinese_topics_are_words_of_two_characters_or_more_without_chat_filler() -> None:
    assert analyzer("topic", "zh").words("哈哈好的，谢谢！我在学游泳，蛙泳还不太会换气") == \
        ["游泳", "蛙泳", "换气"]


def test_kana_are_read_in_pairs_as_lucenes_cjk_analyzer_does() -> None:
    assert analyzer("index", "zh").words("ありがとう") == ["あり", "りが", "がと", "とう"]


def test_chinese_sentences_end_at_their_marks_not_inside_a_number() -> None:
    assert language("zh").sentences("我搬家了！现在住在上海，月租4800。你呢？体重5.5公斤. OK then") == \
        ["我搬家了！", "现在住在上海，月租4800。", "你呢？", "体重5.5公斤.", "OK then"]


def test_chinese_words_are_the_same_in_every_thread() -> None:
    said = [f"{a}在{b}上班，对{c}过敏" for a in ("阿杰", "小满", "老周") for b in ("陆家嘴", "望京", "南山")
            for c in ("花生", "青霉素", "芒果")]
    chinese = analyzer("index", "zh")
    expected = {s: chinese.words(s) for s in said}
    assert misread_under_threads(expected, chinese.words) == []
