"""A turn in its context, as the text source reads it.

A turn alone ("Yes, last Tuesday!") often is the evidence a question needs but shares no word
with it: the words are in the question it answers, or in what follows. The text source therefore
reads each turn with the turns around it in its episode and the day it was said; the vector
source reads the turn alone (measured on LoCoMo with e5-small-v2: a window blurs a turn's vector,
cosine recall_any@10 72.7 % alone against 70.6 % with the turn before, while BM25 rose from
58.2 % to 71.7 % with two turns before and one after), and a hit shows the turn itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

# Two turns before (the question a turn answers, and what led to it) and one after (the reply
# that says what the turn was about). Wider windows gained nothing more (bench/README).
BEFORE = 2
AFTER = 1


def said_on(when: datetime | None) -> str:
    """The day, as people write it in questions: `7 May 2023`."""
    return f"{when.day} {when:%B %Y}" if when else ""


def said_on_zh(when: datetime | None) -> str:
    """The day as Chinese writes it: `2023年5月7日`."""
    return f"{when.year}年{when.month}月{when.day}日" if when else ""


def turn_contexts(turns: Sequence[str], days: Sequence[datetime | None],
                  before: int = BEFORE, after: int = AFTER,
                  said: Callable[[datetime | None], str] = said_on) -> list[str]:
    """For each turn of an episode: the day it was said (as `said` writes it), then the turns from
    `before` ahead of it to `after` behind it, in order (the turn itself among them)."""
    if len(days) != len(turns):
        raise ValueError("one day per turn")
    contexts = []
    for i, day in enumerate(days):
        window = " ".join(turns[max(i - before, 0):i + after + 1])
        contexts.append(f"{said(day)}. {window}" if day else window)
    return contexts
