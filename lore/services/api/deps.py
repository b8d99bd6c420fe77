"""Request dependencies, as `Annotated` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from lore.services.bootstrap import Lore


def _lore(request: Request) -> Lore:
    lore: Lore = request.app.state.lore
    return lore


LoreDep = Annotated[Lore, Depends(_lore)]
