"""GET /v1/health over the real Neo4j and event log."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints


def test_health_reports_neo4j_and_the_log_ready(neo4j: Driver, servers: ServerEndpoints,
                                                 tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        body = client.get("/v1/health").json()
    assert body["status"] == "ok"
    assert body["neo4j"]["ready"] and body["event_log"]["ready"]
    assert body["extraction"] == {"ready": True, "detail": "extracting with rules/23"}


def test_health_is_503_when_neo4j_is_unreachable(tmp_path: Path) -> None:
    settings = Settings(neo4j_uri="bolt://127.0.0.1:1", home=tmp_path)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        response = client.get("/v1/health")
    assert response.status_code == 503
    assert response.json()["neo4j"]["ready"] is False


def test_health_and_writes_say_so_when_the_graph_follows_another_log(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    first = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path / "a", embedder="none")
    with TestClient(create_app(lambda: bootstrap(first))) as client:
        assert client.post("/v1/users/ada/memories", json={"content": "x"}).status_code == 202
    other = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path / "b", embedder="none")
    with TestClient(create_app(lambda: bootstrap(other))) as client:
        health = client.get("/v1/health")
        assert health.status_code == 503 and "another event log" in health.json()["neo4j"]["detail"]
        write = client.post("/v1/users/ada/memories", json={"content": "y"})
        assert write.status_code == 503 and "lore rebuild" in write.json()["detail"]
