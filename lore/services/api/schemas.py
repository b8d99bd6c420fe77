"""Request and response bodies of the v1 API. Separate from commands and events on purpose:
what a client sends and sees may grow without a stored event changing shape."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lore.domain.commands import Identifier, Message
from lore.domain.model import MemoryKind
from lore.projections.views import MemoryView


class MemoryCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "content": "Prefers the dark editor theme", "kind": "preference",
        "attribute": "editor_theme", "value": "dark", "valid_from": "2026-03-01T00:00:00Z",
        "importance": 0.7, "source": "chat", "entities": ["VS Code"], "command_id": "chat-42-1",
    }]})

    content: str = Field(min_length=1, max_length=10_000, description="The memory in plain words.")
    kind: MemoryKind = Field(default=MemoryKind.FACT, description="What sort of memory it is.")
    attribute: str | None = Field(
        default=None, min_length=1, max_length=200,
        description="A slot holding one value at a time (favorite_color, employer, home_city...): "
        "a new value closes the one in force.",
    )
    value: str | None = Field(default=None, max_length=1_000, description="The slot's value.")
    valid_from: datetime | None = Field(default=None, description="When it became true; default: now.")
    valid_until: datetime | None = Field(default=None, description="When it stopped being true, if it has.")
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    source: str | None = Field(default=None, max_length=500, description="Where it came from.")
    entities: list[str] = Field(default_factory=list, max_length=50, description="What it is about.")
    episode_id: Identifier | None = Field(default=None, description="The conversation it came from.")
    command_id: Identifier | None = Field(
        default=None, description="Idempotency key: the same id takes effect once. Default: a new id."
    )
    occurred_at: datetime | None = Field(default=None, description="When it was said; default: now.")


class EpisodeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "session_id": "2026-03-01-morning",
        "messages": [
            {"role": "user", "content": "I moved to Lisbon last week.", "timestamp": "2026-03-01T09:00:00Z"},
            {"role": "assistant", "content": "Welcome to Lisbon!", "timestamp": "2026-03-01T09:00:05Z"},
        ],
    }]})

    session_id: Identifier
    messages: list[Message] = Field(min_length=1, max_length=1_000)
    episode_id: Identifier | None = None
    command_id: Identifier | None = None
    occurred_at: datetime | None = Field(
        default=None, description="When the conversation happened; default: its first message's time, or now."
    )


class WriteAccepted(BaseModel):
    command_id: str
    status: Literal["accepted", "applied", "duplicate"] = Field(
        description="accepted: durable, not applied yet (Kafka mode without wait); applied: in the "
        "graph; duplicate: this command_id took effect before."
    )
    memory_id: str | None = Field(default=None, description="The memory recorded or changed, once applied.")


class Problem(BaseModel):
    detail: str
    code: str | None = None
    command_id: str | None = None


class MemoryPage(BaseModel):
    items: list[MemoryView]
    offset: int
    limit: int
    next_offset: int | None = Field(description="Pass as offset for the next page; null on the last.")


class Stats(BaseModel):
    user_id: str
    total: int
    by_kind: dict[str, int]
    by_status: dict[str, int]
    by_kind_and_status: dict[str, dict[str, int]]
