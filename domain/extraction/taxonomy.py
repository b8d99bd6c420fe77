"""A deployment's own categories of memory, over Lore's kinds.

Lore's kinds (preference, fact, lesson, goal, event, person, todo, context, health, plan) are what its rules
act on: a to-do is due, a preference is ranked, a fact has a slot. A deployment may name its own
categories on top of them — a coach's PREF, PROC, SOMA, EMO, SAB, EFFECTIVE — each with the kind
it is, what it means (told to the model that extracts), and the importance it starts from. A
memory then carries its category beside its kind.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from domain.model import MemoryKind


class Category(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,39}$", description="e.g. SOMA")
    kind: MemoryKind = Field(description="The kind of Lore's that it is.")
    description: str = Field(min_length=1, max_length=300, description="What it holds, for the model.")
    importance: float | None = Field(
        default=None, ge=0.0, le=1.0, description="The importance it starts from (else its kind's)."
    )


class Taxonomy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    categories: tuple[Category, ...] = Field(min_length=1, max_length=50)

    @field_validator("categories")
    @classmethod
    def _distinct(cls, categories: tuple[Category, ...]) -> tuple[Category, ...]:
        names = [c.name.casefold() for c in categories]
        if len(set(names)) != len(names):
            raise ValueError("each category is named once (names are compared without case)")
        return categories

    def named(self, name: str | None) -> Category | None:
        """The category of this name (any case), or None."""
        if not name:
            return None
        wanted = name.strip().casefold()
        return next((c for c in self.categories if c.name.casefold() == wanted), None)
