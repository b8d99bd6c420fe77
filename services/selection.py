"""What a caller is shown of a ranked list: items that bear on what was asked, say something, and
say it once (issue 28). Used by the context block, and by /search where asked.

- **A relevance floor.** Fusion ranks by rank, so its scores say nothing absolute: the tenth hit
  of a question nothing answers scores as the tenth of one with ten answers. The floor is on an
  item's own closeness to what was asked, the cosine of its stored vector to the best of the
  asked wordings' vectors (`Hit.scores["cosine"]`, set by a search asked to `measure`).
- **No low-information turns.** A turn is read with its neighbours' words, so a bare "Got it,
  thanks!" is found through what was said around it, and would be shown with nothing of its own.
  A turn that says little (fewer than `INFORMATIVE` informative words: its words less stop and
  function words, as BM25 reads them) is shown only when one of those words is one asked about.
- **Nothing twice.** An item whose informative words all lie within those of one shown before it
  says nothing new and is left out; where a memory or summary carries all that a turn shown
  before it carried, it takes the turn's place (the distilled statement first). One word more is
  something new: "lives in Lisbon near the river" and "lives in Porto near the river" are two
  things. A memory and the turn it came from are already one hit (search fuses them as one piece
  of evidence).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from projections.bm25 import terms
from services.search import Hit

# A turn with fewer informative words than this says little: "Sounds good!" (sound, good), "Yes,
# on Saturday!" (ye, saturday). "I got the job!" (got, job) says little too, but is kept when
# what was asked names the job.
INFORMATIVE = 3


def informative(text: str) -> frozenset[str]:
    """The words of `text` that say what it is about: stems, without stop and function words."""
    return frozenset(terms(text))


def says_little(hit: Hit, asked: frozenset[str]) -> bool:
    """A turn with few informative words, none of them one asked about."""
    if hit.type != "message":
        return False
    words = informative(str(hit.fields.get("content") or ""))
    return len(words) < INFORMATIVE and not words & asked


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
