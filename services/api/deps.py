"""Request dependencies, as `Annotated` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request

from domain.commands import IDENTIFIER_PATTERN
from projections.temporal import TemporalQueries
from services.api.auth import PersonDep
from services.bootstrap import Lore
from services.intake import Intake
from services.shards import GraphShards


def _shards(request: Request) -> GraphShards:
    shards: GraphShards = request.app.state.shards
    return shards


def person_lore(request: Request, shards: GraphShards, person: str) -> Lore:
    """The Lore of the shard that holds `person`; the request keeps which, so that a 503 for a
    shard that does not answer names it (services/api/unavailable.py)."""
    index = shards.index_of(person)
    request.state.graph_shard = index
    return shards.lores[index]


def _lore(request: Request, person: PersonDep, shards: ShardsDep) -> Lore:
    """The Lore of the shard that holds the person the path names."""
    return person_lore(request, shards, person)


def _home(shards: ShardsDep) -> Lore:
    return shards.home


def _intake(request: Request) -> Intake:
    intake: Intake = request.app.state.intake
    return intake


def _queries(lore: LoreDep) -> TemporalQueries:
    return lore.queries


ShardsDep = Annotated[GraphShards, Depends(_shards)]
# The person's own shard: for routes whose path names a person.
LoreDep = Annotated[Lore, Depends(_lore)]
# Shard 0 (the only one unless LORE_NEO4J_SHARDS): its settings serve the whole process.
HomeLoreDep = Annotated[Lore, Depends(_home)]
IntakeDep = Annotated[Intake, Depends(_intake)]
QueriesDep = Annotated[TemporalQueries, Depends(_queries)]
# The person a path names, as Lore keeps them: the caller's tenant's (services/api/auth.py).
UserId = PersonDep
MemoryId = Annotated[str, Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]
# A client's idempotency key, where a write takes it in the query (DELETE, restore).
CommandId = Annotated[str | None, Query(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN,
                                        description="Idempotency key: the same id takes effect once "
                                        "(default: a new id).")]
Wait = Annotated[bool, Query(description="Answer once the command is applied to the graph "
                                         "(read-your-writes).")]
