"""How the projection and the read queries name a person inside shared indexes.

A fulltext index spans everyone's nodes; `user_key` is a single Lucene token per person (no
character an analyzer would split on), so that a query can be held to one person inside the
index itself rather than by filtering a global top-k afterwards.
"""

from __future__ import annotations

import hashlib
import re

from domain.text import analyzer

# Han, Hiragana, Katakana, Hangul: text an English analyzer would cut into single characters.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def user_key(user_id: str) -> str:
    return "u" + hashlib.sha256(user_id.encode()).hexdigest()[:24]


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


def without_cjk(text: str) -> str:
    return _CJK.sub(" ", text)


# Cypher (Java) reads the same character classes: a node property with any such text in it.
CJK_IN = f".*{_CJK.pattern}.*"


_CHINESE = analyzer("index", "zh")


def words_zh(text: str) -> str | None:
    """What the Chinese word indexes hold of a text in Chinese, Japanese or Korean (None for any
    other): its words as the Chinese index analyzer reads them (jieba), separated by spaces, which
    is all the index then cuts at. Written whatever the store's language, so that the graph is
    the same function of the log in every language; only a Chinese store searches it."""
    return " ".join(_CHINESE.words(text)) if has_cjk(text) else None
