"""What becomes of a conversation (when it is extracted, how long its words are kept): a decision
of the domain, so its settings come in as a value."""

from __future__ import annotations

from dataclasses import dataclass

from domain.extraction.taxonomy import Category, Taxonomy


@dataclass(frozen=True)
class ExtractionPolicy:
    every_turns: int = 5  # the person's messages between two extractions (0: only at the end)
    window: int = 10  # the latest messages an extraction reads at least
    min_messages: int = 3  # a session shorter than this is not worth extracting at its end
    similar_cosine: float = 0.85  # how close a memory must be to be judged against a candidate
    taxonomy: Taxonomy | None = None  # a deployment's own categories of memory, if it names them
    episode_retention_days: int = 30  # how long a conversation's words are kept (0: for good)

    def category(self, name: str | None) -> Category | None:
        return self.taxonomy.named(name) if self.taxonomy is not None else None
