"""Events survive the log's bytes unchanged; old shapes are lifted by upcasters, never guessed."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from domain import codec
from domain.events import Embedding, EpisodeRecorded, MemoryRecorded, UserErased

AT = datetime(2026, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)
ENVELOPE = {"event_id": "e1", "user_id": "u", "command_id": "c1", "occurred_at": AT, "recorded_at": AT}


@pytest.mark.parametrize("event", [
    MemoryRecorded(**ENVELOPE, memory_id="m1", kind="preference", content="likes tea",
                   attribute="drink", value="tea", valid_from=AT, entities=("tea",),
                   embedding=Embedding.of("model-x", [0.25, -1.5, 3.0])),
    EpisodeRecorded(**ENVELOPE, episode_id="ep", session_id="s",
                    messages=[{"role": "user", "content": "你好", "timestamp": AT}]),
    UserErased(**ENVELOPE),
])
def test_every_event_round_trips_without_loss(event) -> None:
    assert codec.decode(codec.encode(event)) == event


def test_an_embedding_keeps_its_float32_vector_exactly() -> None:
    vector = [0.1, 0.2, 0.3]
    restored = codec.decode(codec.encode(MemoryRecorded(
        **ENVELOPE, memory_id="m", kind="fact", content="x", valid_from=AT,
        embedding=Embedding.of("m", vector))))
    assert restored.embedding.vector() == pytest.approx(vector, abs=1e-7)
    assert restored.embedding.vector() == Embedding.of("m", vector).vector()


def test_an_old_schema_version_is_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    def v0_to_v1(payload: dict) -> dict:
        payload = dict(payload, schema_version=1)
        payload["content"] = payload.pop("text")
        return payload

    monkeypatch.setitem(codec.UPCASTERS, ("MemoryRecorded", 0), v0_to_v1)
    old = {**json.loads(codec.encode(MemoryRecorded(**ENVELOPE, memory_id="m", kind="fact",
                                                    content="old words", valid_from=AT))),
           "schema_version": 0}
    old["text"] = old.pop("content")
    assert codec.decode(json.dumps(old)).content == "old words"


def test_an_unknown_field_is_refused_rather_than_dropped() -> None:
    payload = json.loads(codec.encode(UserErased(**ENVELOPE)))
    with pytest.raises(ValueError, match="surprise"):
        codec.decode(json.dumps({**payload, "surprise": 1}))
