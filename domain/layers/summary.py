"""A session in brief: what the person talked about, wanted, felt and left open.

`SessionSummary` is what a summarizer answers (a model with a schema, or the offline writers
below); the log keeps it, so a rebuild never summarizes again. The offline summary is a narrative
in the third person (`narrative_summary`): what the person said of themselves (the memories the
offline rules found), what they asked about and asked to be reminded of, topics as the noun
phrases they said most. It invents nothing. The extractive summary (the person's most
informative sentences as they said them) stays for what has no parse.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from domain.commands import Message
from domain.layers.model import SessionSummary
from domain.text import chinese, language
from domain.text.english import CHAT_STOP_WORDS
from domain.text.parse import Sentence

MIN_MESSAGES = 3

_ENGLISH = language("en")
_TOPIC = _ENGLISH.analyzers["topic"]
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
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
        _said_words(m.content) for m in messages if m.role == "user"
    )


def _content_words(text: str) -> list[str]:
    return _TOPIC.words(text)


def _said_words(text: str) -> list[str]:
    """The content words of what someone said, in English, or in Chinese where it has Han (jieba's)."""
    return chinese.TOPIC.words(text) if chinese.has_han(text) else _TOPIC.words(text)


def _said(messages: Sequence[Message]) -> list[tuple[int, str]]:
    """The person's sentences that say something (their order, the text); everyone's if the
    person said none. Saying something: two content words that are not in most of the sentences
    (a name said in every line, a catchphrase)."""
    theirs = [m for m in messages if m.role == "user"] or list(messages)
    sentences = [part for m in theirs for part in _ENGLISH.sentences(m.content)]
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
    sentences = [part for m in messages for part in _ENGLISH.sentence.findall(m.content)]
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
            parts: list[str] = _ENGLISH.sentence.findall(message.content)
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


# --- the narrative summary (offline): what the person said, in the third person ------------------

_GENERIC = frozenset(
    str.split(
        "thing things lot lots time times way day days week weeks bit stuff kind sort people guy guys "
        "one ones something anything everything nothing idea ideas question questions today tonight "
        "tomorrow yesterday morning evening night moment while year years tips tip advice help "
        "suggestion suggestions "
    )
)
_VAGUE = frozenset(
    str.split(
        "good great nice little big lot other same such own whole real huge fun cool awesome amazing bad "
    )
)
_NOUN_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr", "conj", "appos", "ROOT", "oprd"})


def noun_phrases(sentences: Sequence[Sentence]) -> list[str]:
    """The noun phrases of sentences ("a new apartment" -> "new apartment"), as said, in order:
    each noun with the adjectives and nouns bound to it; pronouns, dates and filler nouns left out."""
    found = []
    for sentence in sentences:
        for word in sentence.words:
            if (
                word.pos not in ("NOUN", "PROPN")
                or word.dep not in _NOUN_DEPS
                or word.ent in ("DATE", "TIME")
            ):
                continue
            if (
                word.lower in _GENERIC
                or word.lower in CHAT_STOP_WORDS
                or (len(word.text) < 3 and not word.text.isupper())
            ):
                continue
            bound = [
                w
                for w in sentence.words
                if w.head == word.i
                and w.i < word.i
                and w.dep in ("compound", "amod")
                and w.lower not in _VAGUE
                and w.pos in ("NOUN", "PROPN", "ADJ")
            ]
            words = [*bound, word]
            found.append(" ".join(w.text if w.pos == "PROPN" or w.text.isupper() else w.lower for w in words))
    return found


def phrase_topics(phrases: Sequence[str], limit: int = 5) -> tuple[str, ...]:
    """The noun phrases said most (a longer phrase counts for the nouns it holds), first said first."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for phrase in phrases:
        counts[phrase] += 1
        first.setdefault(phrase, len(first))
    heads = Counter(p.split()[-1].lower() for p in phrases)
    ranked = sorted(
        counts, key=lambda p: (-(counts[p] + heads[p.split()[-1].lower()]), -len(p.split()), first[p])
    )
    chosen: list[str] = []
    for phrase in ranked:
        if any(phrase.casefold() in c.casefold() or c.casefold() in phrase.casefold() for c in chosen):
            continue
        chosen.append(phrase)
        if len(chosen) == limit:
            break
    return tuple(chosen)


def _clause(memory: str) -> str:
    """A memory ("Moved to Lisbon in February 2026") as said of the person: "moved to Lisbon ..."."""
    memory = memory.strip().rstrip(".")
    first = memory.split(" ", 1)[0]
    return memory if first.isupper() and len(first) > 1 else memory[:1].lower() + memory[1:]


_SINGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}


def _plural(clause: str) -> str:
    """A memory said of "they": "works as a nurse" -> "work as a nurse", "is vegan" -> "are vegan"."""
    first, _, rest = clause.partition(" ")
    if first in _SINGULAR:
        word = _SINGULAR[first]
    elif first.endswith("ies") and len(first) > 4:
        word = first[:-3] + "y"
    elif first.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        word = first[:-2]
    elif first.endswith("s") and not first.endswith(("ss", "us", "is")):
        word = first[:-1]
    else:
        word = first
    return f"{word} {rest}".strip()


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def narrative_summary(
    messages: Sequence[Message],
    memories: Sequence[tuple[str, str]],
    parsed: Sequence[Sequence[Sentence]],
    tone: str,
) -> SessionSummary:
    """The offline summary, in the third person: what the person said of themselves (the memories
    the rules found, `(kind, content)`), what they asked about, and what they asked to be reminded of;
    topics are the noun phrases they said most; `tone` is the session's, judged by the caller."""
    said = [(kind, content) for kind, content in memories if content.strip()]
    facts = [_clause(c) for kind, c in said if kind != "todo"][:4]
    todos = [_clause(c) for kind, c in said if kind == "todo"][:2]
    asked = [s for sentences in parsed for s in sentences if s.text.rstrip().endswith("?")]
    every = [s for sentences in parsed for s in sentences]
    phrases = noun_phrases(every)
    # a phrase in most messages (a name at the head of every line) tells them apart no more than a
    # stop word: not a topic
    spread = Counter(
        p.casefold() for sentences in parsed for p in {x.casefold() for x in noun_phrases(sentences)}
    )
    common = {p for p, n in spread.items() if len(parsed) >= 5 and n > 0.6 * len(parsed)}
    topics = phrase_topics([p for p in phrases if p.casefold() not in common])
    asked_about = phrase_topics(noun_phrases(asked), limit=3)
    parts = []
    if topics:
        parts.append(f"The person talked about {_listed(list(topics[:4]))}.")
    if facts:
        parts.append(f"{'They' if parts else 'The person'} said they {_listed([_plural(f) for f in facts])}.")
    if asked_about:
        parts.append(f"They asked about {_listed(list(asked_about))}.")
    if todos:
        parts.append(f"They asked to be reminded to {_listed(todos)}.")
    if not parts:
        theirs = _said(messages)
        parts.append(theirs[0][1] if theirs else messages[0].content.strip())
    text = " ".join(parts)
    return SessionSummary(
        summary=text[:2000],
        topics=topics,
        user_intent=_intent(_said(messages)),
        emotional_tone=tone,
        key_facts=tuple(content for _, content in said)[:12],
        unresolved=_unresolved(messages),
    )
