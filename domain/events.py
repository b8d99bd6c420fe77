"""Events: what Lore decided. Past-tense names, immutable, versioned, one envelope for all."""

from __future__ import annotations

import base64
from array import array
from collections.abc import Sequence
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Message, UtcDatetime
from domain.model import MemoryKind


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = Field(default=1, description="Bumped when the shape changes; see codec.")
    event_id: str
    user_id: str
    command_id: str = Field(description="The command this event was decided from.")
    occurred_at: UtcDatetime = Field(description="When it happened, as the client said.")
    recorded_at: UtcDatetime = Field(description="When Lore decided it (transaction time).")

    current_version: ClassVar[int] = 1


class Embedding(BaseModel):
    """A vector recorded with the event, so that a replay never computes it again."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(description="Which model made it; vectors of two models never mix.")
    vector_b64: str = Field(description="Little-endian float32, base64.")

    @classmethod
    def of(cls, model: str, vector: Sequence[float]) -> Embedding:
        packed = array("f", vector)
        return cls(model=model, vector_b64=base64.b64encode(packed.tobytes()).decode())

    def vector(self) -> list[float]:
        packed = array("f")
        packed.frombytes(base64.b64decode(self.vector_b64))
        return packed.tolist()


class MemoryRecorded(_Event):
    type: Literal["MemoryRecorded"] = "MemoryRecorded"
    memory_id: str
    kind: MemoryKind
    content: str
    attribute: str | None = None
    value: str | None = None
    valid_from: UtcDatetime
    valid_until: UtcDatetime | None = None
    importance: float = 0.5
    confidence: float = 1.0
    source: str | None = None
    entities: tuple[str, ...] = ()
    episode_id: str | None = None
    embedding: Embedding | None = None


class MemorySuperseded(_Event):
    """`memory_id` stopped being true at `valid_until`, replaced by `by_memory_id`."""

    type: Literal["MemorySuperseded"] = "MemorySuperseded"
    memory_id: str
    by_memory_id: str
    valid_until: UtcDatetime


class MemoryReinforced(_Event):
    """The same value was stated again: no new memory, more confidence, another source."""

    type: Literal["MemoryReinforced"] = "MemoryReinforced"
    memory_id: str
    confidence: float
    source: str | None = None


class EpisodeRecorded(_Event):
    """v2: `embeddings`, one per message (or none), so that each turn is searchable on its own."""

    type: Literal["EpisodeRecorded"] = "EpisodeRecorded"
    schema_version: int = 2
    episode_id: str
    session_id: str
    messages: tuple[Message, ...]
    embeddings: tuple[Embedding, ...] = ()

    current_version: ClassVar[int] = 2


class MemoryForgotten(_Event):
    type: Literal["MemoryForgotten"] = "MemoryForgotten"
    memory_id: str
    reason: str | None = None


class MemoryRestored(_Event):
    type: Literal["MemoryRestored"] = "MemoryRestored"
    memory_id: str


class UserErased(_Event):
    type: Literal["UserErased"] = "UserErased"


class CommandRejected(_Event):
    """The domain refused the command: recorded, so that its id answers the same way again."""

    type: Literal["CommandRejected"] = "CommandRejected"
    command_type: str
    code: str = Field(description="Machine-readable reason, e.g. memory_not_found.")
    reason: str = Field(description="What was wrong, in words.")


Event = Annotated[
    MemoryRecorded | MemorySuperseded | MemoryReinforced | EpisodeRecorded
    | MemoryForgotten | MemoryRestored | UserErased | CommandRejected,
    Field(discriminator="type"),
]
