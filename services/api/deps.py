"""Request dependencies, as `Annotated` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request

from domain.commands import IDENTIFIER_PATTERN
from projections.temporal import TemporalQueries
from services.api.auth import PersonDep
from services.bootstrap import Lore
from services.intake import Intake


def _lore(request: Request) -> Lore:
    lore: Lore = request.app.state.lore
    return lore


def _intake(request: Request) -> Intake:
    intake: Intake = request.app.state.intake
    return intake


def _queries(lore: LoreDep) -> TemporalQueries:
    return lore.queries


LoreDep = Annotated[Lore, Depends(_lore)]
IntakeDep = Annotated[Intake, Depends(_intake)]
QueriesDep = Annotated[TemporalQueries, Depends(_queries)]
# The person a path names, as Lore keeps them: the caller's tenant's (services/api/auth.py).
UserId = PersonDep
MemoryId = Annotated[str, Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]
Wait = Annotated[bool, Query(description="Answer once the command is applied to the graph "
                                         "(read-your-writes).")]
