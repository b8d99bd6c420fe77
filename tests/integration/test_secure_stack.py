"""`lore infra up --secure`: Neo4j with a password and Kafka with SASL, and all of Lore through them.

A stack of its own (its own ports and folders): first started open, as a newcomer's is, then
secured in place, so the test also covers securing a stack that already holds data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError

from infra.local import LocalStack, StartError
from infra.local.process import free_port
from infra.settings import Settings
from tests.support.api_server import running_api
from tests.support.kafka_flow import start_worker, stop, wait_until
from tests.support.servers import private_stack

NEO4J_PASSWORD = "neo4j-secret-for-tests"
KAFKA_PASSWORD = "kafka-secret-for-tests"


def _stack(home: Path, ports: dict[str, int], neo4j_password: str | None,
           kafka_password: str | None) -> LocalStack:
    return private_stack(home, neo4j_heap="512m", pagecache="128m", kafka_heap="256m", ports=ports,
                         neo4j_password=neo4j_password, kafka_password=kafka_password)


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalStack, str]]:
    """The stack, secured after it ran open; and the id of a node written while it was open."""
    home = tmp_path_factory.mktemp("secure-stack")
    ports = {name: free_port() for name in ("bolt", "http", "kafka", "controller")}
    opened = _stack(home, ports, None, None)
    try:
        opened.up()
        with GraphDatabase.driver(opened.neo4j.bolt_uri, auth=None) as driver:
            driver.execute_query("CREATE (:Before {id: 'written-while-open'})")
        opened.down()
        secure = _stack(home, ports, NEO4J_PASSWORD, KAFKA_PASSWORD)
        secure.up()
        yield secure, "written-while-open"
    finally:
        opened.down()


def _settings(stack: LocalStack, home: Path) -> Settings:
    return Settings(
        neo4j_uri=stack.neo4j.bolt_uri, neo4j_password=NEO4J_PASSWORD, kafka_bootstrap=stack.kafka.bootstrap,
        kafka_password=KAFKA_PASSWORD, event_log="kafka", home=home, embedder="none",
        worker_session_timeout_ms=6000,
    )


def test_securing_an_open_stack_keeps_its_data(secured: tuple[LocalStack, str]) -> None:
    stack, written = secured
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=("neo4j", NEO4J_PASSWORD)) as driver:
        records, _, _ = driver.execute_query("MATCH (b:Before) RETURN b.id AS id")
    assert [r["id"] for r in records] == [written]


def test_lore_remembers_and_finds_through_the_secured_servers(
        secured: tuple[LocalStack, str], tmp_path: Path) -> None:
    """HTTP -> lore.commands -> a `lore worker` process -> the event log and Neo4j -> search, with
    every Kafka client (librdkafka, kafka-python, aiokafka) and the Neo4j driver logging in."""
    stack, _ = secured
    settings = _settings(stack, tmp_path)
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        with running_api(settings) as url, httpx.Client(base_url=url, timeout=60) as client:
            answer = client.post("/v1/users/ada/memories", params={"wait": True},
                                 json={"content": "I take my coffee with oat milk", "kind": "preference"})
            assert answer.json()["status"] == "applied", answer.text

            def found() -> bool:
                hits = client.post("/v1/users/ada/search", json={"query": "oat milk coffee"}).json()["hits"]
                return any("oat milk" in hit["content"] for hit in hits)
            wait_until(found, "the memory to be found", workers=[worker])
            metrics = client.get("/metrics").text
            assert "lore_consumer_lag_commands" in metrics  # the lag is read through SASL too
    finally:
        stop(worker)
    assert "SaslAuthenticationFailed" not in (tmp_path / "worker.log").read_text()


def test_neo4j_refuses_a_client_without_the_password(secured: tuple[LocalStack, str]) -> None:
    stack, _ = secured
    for auth in (None, ("neo4j", "not-the-password")):
        with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=auth) as driver, pytest.raises(AuthError):
            driver.verify_connectivity()


def test_kafka_refuses_a_client_without_the_password(secured: tuple[LocalStack, str]) -> None:
    stack, _ = secured
    plain = {"bootstrap.servers": stack.kafka.bootstrap}
    wrong = stack.kafka.access.confluent() | {"sasl.password": "not-the-password"}
    for config in (plain, wrong):
        with pytest.raises(KafkaException):
            AdminClient(config).list_topics(timeout=5)
    assert "__consumer_offsets" in AdminClient(stack.kafka.access.confluent()).list_topics(timeout=30).topics


def test_a_wrong_password_is_a_clear_start_error(secured: tuple[LocalStack, str]) -> None:
    stack, _ = secured
    ports = {"bolt": stack.neo4j.bolt_port, "http": stack.neo4j.http_port, "kafka": stack.kafka.port,
             "controller": stack.kafka.controller_port}
    # Kafka first: Neo4j locks a user out for a moment after a few wrong passwords.
    with pytest.raises(StartError, match="LORE_KAFKA_PASSWORD"):
        _stack(stack.home, ports, NEO4J_PASSWORD, "a-wrong-password").up()
    with pytest.raises(StartError, match="LORE_NEO4J_PASSWORD"):
        _stack(stack.home, ports, "a-wrong-password", KAFKA_PASSWORD).up()
