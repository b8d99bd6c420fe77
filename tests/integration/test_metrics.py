"""/metrics over the real Neo4j: after writes and searches, Prometheus reads the latency of each
route and of each search source, the commands handled by outcome, and the projection's lag."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from prometheus_client.parser import text_string_to_metric_families

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.kafka_flow import wait_until
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
    written = samples(client)
    for _ in range(2):
        assert client.post("/v1/users/ada/search", json={"query": "tea"}).status_code == 200
    # What the searches listed is recorded as use, a command of its own, in the background.
    client.app.state.lore.use.flush()
    wait_until(lambda: value(samples(client), "lore_projection_lag_entries") == 0, "the use applied")
    after = samples(client)

    route = {"route": "/v1/users/{user_id}/search", "method": "POST", "status": "200"}
    assert value(after, "lore_http_request_seconds_count", **route) - value(
        before, "lore_http_request_seconds_count", **route) == 2
    assert value(after, "lore_http_request_seconds_sum", **route) > 0
    for source in ("text", "graph", "fuse"):
        assert value(after, "lore_search_source_seconds_count", source=source) >= 2, source
    assert value(after, "lore_search_seconds_count") - value(before, "lore_search_seconds_count") == 2
    assert value(written, "lore_commands_total", outcome="applied") - value(
        before, "lore_commands_total", outcome="applied") == 3
    assert value(after, "lore_commands_total", outcome="rejected") - value(
        before, "lore_commands_total", outcome="rejected") == 1
    assert value(after, "lore_commands_total", outcome="applied") > value(written, "lore_commands_total",
                                                                          outcome="applied")  # the use
    assert ("lore_projection_lag_entries", ()) in after and value(after, "lore_projection_lag_entries") == 0



class _Collector(BaseHTTPRequestHandler):
    """A stand-in OpenTelemetry collector: keeps the OTLP requests it is sent."""

    received: ClassVar[list[tuple[str, bytes]]] = []

    def do_POST(self) -> None:  # noqa: N802 - the standard library's name
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        self.received.append((self.path, body))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *_: object) -> None:
        pass


def test_traces_are_exported_over_otlp_when_an_endpoint_is_set(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    collector = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{collector.server_port}")
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
    _Collector.received.clear()
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none")
    try:
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            client.post("/v1/users/ada/memories", params={"wait": "true"}, json={"content": "likes tea"})
            client.post("/v1/users/ada/search", json={"query": "tea"})
        wait_until(lambda: any(path == "/v1/traces" for path, _ in _Collector.received),
                   "spans at the collector")
    finally:
        collector.shutdown()
    names = set()
    for path, body in _Collector.received:
        if path == "/v1/traces":
            request = ExportTraceServiceRequest.FromString(body)
            names |= {span.name for rs in request.resource_spans for ss in rs.scope_spans
                      for span in ss.spans}
            services = {a.value.string_value for rs in request.resource_spans for a in rs.resource.attributes
                        if a.key == "service.name"}
            assert services == {"lore"}
    assert any("/v1/users/{user_id}/search" in name for name in names), names
