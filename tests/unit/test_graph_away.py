"""A Neo4j that goes away: the driver Lore wires knows it within seconds and keeps no bookmark of
a store that may be replaced; a request whose graph does not answer is 503 naming the shard, one
that fails for another reason stays a 500; the read operations document the 503."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from fastapi import Depends, FastAPI, Request
from fastapi.testclient import TestClient
from neo4j.exceptions import (
    ClientError,
    ConnectionAcquisitionTimeoutError,
    CypherSyntaxError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from infra.settings import Settings
from services.api import create_app
from services.api.deps import person_lore
from services.api.unavailable import RETRY_AFTER_S, graph_unavailable
from services.bootstrap import neo4j_driver
from services.failures import GRAPH_ERRORS, Failure, classify, unavailable
from services.shards import GraphShards

URIS = ["bolt://neo4j-a:7687", "bolt://neo4j-b:7687"]


def test_the_driver_keeps_no_bookmark_and_gives_up_within_seconds() -> None:
    settings = Settings(neo4j_uri="bolt://127.0.0.1:1", neo4j_connect_timeout_s=1.5,
                        neo4j_acquire_timeout_s=4, neo4j_retry_s=0.8)
    with neo4j_driver(settings) as driver:  # made without reaching the server
        # A bookmark of a store replaced since would make every later query wait for it.
        assert driver.execute_query_bookmark_manager is None
        pool, workspace = driver._pool.pool_config, driver._default_workspace_config
        assert pool.connection_timeout == 1.5 and workspace.connection_acquisition_timeout == 4
        assert workspace.max_transaction_retry_time == 0.8
        assert pool.liveness_check_timeout is not None  # a frozen server's idle connections are found


@pytest.mark.parametrize("error", [
    ServiceUnavailable("Couldn't connect to 127.0.0.1:7687"),
    SessionExpired("the connection went away"),
    ConnectionAcquisitionTimeoutError("failed to obtain a connection from the pool within 2.0s"),
])
def test_a_graph_that_does_not_answer_is_transient(error: Exception) -> None:
    assert classify(error) is Failure.TRANSIENT and unavailable(error)


@pytest.mark.parametrize("error", [CypherSyntaxError("Invalid input"), ValueError("a bug")])
def test_a_statement_refused_or_a_bug_is_not_unavailable(error: Exception) -> None:
    assert not unavailable(error)


def lores(uris: list[str]) -> GraphShards:
    made = [SimpleNamespace(settings=Settings(neo4j_uri=uri)) for uri in uris]
    return GraphShards(made, partitions=8)  # type: ignore[arg-type]


def failing_app(shards: GraphShards, error: Exception) -> FastAPI:
    """One route that reads `user_id`'s shard as the API's routes do, and fails with `error`."""
    app = FastAPI()
    app.state.shards = shards
    for kind in GRAPH_ERRORS:
        app.add_exception_handler(kind, graph_unavailable)

    def shard_of(request: Request, user_id: str) -> object:
        return person_lore(request, shards, user_id)

    @app.get("/users/{user_id}")
    def read(lore: object = Depends(shard_of)) -> None:  # noqa: B008 - FastAPI's own idiom
        raise error

    return app


def test_a_shard_that_does_not_answer_is_503_naming_it() -> None:
    shards = lores(URIS)
    person = next(p for p in (f"p{i}" for i in range(100)) if shards.index_of(p) == 1)
    client = TestClient(failing_app(shards, ServiceUnavailable("Couldn't connect")))
    answer = client.get(f"/users/{person}")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == str(RETRY_AFTER_S)
    body = answer.json()
    assert body["code"] == "graph_unavailable" and body["shard"] == 1
    assert "shard 1 of 2" in body["detail"] and "other shards" in body["detail"]
    assert "neo4j-b" not in body["detail"]  # where the shard lives is the operator's, in the log


def test_the_single_neo4j_starting_is_503() -> None:
    starting = TransientError("Neo.TransientError.General.DatabaseUnavailable")
    answer = TestClient(failing_app(lores(URIS[:1]), starting)).get("/users/ada")
    assert answer.status_code == 503 and answer.json()["shard"] is None
    assert answer.json()["detail"].startswith("Neo4j does not answer")


def test_a_statement_neo4j_refuses_is_still_a_500() -> None:
    client = TestClient(failing_app(lores(URIS[:1]), ClientError("a statement Neo4j refuses")),
                        raise_server_exceptions=False)
    assert client.get("/users/ada").status_code == 500


def test_the_read_operations_document_the_503() -> None:
    paths = create_app().openapi()["paths"]
    for path, method in [("/v1/users/{user_id}/memories", "get"), ("/v1/users/{user_id}/search", "post"),
                         ("/v1/users/{user_id}/context", "post"), ("/v1/users/{user_id}/stats", "get"),
                         ("/v1/users/{user_id}/memories/{memory_id}/history", "get")]:
        documented = paths[path][method]["responses"]["503"]
        assert documented["content"]["application/json"]["schema"]["$ref"].endswith("/ServiceUnavailable")
