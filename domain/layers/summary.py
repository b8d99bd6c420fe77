"""A session in brief: what the person talked about, wanted, felt and left open.

`SessionSummary` is what a summarizer answers (a model with a schema, or the offline fallback
below); the log keeps it, so a rebuild never summarizes again. The fallback is extractive and
deterministic: it keeps the person's most informative sentences as they said them, topics from
the words they used most, and invents nothing.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from domain.commands import Message
from domain.layers.model import SessionSummary

MIN_MESSAGES = 3

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
_STOP_WORDS = """
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
don't down during each even ever every few for from further get gets getting got had hadn't has
hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how
how's i i'd i'll i'm i've if in into is isn't it it's its itself just know let's like lot me more
most much must my myself no nor not now of off oh ok okay on once one only or other ought our ours
ourselves out over own really right same she she'd she'll she's should shouldn't so some still such
sure than that that's the their theirs them themselves then there there's these they they'd they'll
they're they've thing things think this those through to too under until up us very want was wasn't
we we'd we'll we're we've well were weren't what what's when when's where where's which while who
who's whom why why's will with won't would wouldn't yeah yes you you'd you'll you're you've your
yours yourself yourselves go going gonna wanna been make made time today yesterday tomorrow new
good great nice thanks thank hi hello hey bye cool awesome wow amazing glad definitely totally
actually maybe kind sort pretty quite bit way day days week year years said say
yep yup nope wow oops woohoo haha lol omg ooh aww hmm ugh whoa yay sorry please sounds sound
feel feels felt feeling look looks looked looking seem seems seemed bring brings brought take takes
took taken come comes came give gives gave keep keeps kept put puts tell tells told let lets find
found see seen saw seeing try tried trying mean means meant long lots little big thing stuff always
never sometimes often usually though although maybe anyway anything something everything nothing
"""
_STOP = frozenset(_STOP_WORDS.split())
_POSITIVE_WORDS = """
happy glad excited love loved loving great wonderful amazing awesome proud grateful thankful enjoy
enjoyed enjoying fun fantastic relieved hopeful thrilled beautiful excellent delighted inspired
calm peaceful
"""
_POSITIVE = frozenset(_POSITIVE_WORDS.split())
_NEGATIVE_WORDS = """
sad upset angry worried anxious stressed tired frustrated annoyed afraid scared lonely hurt sick
pain painful difficult hard terrible awful bad worse worst lost miss missed missing sorry
disappointed overwhelmed struggling struggle exhausted nervous broke broken fail failed failing
"""
_NEGATIVE = frozenset(_NEGATIVE_WORDS.split())
_OPEN = re.compile(
    r"\b(?:still|not sure|haven't decided|undecided|need to|have to|figure out|"
    r"trying to|wondering|don't know|remind me|plan to|planning to|later)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^\s*(?:can|could|would|will) you\b|^\s*(?:please|help|tell|show|find|give|"
    r"recommend|suggest|remind)\b|\b(?:i need|i want|i'd like|looking for)\b",
    re.IGNORECASE,
)


def has_substance(messages: Sequence[Message]) -> bool:
    """Worth a summary: at least MIN_MESSAGES messages, the person's not all small talk."""
    return len(messages) >= MIN_MESSAGES and any(
        _content_words(m.content) for m in messages if m.role == "user"
    )


def _content_words(text: str) -> list[str]:
    return [w for w in (w.lower().strip("'-") for w in _WORD.findall(text)) if len(w) > 2 and w not in _STOP]


def _said(messages: Sequence[Message]) -> list[tuple[int, str]]:
    """The person's sentences that say something (their order, the text); everyone's if the
    person said none. Saying something: two content words that are not in most of the sentences
    (a name said in every line, a catchphrase)."""
    theirs = [m for m in messages if m.role == "user"] or list(messages)
    sentences = [part.strip() for m in theirs for part in _SENTENCE.findall(m.content) if part.strip()]
    common = _common(sentences)
    found: list[tuple[int, str]] = []
    for sentence in sentences:
        if len(set(_content_words(sentence)) - common) >= 2:
            found.append((len(found), sentence))
    return found


def _common(texts: Sequence[str]) -> set[str]:
    """The words in most of (at least five) texts: they tell them apart no more than a stop word."""
    if len(texts) < 5:
        return set()
    df = Counter(w for text in texts for w in set(_content_words(text)))
    return {w for w, n in df.items() if n > 0.6 * len(texts)}


def _rarity(texts: Sequence[str]) -> dict[str, float]:
    """Per content word, its inverse document frequency over `texts`: log((n + 1) / df)."""
    df = Counter(w for text in texts for w in set(_content_words(text)))
    return {w: math.log((len(texts) + 1) / n) for w, n in df.items()}


def keywords(texts: Sequence[str], limit: int = 8) -> tuple[str, ...]:
    """The words that say most what `texts` are about: content words, the most said first (ties in
    the order said). What a keyword search of them looks for."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for text in texts:
        for word in _content_words(text):
            counts[word] += 1
            first.setdefault(word, len(first))
    return tuple(sorted(counts, key=lambda w: (-counts[w], first[w]))[:limit])


def topics(messages: Sequence[Message], limit: int = 5) -> tuple[str, ...]:
    """The words the session is about: said more than once (the person's count twice), then by
    how often, weighed by how few of its sentences hold them (a name on every line is not a topic)."""
    sentences = [part for m in messages for part in _SENTENCE.findall(m.content)]
    rarity, common = _rarity(sentences), _common(sentences)
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for message in messages:
        weight = 2 if message.role == "user" else 1
        for word in _content_words(message.content):
            counts[word] += weight
            first.setdefault(word, len(first))

    def worth(word: str) -> float:
        return (1 + math.log(counts[word])) * rarity.get(word, 0.0)

    ranked = sorted(counts, key=lambda w: (counts[w] < 2, -worth(w), first[w]))
    return tuple(w for w in ranked if w not in common)[:limit] or tuple(ranked[:limit])


def _tone(messages: Sequence[Message]) -> str:
    words = [w.lower() for m in messages if m.role == "user" for w in _WORD.findall(m.content)]
    positive = sum(w in _POSITIVE for w in words)
    negative = sum(w in _NEGATIVE for w in words)
    if positive and negative and min(positive, negative) * 2 >= max(positive, negative):
        return "mixed"
    if positive > negative:
        return "positive"
    if negative > positive:
        return "negative"
    return "neutral"


def _intent(said: list[tuple[int, str]]) -> str | None:
    for _, sentence in said:
        if _REQUEST.search(sentence) or sentence.endswith("?"):
            return sentence[:500]
    return None


def _unresolved(messages: Sequence[Message]) -> str | None:
    """The person's last question nobody answered after it, else the last thing they said was open."""
    last = max((i for i, m in enumerate(messages) if m.role == "user"), default=None)
    if last is not None and last == len(messages) - 1 and messages[last].content.strip().endswith("?"):
        asked: str = messages[last].content.strip()[:500]
        return asked
    for message in reversed(messages):
        if message.role == "user":
            parts: list[str] = _SENTENCE.findall(message.content)
            for part in reversed(parts):
                if _OPEN.search(part) and not part.strip().endswith("?"):
                    return part.strip()[:500]
    return None


def extractive_summary(
    messages: Sequence[Message], key_facts: Sequence[str] = (), sentences: int = 3
) -> SessionSummary:
    """The offline summary: the person's `sentences` most informative sentences, in their order.

    A sentence's worth is the sum of its content words' weights — how often the session uses the
    word (dampened by log) times how few of its sentences hold it (tf-idf, so that a name on every
    line counts for little) — over the square root of its length in words, so that one long
    sentence does not win by length alone; a sentence that mostly repeats a chosen one is passed."""
    said = _said(messages)
    if not said:
        said = [(0, messages[0].content.strip()[:500])]
    counts = Counter(w for m in messages for w in _content_words(m.content))
    rarity = _rarity([sentence for _, sentence in said])
    scored = []
    for index, sentence in said:
        weight = sum((1 + math.log(counts[w])) * rarity[w] for w in set(_content_words(sentence)))
        worth = weight / math.sqrt(max(len(sentence.split()), 1))
        scored.append((worth, -index, index, sentence))
    chosen: list[tuple[int, str]] = []
    covered: set[str] = set()
    for _, _, index, sentence in sorted(scored, reverse=True):
        words: set[str] = set(_content_words(sentence))
        if words and len(words - covered) < max(1, len(words) // 2):
            continue  # says mostly what a chosen sentence said
        chosen.append((index, sentence))
        covered |= words
        if len(chosen) == sentences:
            break
    text = " ".join(s if s[-1] in ".!?" else s + "." for _, s in sorted(chosen))
    return SessionSummary(
        summary=text[:2000],
        topics=topics(messages),
        user_intent=_intent(said),
        emotional_tone=_tone(messages),
        key_facts=tuple(key_facts)[:12],
        unresolved=_unresolved(messages),
    )
