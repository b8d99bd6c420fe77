"""What a layer above single facts holds: a session's summary, a profile's basic information."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SessionSummary(BaseModel):
    """A session in brief, from the person's side."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    summary: str = Field(min_length=1, max_length=2000, description="2–3 sentences, from the person's side.")
    topics: tuple[str, ...] = Field(default=(), max_length=8, description="3–5 topics, a few words each.")
    user_intent: str | None = Field(default=None, max_length=500, description="What the person wanted.")
    emotional_tone: str | None = Field(default=None, max_length=100)
    key_facts: tuple[str, ...] = Field(default=(), max_length=12)
    unresolved: str | None = Field(
        default=None, max_length=500, description="What was left open, if anything."
    )

    def text(self) -> str:
        """What is embedded and indexed: the summary with its topics."""
        return self.summary + (f" Topics: {', '.join(self.topics)}." if self.topics else "")


class BasicInfo(BaseModel):
    """One thing a profile says in a word: `home_city: Lisbon`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(min_length=1, max_length=100)
    value: str = Field(min_length=1, max_length=500)
