"""How sure Lore is of a memory: what a restatement and a verdict on it do to its confidence.

A memory said again is more certain: independent confirmations combine like a noisy-or. "Wrong"
halves the confidence: one mistaken verdict does not erase a fact, two or three push it below what
search and the context block show first (confidence weighs in the rerank), and the memory stays,
restorable and visible on the page. "Helpful" leaves the confidence as it is: a memory is not made
more certain by being useful once (it counts as use instead).
"""

from __future__ import annotations

from typing import Literal

WRONG_FACTOR = 0.5


def restated(confidence: float, again: float) -> float:
    """The confidence of a memory said again with confidence `again` (a noisy-or of the two)."""
    return round(1 - (1 - confidence) * (1 - again), 6)


def confidence_after(confidence: float, verdict: Literal["helpful", "wrong"]) -> float:
    return round(confidence * WRONG_FACTOR, 4) if verdict == "wrong" else confidence
