"""Commands: what a client asks Lore to do. Imperative names; validated on arrival."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from domain.model import MemoryKind, utc

UtcDatetime = Annotated[datetime, AfterValidator(utc)]
IDENTIFIER_PATTERN = r"^[A-Za-z0-9_.:@\-]+$"
Identifier = Annotated[str, Field(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]
EntityName = Annotated[str, Field(min_length=1, max_length=200)]

# Bounds of what one command may hold (README, "Bounds"): a larger input is refused by name.
MAX_MEMORY_CHARS = 10_000
MAX_ENTITIES = 50
MAX_MESSAGE_CHARS = 50_000
MAX_EPISODE_MESSAGES = 1_000
MAX_EPISODE_CHARS = 1_000_000


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    command_id: Identifier = Field(description="Client-chosen id; the same id takes effect once.")
    user_id: Identifier = Field(description="The person whose memory this is.")
    occurred_at: UtcDatetime = Field(description="When the client saw it happen.")


class RecordMemory(_Command):
    type: Literal["RecordMemory"] = "RecordMemory"
    content: str = Field(min_length=1, max_length=MAX_MEMORY_CHARS, description="The memory in plain words.")
    kind: MemoryKind = MemoryKind.FACT
    attribute: str | None = Field(
        default=None, min_length=1, max_length=200,
        description="A slot that holds one value at a time (e.g. favorite_color); "
        "a new value supersedes the one in force.",
    )
    value: str | None = Field(default=None, max_length=1_000, description="The slot's value.")
    valid_from: UtcDatetime | None = Field(
        default=None, description="When it became true; defaults to occurred_at."
    )
    valid_until: UtcDatetime | None = Field(default=None, description="When it stopped being true.")
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    source: str | None = Field(default=None, max_length=500, description="Where it came from.")
    entities: tuple[EntityName, ...] = Field(default=(), max_length=MAX_ENTITIES,
                                             description="Names of what it is about.")
    episode_id: Identifier | None = Field(default=None, description="The conversation it was taken from.")


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["user", "assistant", "system", "tool"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    timestamp: UtcDatetime | None = None


def message_text(message: Message) -> str:
    """What a message says, as it is embedded and indexed."""
    return message.content


class RecordEpisode(_Command):
    type: Literal["RecordEpisode"] = "RecordEpisode"
    session_id: Identifier
    messages: tuple[Message, ...] = Field(min_length=1, max_length=MAX_EPISODE_MESSAGES)
    episode_id: Identifier | None = None

    @field_validator("messages")
    @classmethod
    def _bounded(cls, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        total = sum(len(m.content) for m in messages)
        if total > MAX_EPISODE_CHARS:
            raise ValueError(f"an episode holds at most {MAX_EPISODE_CHARS:,} characters in all, "
                             f"this one {total:,}")
        return messages


class ForgetMemory(_Command):
    type: Literal["ForgetMemory"] = "ForgetMemory"
    memory_id: Identifier
    reason: str | None = Field(default=None, max_length=500)


class RestoreMemory(_Command):
    type: Literal["RestoreMemory"] = "RestoreMemory"
    memory_id: Identifier


class EraseUser(_Command):
    type: Literal["EraseUser"] = "EraseUser"


Command = Annotated[
    RecordMemory | RecordEpisode | ForgetMemory | RestoreMemory | EraseUser,
    Field(discriminator="type"),
]
command_adapter: TypeAdapter[Command] = TypeAdapter(Command)
