"""A session in brief, in Chinese: the offline summary of a conversation held in Chinese.

As the English narrative (`summary.py`), it invents nothing: what the person said of themselves
(the memories the Chinese rules found), what they asked about and asked to be reminded of, the
topics as the noun phrases they said most (jieba's nouns, names, places and Latin words, nouns
said together kept together: 护士执业证), sentences split at 。！？.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from domain.commands import Message
from domain.layers.model import SessionSummary
from domain.text import chinese

_NOUN_TAGS = frozenset({"n", "nr", "nrt", "ns", "nt", "nz", "vn", "eng", "an"})
_ASKED = re.compile(r"[?？]\s*$|[吗呢]\s*[。!！]?$")
_POSITIVE = re.compile(r"开心|高兴|太好了|激动|兴奋|喜欢|满意|幸福|期待|感谢|好棒|顺利")
_NEGATIVE = re.compile(r"累|难受|烦|担心|焦虑|生气|郁闷|失望|难过|伤心|害怕|紧张|崩溃|疼|惨")


def sentences(text: str) -> list[str]:
    """A text's sentences, as Chinese ends them (。！？, or a Latin full stop before a space)."""
    return [s.strip() for s in chinese.SENTENCE.findall(text) if s.strip()]


def noun_phrases(text: str) -> list[str]:
    """The noun phrases of a text: jieba's nouns, names, places and Latin words, those said
    together joined (护士 执业证 -> 护士执业证), without the words any chat says."""
    found: list[str] = []
    run: list[str] = []
    for word, tag in [*chinese.tagged(text), ("", "x")]:
        doubled = len(word) == 2 and word[0] == word[1] and tag not in ("nr", "nrt", "nz")  # 试试, 看看
        if tag in _NOUN_TAGS and word.strip() and word.lower() not in chinese.CHAT_STOP_WORDS and not doubled:
            run.append(word)
            continue
        phrase = "".join(run) if not any(w.isascii() for w in run) else " ".join(run)
        if run and (len(phrase) >= 2):
            found.append(phrase)
        run = []
    return found


def phrase_topics(texts: Sequence[tuple[str, int]], limit: int = 5) -> tuple[str, ...]:
    """The phrases said most (each text with its weight: the person's count twice), ties in the
    order said; a phrase in most of (at least five) texts is not a topic."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    spread: Counter[str] = Counter()
    for text, weight in texts:
        phrases = noun_phrases(text)
        spread.update(set(phrases))
        for phrase in phrases:
            counts[phrase] += weight
            first.setdefault(phrase, len(first))
    common = {p for p, n in spread.items() if len(texts) >= 5 and n > 0.6 * len(texts)}
    return tuple(sorted((p for p in counts if p not in common), key=lambda p: (-counts[p], first[p])))[:limit]


def tone(texts: Sequence[str]) -> str:
    """positive, negative, mixed or neutral: the words of feeling the person said."""
    good = sum(len(_POSITIVE.findall(t)) for t in texts)
    bad = sum(len(_NEGATIVE.findall(t)) for t in texts)
    if good and bad:
        return "mixed" if min(good, bad) * 2 >= max(good, bad) else "positive" if good > bad else "negative"
    return "positive" if good else "negative" if bad else "neutral"


def chinese_summary(messages: Sequence[Message], memories: Sequence[tuple[str, str]]) -> SessionSummary:
    """The offline summary in Chinese: `memories` are the rules' `(kind, content)` of the session."""
    said = [(kind, content) for kind, content in memories if content.strip()]
    facts = [c for kind, c in said if kind != "todo"][:4]
    todos = [c for kind, c in said if kind == "todo"][:2]
    theirs = [m.content for m in messages if m.role == "user"] or [m.content for m in messages]
    asked = [s for text in theirs for s in sentences(text) if _ASKED.search(s)]
    topics = phrase_topics([(m.content, 2 if m.role == "user" else 1) for m in messages])
    asked_about = phrase_topics([(s, 1) for s in asked], limit=3)
    parts = []
    if topics:
        parts.append(f"聊到了{'、'.join(topics[:4])}。")
    if facts:
        parts.append(f"说到自己：{'；'.join(facts)}。")
    if asked_about:
        parts.append(f"问到了{'、'.join(asked_about)}。")
    if todos:
        parts.append(f"请求提醒：{'；'.join(todos)}。")
    if not parts:
        first = next((s for text in theirs for s in sentences(text)), messages[0].content.strip())
        parts.append(first)
    return SessionSummary(
        summary="".join(parts)[:2000],
        topics=topics,
        user_intent=asked[0][:300] if asked else None,
        emotional_tone=tone(theirs),
        key_facts=tuple(content for _, content in said)[:12],
        unresolved=None,
    )
