"""The embedders from Maven Central's LangChain4j jars (e5-small-v2, bge-small-en-v1.5), and a
store that refuses vectors of a second model beside its first's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.embedding.jar_models import MODELS, JarModelEmbedder
from infra.settings import Settings
from projections.search import Window
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints

NOTES = ["Ada drinks green tea every morning before work.",
         "The bridge on Elm Street was closed for repairs in May.",
         "Bob plays chess with his niece on Sundays."]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_jar_model_ranks_the_passage_that_answers_a_question_first(name: str) -> None:
    model = JarModelEmbedder(MODELS[name], Settings().jar_cache)
    passages = np.array(model.embed(NOTES))
    questions = np.array(model.embed_queries(["What does Ada drink in the morning?",
                                              "Who does Bob play chess with?",
                                              "When was the bridge closed?"]))
    assert passages.shape == (3, MODELS[name].dimensions)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    assert list((questions @ passages.T).argmax(axis=1)) == [0, 2, 1]
    # A question is read as a question: its vector is not the same words read as a passage.
    assert not np.allclose(model.embed_queries(["green tea"])[0], model.embed(["green tea"])[0])
    again = JarModelEmbedder(MODELS[name], Settings().jar_cache)  # the same vectors in another load
    assert np.array_equal(np.array(again.embed(NOTES)), passages)
    # int8 activations are scaled per batch: a text alone comes out a hair apart, never far.
    assert float(np.dot(again.embed(NOTES[:1])[0], passages[0])) > 0.99


def test_search_with_e5_finds_a_memory_by_meaning(neo4j: Driver, servers: ServerEndpoints,
                                                  tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="e5-small-v2",
                        extractor="off", layers="off")
    lore = bootstrap(settings)
    try:
        with TestClient(create_app(lambda: lore)) as client:
            for note in NOTES:
                answer = client.post("/v1/users/ada/memories", params={"wait": "true"},
                                     json={"content": note})
                assert answer.status_code == 202, answer.text
            # No word in common with the note: found by the vector source alone.
            hits = lore.search.search("ada", "beverage she has at dawn", Window(None, None), limit=3,
                                      sources=("vector",), types=("memory",))
        assert hits and hits[0].fields.get("content") == NOTES[0]
        stored, _, _ = neo4j.execute_query(
            "MATCH (m:Memory {user_id: 'ada'}) RETURN DISTINCT m.embedding_model AS m")
        assert [r["m"] for r in stored] == ["e5-small-v2-int8-onnx"]
    finally:
        lore.close()


class Named:
    """A stand-in model of a given name (its vectors mean nothing)."""

    dimensions = 384

    def __init__(self, model: str) -> None:
        self.model = model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * 383 for _ in texts]


def test_a_store_with_one_models_vectors_refuses_another_models(neo4j: Driver, servers: ServerEndpoints,
                                                                 tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, extractor="off", layers="off")
    with TestClient(create_app(lambda: bootstrap(settings, embedder=Named("model-a")))) as client:
        assert client.post("/v1/users/ada/memories", params={"wait": "true"},
                           json={"content": "Ada likes tea"}).status_code == 202
    with TestClient(create_app(lambda: bootstrap(settings, embedder=Named("model-b")))) as client:
        refused = client.post("/v1/users/ada/memories", json={"content": "Ada likes coffee"})
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "embedder_changed"
        assert "made by model-a" in refused.json()["detail"] and "model-b" in refused.json()["detail"]
    with TestClient(create_app(lambda: bootstrap(settings, embedder=Named("model-a")))) as client:
        assert client.post("/v1/users/ada/memories", params={"wait": "true"},
                           json={"content": "Ada likes coffee"}).status_code == 202  # the same model again
    memories, _, _ = neo4j.execute_query("MATCH (m:Memory {user_id: 'ada'}) RETURN count(m) AS n")
    assert memories[0]["n"] == 2  # the refused write left nothing behind
