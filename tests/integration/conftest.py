"""Real Neo4j and Kafka for the integration tests: one pair per session, clean per test."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kafka.errors import UnknownTopicOrPartitionError
from neo4j import Driver, GraphDatabase

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints, test_servers


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerEndpoints]:
    with test_servers(tmp_path_factory.mktemp("servers")) as found:
        yield found


@pytest.fixture()
def settings(servers: ServerEndpoints, tmp_path: Path) -> Settings:
    """An embedded Lore (SQLite log, no embedder) over the session's Neo4j; a module that needs
    another (Kafka, keys) overrides it, and `client` follows."""
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none")


@pytest.fixture()
def client(neo4j: Driver, settings: Settings) -> Iterator[TestClient]:
    """The API over `settings`, in process, on a clean database."""
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def neo4j_driver(servers: ServerEndpoints) -> Iterator[Driver]:
    with GraphDatabase.driver(servers.neo4j_uri, auth=None, notifications_min_severity="OFF") as driver:
        yield driver


@pytest.fixture()
def neo4j(neo4j_driver: Driver) -> Driver:
    """The session's driver over an empty database: no data, no indexes, no constraints.

    Community edition has one user database, so a clean database means emptying it.
    """
    with neo4j_driver.session() as session:
        session.run(
            "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
        ).consume()
    for row in neo4j_driver.execute_query("SHOW CONSTRAINTS YIELD name").records:
        neo4j_driver.execute_query(f"DROP CONSTRAINT `{row['name']}` IF EXISTS")
    # An index that backs a constraint goes with its constraint and cannot be dropped alone.
    for row in neo4j_driver.execute_query(
        "SHOW INDEXES YIELD name, type, owningConstraint "
        "WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN name"
    ).records:
        neo4j_driver.execute_query(f"DROP INDEX `{row['name']}` IF EXISTS")
    return neo4j_driver


@pytest.fixture(scope="session")
def kafka_admin(servers: ServerEndpoints) -> Iterator[KafkaAdminClient]:
    admin = KafkaAdminClient(bootstrap_servers=servers.kafka_bootstrap)
    yield admin
    admin.close()


@pytest.fixture()
def kafka_topic(kafka_admin: KafkaAdminClient) -> Iterator[Callable[..., str]]:
    """Create topics private to this test (unique names), deleted afterwards."""
    created: list[str] = []

    def make(name: str = "t", partitions: int = 1) -> str:
        topic = f"{name}-{uuid.uuid4().hex[:10]}"
        # Stamped by the broker, as Lore makes its topics: tests produce messages stamped months
        # ago, which a topic kept by their stamps would delete at the broker's next retention check.
        kafka_admin.create_topics([NewTopic(topic, partitions, 1,
                                            topic_configs={"message.timestamp.type": "LogAppendTime"})])
        created.append(topic)
        return topic

    yield make
    if created:
        with contextlib.suppress(UnknownTopicOrPartitionError):
            kafka_admin.delete_topics(created)
