"""The emotional tone of what a person said, by VADER (`vadersentiment`, MIT, its lexicon inside
the wheel): a lexicon with rules for negation ("not happy"), intensifiers ("really"), contrast
("but") and emphasis ("!!!", capitals), made for short social text."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# Where the mean compound score of the person's sentences says a session leans one way; a session
# with strong sentences both ways is mixed. VADER's authors put the neutral band at ±0.05 for one
# text; a session's mean is steadier, so a wider band.
LEANING = 0.15
STRONG = 0.5


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


def tone(sentences: Sequence[str]) -> str:
    """positive, negative, mixed or neutral."""
    scores = [_analyzer().polarity_scores(s)["compound"] for s in sentences if s.strip()]
    if not scores:
        return "neutral"
    if any(s >= STRONG for s in scores) and any(s <= -STRONG for s in scores):
        return "mixed"
    mean = sum(scores) / len(scores)
    if mean >= LEANING:
        return "positive"
    if mean <= -LEANING:
        return "negative"
    return "neutral"
