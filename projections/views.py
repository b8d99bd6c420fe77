"""What read queries return: flat DTOs, never the domain's objects."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class MemoryView(BaseModel):
    memory_id: str
    user_id: str
    kind: str
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
    access_count: int = 0
