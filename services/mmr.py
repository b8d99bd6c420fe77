"""Maximal marginal relevance: a result list that covers more than one thing.

Greedy, after Carbonell & Goldstein (1998): each next hit is the one that best trades its
relevance against its likeness to the hits already chosen,
    λ · relevance − (1 − λ) · max cosine to the chosen.
λ = 1 is plain relevance; 0.5–0.7 spreads near-duplicates apart.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def mmr_order(relevance: Sequence[float], vectors: Sequence[Sequence[float] | None], lambda_: float,
              limit: int) -> list[int]:
    """Indexes of up to `limit` items, chosen one by one. `relevance` is any score, higher better
    (scaled to the best here); an item without a vector resembles nothing."""
    if not relevance:
        return []
    best = max(relevance) or 1.0
    rel = np.array(relevance, dtype=np.float64) / best
    dims = next((len(v) for v in vectors if v is not None), 1)
    matrix = np.array([v if v is not None else [0.0] * dims for v in vectors], dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms == 0, 1.0, norms)  # a missing vector stays zero: like nothing
    likeness = np.zeros(len(rel))  # max cosine to anything chosen so far
    chosen: list[int] = []
    left = set(range(len(rel)))
    while left and len(chosen) < limit:
        pick = max(left, key=lambda i: (lambda_ * rel[i] - (1 - lambda_) * likeness[i], -i))
        chosen.append(pick)
        left.discard(pick)
        likeness = np.maximum(likeness, matrix @ matrix[pick])
    return chosen
