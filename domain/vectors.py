"""Vectors recorded with events, so that a replay never computes one again."""

from __future__ import annotations

import base64
from array import array
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


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


class ItemVector(BaseModel):
    """A new vector for one of the person's memories, turns or summaries (`lore reembed`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    item: Literal["memory", "message", "summary"]
    item_id: str = Field(min_length=1, max_length=200)
    embedding: Embedding | None = Field(description="None in a replay once the item was purged.")
