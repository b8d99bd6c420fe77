"""The servers the session started are the real ones, and do what Lore needs of them."""

from __future__ import annotations

import json
from collections.abc import Callable

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from neo4j import Driver

from tests.support.servers import ServerEndpoints


def test_a_node_written_through_bolt_reads_back(neo4j: Driver) -> None:
    neo4j.execute_query(
        "CREATE (:User {user_id: $id, name: $name})", id="u-1", name="Ada"
    )
    records, _, _ = neo4j.execute_query(
        "MATCH (u:User {user_id: $id}) RETURN u.name AS name, labels(u) AS labels", id="u-1"
    )
    assert [(r["name"], r["labels"]) for r in records] == [("Ada", ["User"])]


def test_vector_and_fulltext_indexes_answer_queries(neo4j: Driver) -> None:
    neo4j.execute_query(
        "CREATE VECTOR INDEX doc_embedding IF NOT EXISTS FOR (d:Doc) ON d.embedding "
        "OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}"
    )
    neo4j.execute_query("CREATE FULLTEXT INDEX doc_text IF NOT EXISTS FOR (d:Doc) ON EACH [d.text]")
    neo4j.execute_query(
        "UNWIND $docs AS doc CREATE (:Doc {id: doc.id, text: doc.text, embedding: doc.v})",
        docs=[
            {"id": "tea", "text": "prefers green tea in the morning", "v": [1.0, 0.0, 0.0]},
            {"id": "cof", "text": "drinks black coffee at night", "v": [0.0, 1.0, 0.0]},
            {"id": "run", "text": "goes running on sundays", "v": [0.0, 0.0, 1.0]},
        ],
    )
    neo4j.execute_query("CALL db.awaitIndexes(60)")

    vector_hits, _, _ = neo4j.execute_query(
        "CALL db.index.vector.queryNodes('doc_embedding', 2, $q) YIELD node, score "
        "RETURN node.id AS id, score",
        q=[0.9, 0.1, 0.0],
    )
    assert [r["id"] for r in vector_hits] == ["tea", "cof"]
    assert vector_hits[0]["score"] > vector_hits[1]["score"]

    text_hits, _, _ = neo4j.execute_query(
        "CALL db.index.fulltext.queryNodes('doc_text', $q) YIELD node, score RETURN node.id AS id",
        q="coffee",
    )
    assert [r["id"] for r in text_hits] == ["cof"]

    kinds, _, _ = neo4j.execute_query(
        "SHOW INDEXES YIELD name, type, state WHERE name IN ['doc_embedding', 'doc_text'] "
        "RETURN name, type, state ORDER BY name"
    )
    assert [(r["name"], r["type"], r["state"]) for r in kinds] == [
        ("doc_embedding", "VECTOR", "ONLINE"),
        ("doc_text", "FULLTEXT", "ONLINE"),
    ]


def test_a_committed_offset_survives_a_consumer_restart(
    servers: ServerEndpoints, kafka_topic: Callable[..., str]
) -> None:
    topic = kafka_topic("offsets")
    producer = KafkaProducer(
        bootstrap_servers=servers.kafka_bootstrap,
        acks="all",
    )
    for i in range(10):
        producer.send(topic, key=b"u-1", value=json.dumps({"n": i}).encode())
    producer.flush()
    producer.close()

    def consumer() -> KafkaConsumer:
        return KafkaConsumer(
            topic,
            bootstrap_servers=servers.kafka_bootstrap,
            group_id=f"{topic}-group",
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            consumer_timeout_ms=10_000,
        )

    first = consumer()
    seen = []
    for message in first:
        seen.append(json.loads(message.value)["n"])
        if len(seen) == 4:
            break
    first.commit()
    first.close()
    assert seen == [0, 1, 2, 3]

    second = consumer()
    rest = []
    for message in second:
        rest.append(json.loads(message.value)["n"])
        if len(rest) == 6:
            break
    committed = second.committed(TopicPartition(topic, 0))
    second.close()
    assert rest == [4, 5, 6, 7, 8, 9]
    assert committed == 4
