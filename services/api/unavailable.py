"""503 for a request whose graph does not answer: the Neo4j that holds the person (their shard,
with LORE_NEO4J_SHARDS) is away, starting, or gives no connection in time. Nothing is wrong with
the request: it can be sent again, and the other shards' people are served meanwhile."""

from __future__ import annotations

import logging
from typing import Any, Literal

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from services.failures import unavailable
from services.shards import GraphShards

log = logging.getLogger(__name__)

# What a client is told to wait before it tries again: about what a Neo4j takes to restart.
RETRY_AFTER_S = 5


class GraphUnavailable(BaseModel):
    detail: str = Field(description="What does not answer, and what still works.")
    code: Literal["graph_unavailable"] = "graph_unavailable"
    shard: int | None = Field(
        default=None, description="The shard (index in LORE_NEO4J_SHARDS) that holds the person and "
        "does not answer; null with a single Neo4j, or when the request needed every shard.")


class ServiceUnavailable(BaseModel):
    """What a 503 says: what does not answer (or cannot be written on), and what still works."""

    detail: str
    code: Literal["graph_unavailable", "embedder_unavailable", "embedder_changed", "projection_mismatch",
                  "projection_outdated", "graph_needs_rebuild"] = Field(
        description="graph_unavailable: the person's Neo4j (`shard`) does not answer; embedder_unavailable: "
        "the embedder gives no vectors; embedder_changed, projection_mismatch, projection_outdated, "
        "graph_needs_rebuild: the store cannot be written on as it is (the detail names the command).")
    shard: int | None = Field(default=None, description="For graph_unavailable with LORE_NEO4J_SHARDS: the "
                              "shard that holds the person.")


RESPONSES: dict[int | str, dict[str, Any]] = {503: {
    "model": ServiceUnavailable,
    "description": "The Neo4j that holds the person (their shard's, with LORE_NEO4J_SHARDS) does not "
    "answer now; other people's shards still serve. Try again after Retry-After seconds; "
    "`/v1/health` says what is away.",
}}


def _problem(shards: GraphShards, shard: int | None, error: BaseException) -> GraphUnavailable:
    why = type(error).__name__
    if len(shards) == 1:
        return GraphUnavailable(detail=f"Neo4j does not answer ({why}): try again shortly")
    if shard is None:
        return GraphUnavailable(detail=f"a Neo4j shard does not answer ({why}): try again shortly; "
                                "/v1/health names it")
    return GraphUnavailable(
        shard=shard, detail=f"shard {shard} of {len(shards)}, the Neo4j that holds this person, does "
        f"not answer ({why}): try again shortly. The other shards serve their people as usual")


async def graph_unavailable(request: Request, error: Exception) -> JSONResponse:
    """The exception handler for the driver's errors: 503 for those that pass; the others are
    raised again, and answered 500 as any error."""
    if not unavailable(error):
        raise error
    shards: GraphShards = request.app.state.shards
    shard = getattr(request.state, "graph_shard", None)
    known = shard if shard is not None else 0 if len(shards) == 1 else None
    where = "a Neo4j shard" if known is None else shards.lores[known].settings.neo4j_uri
    log.warning("%s %s: %s does not answer (%s: %s)", request.method, request.url.path, where,
                type(error).__name__, error)
    problem = _problem(shards, shard, error)
    return JSONResponse(status_code=503, content=problem.model_dump(),
                        headers={"Retry-After": str(RETRY_AFTER_S)})
