"""What read queries return: flat DTOs, never the domain's objects. They are the shapes the API
answers with too, so they live with the client's (lore/schemas.py)."""

from __future__ import annotations

from lore.schemas import MemoryView

__all__ = ["MemoryView"]
