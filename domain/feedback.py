"""What a verdict on a cited memory does to Lore's trust in it.

"Wrong" halves the memory's confidence: one mistaken verdict does not erase a fact, two or three
push it below what search and the context block show first (confidence weighs in the rerank),
and the memory stays, restorable and visible on the page. "Helpful" is recorded and leaves the
confidence as it is: a memory is not made more certain by being useful once.
"""

from __future__ import annotations

from typing import Literal

WRONG_FACTOR = 0.5


def confidence_after(confidence: float, verdict: Literal["helpful", "wrong"]) -> float:
    return round(confidence * WRONG_FACTOR, 4) if verdict == "wrong" else confidence
