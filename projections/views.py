"""What read queries return: flat DTOs, never the domain's objects."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class MemoryView(BaseModel):
    memory_id: str
    user_id: str
    kind: str
    category: str | None = Field(default=None, description="The deployment's category (LORE_TAXONOMY).")
    content: str
    attribute: str | None = None
    value: str | None = None
    status: str
    valid_from: datetime
    valid_until: datetime | None = Field(description="As known at the asked time; null = still true.")
    recorded_at: datetime
    retired_at: datetime | None = None
    superseded_by: str | None = None
    importance: float
    confidence: float
    source: str | None = None
    access_count: int = Field(default=0, description="Times used: listed in a search answer, cited in a "
                              "context block, or said to be helpful.")
    cited_count: int = Field(default=0, description="Times cited in a context block or said to be helpful.")
    decided_by: str | None = Field(default=None,
                                   description="What decided it: an extractor, or null (sent as is).")
    asserted: bool | None = Field(default=None,
                                  description="Said by the person (false: inferred by a model).")
    due_at: datetime | None = Field(default=None, description="For a to-do: when it is due.")
    remind_at: datetime | None = Field(default=None, description="For a to-do: when to remind.")
    completed_at: datetime | None = Field(default=None,
                                          description="For a to-do: when it was done (null: open).")
    merged_into: str | None = None
    merged_from: list[str] | None = None
    compressed_into: str | None = None
    episode_id: str | None = Field(default=None, description="The conversation it was taken from.")
    last_used_at: datetime | None = Field(default=None, description="When a caller last received it "
                                          "(a search answer, a context block, a helpful verdict).")
    last_cited_at: datetime | None = Field(default=None, description="When a context block last cited "
                                           "it (or it was said to be helpful).")
    helpful_count: int | None = Field(default=None, description="Times it was said to be helpful.")
    wrong_count: int | None = Field(default=None, description="Times it was said to be wrong.")
    last_feedback: str | None = Field(default=None, description="The latest verdict: helpful or wrong.")
    last_feedback_at: datetime | None = None
