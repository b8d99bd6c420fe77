"""What a context block leaves out of its relevant items because a layer holds it must be in the
block: a summary or an always-on memory cut by the budget stands in for nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from domain.layers.model import SessionSummary
from projections.layers import SummaryView
from services.context import ContextBuilder
from services.search import Hit

NOW = datetime(2026, 5, 1, tzinfo=UTC)


class Words:
    name = "words"

    def count(self, text: str) -> int:
        return len(text.split())


def summary(n: int, text: str) -> SummaryView:
    day = NOW - timedelta(days=n)
    return SummaryView(f"s{n}", f"session-{n}", SessionSummary(summary=text), "rules", True, None, False,
                       day, day, ())


class Layers:
    def __init__(self, summaries: list[SummaryView]) -> None:
        self._summaries = summaries

    def profiles(self, user_id: str) -> list[Any]:
        return []

    def summaries(self, user_id: str, limit: int = 20) -> list[SummaryView]:
        return self._summaries[:limit]


class Memories:
    def memories(self, user_id: str, **_: Any) -> list[Any]:
        return []


class Search:
    embedder = None

    def __init__(self, hits: list[Hit]) -> None:
        self.hits = hits

    def search(self, *_: Any, **__: Any) -> list[Hit]:
        return self.hits


def turn(text: str) -> Hit:
    return Hit("message", text, 1.0, {"cosine": 0.9}, {}, {"content": text})  # type: ignore[arg-type]


def test_a_turn_a_summary_holds_is_shown_when_the_summary_is_not() -> None:
    older = "We adopted a ginger cat called Biscuit from the shelter in Leith"
    summaries = [summary(1, "Talked about the garden, the tomatoes and the new greenhouse"),
                 summary(2, "Talked about pets. " + older)]
    hits = [turn(older), turn("The greenhouse needs a new pane of glass before the frost")]
    builder = ContextBuilder(Memories(), Layers(summaries), Search(hits), Words())  # type: ignore[arg-type]

    roomy = builder.build("ada", "what is my cat called?", [], 400, NOW, synthesize=False)
    assert roomy.cited("summary") == ["s1", "s2"]
    assert [h.id for h in roomy.relevant] == [hits[1].id]      # the summary shown says it: once

    tight = builder.build("ada", "what is my cat called?", [], 100, NOW, synthesize=False)
    assert tight.cited("summary") == ["s1"]                     # the older summary did not fit
    assert older in [h.id for h in tight.relevant]              # so the turn is shown
