"""A reminder of a to-do, as Lore publishes it when its `remind_at` passes."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from domain.model import UtcDatetime, derived_id


def reminder_id(user_id: str, memory_id: str, remind_at: datetime) -> str:
    """One reminder per to-do and moment: a to-do reminded of at another time is reminded again."""
    return derived_id("reminder", user_id, memory_id, remind_at.isoformat())


class ReminderDue(BaseModel):
    """On `lore.reminders` (key = user_id), and POSTed to the webhook when one is configured."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str = "ReminderDue"
    reminder_id: str = Field(description="The same for every delivery of this reminder: an idempotency key.")
    user_id: str
    memory_id: str
    content: str
    due_at: UtcDatetime | None = None
    remind_at: UtcDatetime
    sent_at: UtcDatetime
