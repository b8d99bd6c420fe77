"""The offline embedder: the pinned model, normalised vectors, paraphrases closer than strangers."""

from __future__ import annotations

import numpy as np
import pytest

from infra.embedding.local import LocalMiniLM
from infra.embedding.onnx_encoder import ModelFileMismatch, verified


@pytest.fixture(scope="module")
def model() -> LocalMiniLM:
    return LocalMiniLM()


def test_vectors_are_normalised_and_of_the_declared_size(model: LocalMiniLM) -> None:
    vectors = np.array(model.embed(["I like green tea", "我喜欢喝绿茶"]))
    assert vectors.shape == (2, model.dimensions)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_paraphrase_is_nearer_than_an_unrelated_sentence(model: LocalMiniLM) -> None:
    tea, paraphrase, stocks = np.array(model.embed([
        "I prefer green tea in the morning",
        "In the mornings I like to drink green tea",
        "The stock market fell sharply today",
    ]))
    assert tea @ paraphrase > 0.8 > 0.2 > tea @ stocks


def test_the_same_text_gives_the_same_vector_alone_or_in_a_batch(model: LocalMiniLM) -> None:
    alone = model.embed(["my favourite colour is blue"])[0]
    longer = "a much longer sentence that forces padding of the batch"
    batched = model.embed([longer, "my favourite colour is blue"])[1]
    assert np.allclose(alone, batched, atol=1e-5)


def test_a_model_file_with_another_hash_is_refused(tmp_path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(ModelFileMismatch, match="sha256"):
        verified(fake, "0" * 64)
