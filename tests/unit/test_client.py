"""The Python client agrees with the OpenAPI document the server publishes: every call's method
and path exist, its query parameters and body fields are the operation's, and it reads the
answer with the model the operation declares."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from lore.client import CALLS, _Call, _Calls
from services.api import create_app

T = datetime(2026, 3, 1, tzinfo=UTC)
SAMPLES: dict[str, dict[str, Any]] = {
    "remember": {"user_id": "ada", "content": "likes tea", "kind": "preference", "attribute": "drink",
                 "value": "tea", "valid_from": T, "importance": 0.5, "command_id": "c1"},
    "memories": {"user_id": "ada", "kind": "fact", "status": "active", "attribute": "drink", "valid_at": T,
                 "known_at": T},
    "memory": {"user_id": "ada", "memory_id": "m1"},
    "timeline": {"user_id": "ada", "attribute": "drink"},
    "search": {"user_id": "ada", "query": "tea", "valid_at": T, "known_at": T, "kinds": ["fact"],
               "include_history": True, "context_rules": True, "min_relevance": 0.8},
    "context": {"user_id": "ada", "message": "hi", "recent_messages": [{"role": "user", "content": "x"}],
                "min_relevance": 0.8, "relevant_limit": 5},
    "forget": {"user_id": "ada", "memory_id": "m1"},
    "restore": {"user_id": "ada", "memory_id": "m1"},
    "todos": {"user_id": "ada", "state": "overdue"},
    "profile": {"user_id": "ada"},
    "stats": {"user_id": "ada"},
    "erase": {"user_id": "ada"},
    "feedback": {"user_id": "ada", "memory_id": "m1", "verdict": "wrong", "note": "moved"},
    "whoami": {},
}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return create_app().openapi()


def test_every_call_of_the_client_has_a_sample() -> None:
    assert sorted(CALLS) == sorted(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_call_is_an_operation_of_the_openapi_document(name: str, openapi: dict[str, Any]) -> None:
    call: _Call[Any] = getattr(_Calls, name)(**SAMPLES[name])
    operation = openapi["paths"][call.path][call.method.lower()]
    declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
    assert set(call.query()) <= declared, set(call.query()) - declared
    path_params = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
    assert set(call.path_params) == path_params
    if call.body is not None:
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        fields = set(openapi["components"]["schemas"][ref]["properties"])
        assert set(call.json() or {}) <= fields, set(call.json() or {}) - fields
    else:
        assert "requestBody" not in operation
    answers = {code: r for code, r in operation["responses"].items() if code.startswith("2")}
    (answer,) = answers.values()
    schema = answer["content"]["application/json"]["schema"]
    assert schema["$ref"].rsplit("/", 1)[1] == call.answer.__name__
