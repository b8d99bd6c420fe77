"""Where an integration test session gets its real Neo4j and Kafka from.

Order: servers named by the environment (LORE_TEST_NEO4J_URI and LORE_TEST_KAFKA_BOOTSTRAP,
for a developer who keeps a stack running), else testcontainers when a Docker engine
answers, else Lore's own local Java processes on free ports in a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from infra.local import LocalStack
from infra.local.process import free_port
from infra.local.servers import KafkaServer, Neo4jServer
from infra.settings import Settings

NEO4J_IMAGE = "neo4j:2026.08.1-community"
KAFKA_IMAGE = "apache/kafka:4.4.0"


@dataclass(frozen=True)
class ServerEndpoints:
    neo4j_uri: str
    kafka_bootstrap: str
    origin: str
    # Neo4j Browser's page, where it trusts guides and styles from 127.0.0.1 (local processes only).
    neo4j_browser_url: str | None = None


def docker_engine_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(
            ["docker", "info"], capture_output=True, timeout=10
        ).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@contextmanager
def test_servers(workdir: Path) -> Iterator[ServerEndpoints]:
    uri, bootstrap = os.environ.get("LORE_TEST_NEO4J_URI"), os.environ.get("LORE_TEST_KAFKA_BOOTSTRAP")
    if uri and bootstrap:
        yield ServerEndpoints(uri, bootstrap, "environment")
    elif docker_engine_answers():
        with _containers() as servers:
            yield servers
    else:
        with _local_processes(workdir) as servers:
            yield servers


@contextmanager
def _containers() -> Iterator[ServerEndpoints]:
    from testcontainers.kafka import KafkaContainer
    from testcontainers.neo4j import Neo4jContainer

    with Neo4jContainer(NEO4J_IMAGE).with_env("NEO4J_AUTH", "none") as neo4j, \
            KafkaContainer(KAFKA_IMAGE).with_kraft() as kafka:
        yield ServerEndpoints(neo4j.get_connection_url(), kafka.get_bootstrap_server(), "testcontainers")


def private_stack(home: Path, *, neo4j_heap: str, pagecache: str, kafka_heap: str,
                  start_timeout_s: float = 180, ports: dict[str, int] | None = None,
                  series: Literal["5.26", "2026"] = "2026", neo4j_password: str | None = None,
                  kafka_password: str | None = None) -> LocalStack:
    """Lore's local Neo4j and Kafka under `home`, for a test that must start, stop or secure
    servers of its own; on free ports unless `ports` ("bolt", "http", "kafka", "controller")."""
    ports = ports or {name: free_port() for name in ("bolt", "http", "kafka", "controller")}
    return LocalStack(
        home=home, jar_cache=Settings().jar_cache,
        neo4j=Neo4jServer(home=home / "neo4j", bind="127.0.0.1", bolt_port=ports["bolt"],
                          http_port=ports["http"], heap=neo4j_heap, pagecache=pagecache, series=series,
                          password=neo4j_password),
        kafka=KafkaServer(home=home / "kafka", bind="127.0.0.1", port=ports["kafka"],
                          controller_port=ports["controller"], heap=kafka_heap, password=kafka_password),
        start_timeout_s=start_timeout_s,
    )


@contextmanager
def _local_processes(workdir: Path) -> Iterator[ServerEndpoints]:
    stack = private_stack(workdir, neo4j_heap="1g", pagecache="512m", kafka_heap="512m")
    try:
        stack.up()
        yield ServerEndpoints(stack.neo4j.bolt_uri, stack.kafka.bootstrap, "local processes",
                              stack.neo4j.browser_url)
    finally:
        stack.down()
