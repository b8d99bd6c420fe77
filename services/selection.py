"""What a caller is shown of a ranked list: items that bear on what was asked, say something, and
say it once (issue 28). Used by the context block, and by /search where asked.

- **A relevance floor.** Fusion ranks by rank, so its scores say nothing absolute: the tenth hit
  of a question nothing answers scores as the tenth of one with ten answers. The floor is on an
  item's own closeness to what was asked, the cosine of its stored vector to the best of the
  asked wordings' vectors (`Hit.scores["cosine"]`, set by a search asked to `measure`).
- **No low-information turns.** A turn is read with its neighbours' words, so a bare "Got it,
  thanks!" is found through what was said around it, and would be shown with nothing of its own.
  What a turn says of its own is its informative words (less stop and function words, as BM25
  reads them, and the words any chat says: "sounds", "good", "thanks") that the turns before it
  did not say: a reply that takes up the words of the turn
  it answers ("A very particular cat." after a turn about the cat) adds only what is new in it.
  A turn with fewer than `INFORMATIVE` words of its own says little, and is shown only when one
  of them is one asked about, when it names something of its own (a name written as one, a
  number: "they called her Adaeze" is short, and the answer to "what is my niece's name?"; a
  name taken up from the turn before is not news: "Porto in June, how lovely!"), or when it
  answers a question (the turn before asked one): a reply to a question is an answer, however
  short ("Three times a week."); a reaction follows a statement.
- **No remark of the assistant's that speaks of no one.** The block is what is known of the
  person. The person's own words are about them even where chat drops the "I" ("found a
  roommate!"); the assistant's are about the person only where they speak to or of someone
  ("you", "your", "she") or name something of their own. "Cats have their favourites.", "A very
  particular cat.", "Close enough for a prediction!" speak of no one and say nothing of the
  person's life, however many words they have; "Maybe you could ask for Tuesdays." and "December
  in Chennai will be warm." stay.
- **Nothing twice.** An item whose informative words all lie within those of one shown before it
  says nothing new and is left out; where a memory or summary carries all that a turn shown
  before it carried, it takes the turn's place (the distilled statement first). One word more is
  something new: "lives in Lisbon near the river" and "lives in Porto near the river" are two
  things. A memory and the turn it came from are already one hit (search fuses them as one piece
  of evidence).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from domain.text import chinese, english
from projections.bm25 import terms
from projections.keys import has_cjk
from services.search import Hit

# A turn with fewer words of its own than this says little: "Sounds good!" (none), "That sounds
# like a good sign." (sign). "I got the job!" (job) says little too, but is kept when what was
# asked names the job, or when the turn before asked whether it came through.
INFORMATIVE = 3


# What any conversation says without saying what it is about (function words, fillers, greetings,
# thanks, the verbs of any chat: "sounds", "feel", "know"), as `terms` writes them.
_CHAT = {"en": frozenset(terms(" ".join(english.CHAT_STOP_WORDS), function_words=True)),
         "zh": frozenset(chinese.CHAT_STOP_WORDS)}


def informative(text: str) -> frozenset[str]:
    """The words of `text` that say what it is about: stems (Chinese: words), without stop and
    function words and what any chat says ("That sounds like a good sign." says "sign")."""
    language = "zh" if has_cjk(text) else "en"
    return frozenset(terms(text, language=language)) - _CHAT[language]


# A word that names something: capitalised after the first word of its sentence, or holding a
# digit. The first word of a sentence is capitalised whatever it is. A name said to the one
# spoken to ("Good morning, Greg!", "Hi Maya!") names nothing the turn is about: a name set off
# at the start of a clause (after at most one word: "Hi", "Thanks,") and before a stop or comma.
_ADDRESSED = re.compile(r"(?:^|,)\s*(?:\w+\s+)?([A-Z]\w*)\s*(?=,|$)")


# jieba's tags of a word that names something: a person, a place, an organisation, another proper
# noun, a number ("三次", "十五号").
_NAMING_TAGS = frozenset({"nr", "nrfg", "nrt", "ns", "nt", "nz", "m"})
# jieba tags "many", "a bit", "some", "together" (很多, 一点, 一些, 一起) as numerals too; a number
# is said by a digit, a numeral other than the 一 of "a" (一个, 一下), an ordinal, or a day or month.
_NUMBER = re.compile(r"[0-9０-９二三四五六七八九十百千万亿两零〇半第]|一[号月日年周岁]")
_CLAUSE = re.compile(r"[，,、；;：:]")


def _chinese_names(text: str) -> tuple[list[str], list[str]]:
    """What a Chinese text names: words jieba tags as names or numbers, Latin words written with a
    capital or a digit ("Sam的爸妈", "iPhone 15"); Chinese writes no capital at a sentence's start.
    A name alone at the start of a sentence, set off by a comma ("小王，早上好！"), is the one it
    is said to."""
    found: list[str] = []
    addressed: list[str] = []
    for sentence in chinese.SENTENCE.findall(text):
        clauses = _CLAUSE.split(sentence)
        for n, clause in enumerate(clauses):
            words = [(w, tag) for w, tag in chinese.tagged(clause) if tag != "x" and w.strip()]
            naming = [w for w, tag in words if tag in _NAMING_TAGS and (tag != "m" or _NUMBER.search(w))
                      or any(c.isdigit() for c in w) or (tag == "eng" and w[0].isupper())]
            rest = [w for w, _ in words if w not in naming and w not in _CHAT["zh"]]
            if n == 0 and len(naming) == 1 and not rest and len(clauses) > 1:
                addressed += naming
            else:
                found += naming
    return found, addressed


def _english_names(text: str) -> tuple[list[str], list[str]]:
    """What an English text names, and whom it is said to (see `_ADDRESSED`)."""
    found: list[str] = []
    addressed: list[str] = []
    for sentence in english.SENTENCE.findall(text):
        to = {m.group(1) for m in _ADDRESSED.finditer(sentence.strip().rstrip(".!?").strip())}
        addressed += to
        words = english.INDEX.token.findall(sentence)
        found += [w for n, w in enumerate(words) if any(c.isdigit() for c in w) or (
            n > 0 and w[0].isupper() and w != "I" and w not in to)]
    return found, addressed


def names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The informative words of `text` that name something (`Adaeze`, `Leith`, `2019`, `A4`,
    `墨尔本`), and the names of the one it is said to ("Well done, Arthur!", "小王，早上好！")."""
    found, addressed = _chinese_names(text) if has_cjk(text) else _english_names(text)
    return (informative(" ".join(found)) if found else frozenset(),
            informative(" ".join(addressed)) if addressed else frozenset())


def said_before(content: str, context: str | None) -> str:
    """What the turns before a turn said, from its `context` (the window the text source reads it
    in: the day, two turns before, the turn, one after); "" when unknown."""
    at = context.find(content) if context else -1
    return context[:at] if context and at > 0 else ""


# The words that speak to or of a person: the first and second person, and the third person
# singular ("it" and "they" are as often a thing or anyone). Chinese: 我, 你, 您, 他, 她, 咱 (and
# their plurals), not 他 in 其他 ("other").
_PERSONAL = {"en": re.compile(r"\b(?:i|me|my|mine|myself|you|your|yours|yourself|yourselves|we|us|our|"
                              r"ours|ourselves|he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE),
             "zh": re.compile(r"[我你您她咱]|(?<!其)他")}


def speaks_of_someone(content: str) -> bool:
    """Whether a text speaks to or of a person ("Maybe you could ask.", "She loved it."), not
    only of things or anyone ("Cats have their favourites.")."""
    language = "zh" if has_cjk(content) else "en"
    return bool(_PERSONAL[language].search(re.sub(r"['’]", " ", content)))


def says_little(hit: Hit, asked: frozenset[str]) -> bool:
    """A turn with few words of its own, none of them asked about, naming nothing new, that answers
    no question: a reply to a question is an answer however short ("Three times a week."). And
    an assistant's turn that speaks of no one ("Cats have their favourites.")."""
    if hit.type != "message":
        return False
    content = str(hit.fields.get("content") or "")
    before = said_before(content, hit.fields.get("context"))
    naming, addressed = names(content)
    taken_up = informative(before) | addressed
    if hit.fields.get("role") == "assistant" and not speaks_of_someone(content) and not naming - taken_up:
        return True  # speaks of no one and names nothing of its own
    if before.rstrip().endswith(("?", "？")):
        return False
    own = informative(content) - taken_up
    return not own & naming and len(own) < INFORMATIVE and not own & asked


def _within(words: frozenset[str], other: frozenset[str]) -> bool:
    """Whether every informative word of one item is in the other's."""
    return bool(words) and words <= other


def select(hits: Iterable[Hit], asked: Sequence[str], floor: float | None = None,
           limit: int | None = None, shown: Sequence[str] = ()) -> list[Hit]:
    """The hits to show, in order: above the floor, saying something, each thing once and nothing
    `shown` already (texts the block holds before them); at most `limit`."""
    asked_words = frozenset().union(*(informative(a) for a in asked))
    before = [informative(text) for text in shown]
    kept: list[tuple[Hit, frozenset[str]]] = []
    for hit in hits:
        if floor is not None and hit.scores.get("cosine", 1.0) < floor:
            continue
        if says_little(hit, asked_words):
            continue
        words = informative(str(hit.fields.get("content") or ""))
        carried = next((n for n, (shown, seen) in enumerate(kept)
                        if shown.type == "message" and hit.type != "message" and _within(seen, words)), None)
        if carried is not None:
            kept[carried] = (hit, words)
            continue
        if any(_within(words, seen) for seen in [*before, *(seen for _, seen in kept)]):
            continue
        if limit is not None and len(kept) >= limit:
            break
        kept.append((hit, words))
    return [hit for hit, _ in kept]
