"""GET /v1/health over the real Neo4j and event log."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from lore.infra.settings import Settings
from lore.services.api import create_app
from lore.services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints


def test_health_reports_neo4j_and_the_log_ready(servers: ServerEndpoints, tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        body = client.get("/v1/health").json()
    assert body["status"] == "ok"
    assert body["neo4j"]["ready"] and body["event_log"]["ready"]


def test_health_is_503_when_neo4j_is_unreachable(tmp_path: Path) -> None:
    settings = Settings(neo4j_uri="bolt://127.0.0.1:1", home=tmp_path)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        response = client.get("/v1/health")
    assert response.status_code == 503
    assert response.json()["neo4j"]["ready"] is False
