"""/metrics over the real Neo4j: after writes and searches, Prometheus reads the latency of each
route and of each search source, the commands handled by outcome, and the projection's lag."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from prometheus_client.parser import text_string_to_metric_families

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints


@pytest.fixture()
def client(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none")
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = client.get("/metrics").text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(found: dict, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_show_route_and_search_latencies_and_commands(client: TestClient) -> None:
    before = samples(client)
    for n in range(3):
        client.post("/v1/users/ada/memories", params={"wait": "true"}, json={"content": f"likes tea {n}"})
    client.delete("/v1/users/ada/memories/nothing", params={"wait": "true"})  # a refusal
    for _ in range(2):
        assert client.post("/v1/users/ada/search", json={"query": "tea"}).status_code == 200
    after = samples(client)

    route = {"route": "/v1/users/{user_id}/search", "method": "POST", "status": "200"}
    assert value(after, "lore_http_request_seconds_count", **route) - value(
        before, "lore_http_request_seconds_count", **route) == 2
    assert value(after, "lore_http_request_seconds_sum", **route) > 0
    for source in ("text", "graph", "fuse"):
        assert value(after, "lore_search_source_seconds_count", source=source) >= 2, source
    assert value(after, "lore_search_seconds_count") - value(before, "lore_search_seconds_count") == 2
    assert value(after, "lore_commands_total", outcome="applied") - value(
        before, "lore_commands_total", outcome="applied") == 3
    assert value(after, "lore_commands_total", outcome="rejected") - value(
        before, "lore_commands_total", outcome="rejected") == 1
    assert ("lore_projection_lag_entries", ()) in after and value(after, "lore_projection_lag_entries") == 0

