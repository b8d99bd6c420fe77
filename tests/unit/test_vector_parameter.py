"""A vector sent as a query parameter prints as its length: the driver reprs every RUN's
parameters for a debug message whether or not anyone logs it."""

from __future__ import annotations

import json
import pickle
from datetime import UTC, datetime

from domain.events import Embedding, EpisodeRecorded, MemoryRecorded
from projections.graph.rows import WRITERS
from projections.vector_parameter import VectorParameter, vector_parameter

AT = datetime(2026, 3, 1, 12, 30, tzinfo=UTC)
ENVELOPE = {"event_id": "e1", "user_id": "u", "command_id": "c1", "occurred_at": AT, "recorded_at": AT}
VECTOR = [0.125 * i for i in range(384)]


def test_a_vector_parameter_is_the_list_it_wraps_and_prints_short() -> None:
    wrapped = vector_parameter(VECTOR)
    assert isinstance(wrapped, list) and wrapped == VECTOR
    assert repr(wrapped) == "<vector of 384>"
    assert json.dumps(wrapped) == json.dumps(VECTOR)
    assert pickle.loads(pickle.dumps(wrapped)) == VECTOR
    assert vector_parameter(None) is None


def test_the_rows_of_a_memory_and_an_episode_print_no_vector() -> None:
    memory = MemoryRecorded(**ENVELOPE, memory_id="m1", kind="fact", content="lives in Leeds",
                            valid_from=AT, embedding=Embedding.of("model-x", VECTOR))
    episode = EpisodeRecorded(**ENVELOPE, episode_id="ep", session_id="s",
                              messages=[{"role": "user", "content": "hello", "timestamp": AT}],
                              embeddings=[Embedding.of("model-x", VECTOR)])
    memory_row = WRITERS[MemoryRecorded][0](memory, 1)
    episode_row = WRITERS[EpisodeRecorded][0](episode, 2)
    message = episode_row["messages"][0]
    assert isinstance(memory_row["embedding"], VectorParameter)
    assert memory_row["embedding"] == Embedding.of("model-x", VECTOR).vector()
    assert len(repr(memory_row)) < 2_000 and "<vector of 384>" in repr(memory_row)
    assert isinstance(message["embedding"], VectorParameter)
    assert "<vector of 384>" in repr(episode_row) and len(repr(episode_row)) < 4_000
