"""The Python client agrees with the OpenAPI document the server publishes: every call's method
and path exist, its query parameters and body fields are the operation's, it reads the answer with
the model the operation declares, and no operation of /v1 is left without a call of the client."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime
from typing import Any

import pytest

from lore.calls import CALLS, STREAMS, Call, Calls
from lore.client import AsyncLoreClient, LoreClient
from services.api import create_app

T = datetime(2026, 3, 1, tzinfo=UTC)
ADA = {"user_id": "ada"}
MEMORY = {"user_id": "ada", "memory_id": "m1"}
SAMPLES: dict[str, dict[str, Any]] = {
    "remember": {**ADA, "content": "likes tea", "kind": "preference", "attribute": "drink",
                 "value": "tea", "valid_from": T, "importance": 0.5, "command_id": "c1"},
    "memories": {**ADA, "kind": "fact", "status": "active", "attribute": "drink", "category": "work",
                 "valid_at": T, "known_at": T, "offset": 100},
    "memory": MEMORY,
    "history": {**MEMORY, "offset": 5},
    "timeline": {**ADA, "attribute": "drink"},
    "forget": {**MEMORY, "purge": True, "reason": "asked", "command_id": "c2"},
    "restore": {**MEMORY, "command_id": "c3"},
    "correct": {**MEMORY, "content": "Ada likes green tea", "value": "green tea", "command_id": "c4"},
    "feedback": {**MEMORY, "verdict": "wrong", "note": "moved", "command_id": "c5"},
    "forget_topic": {**ADA, "topic": "work", "dry_run": False, "purge": True, "since": T, "until": T,
                     "min_relevance": 0.5, "command_id": "c6"},
    "stats": ADA,
    "record_conversation": {**ADA, "session_id": "s1", "episode_id": "e1", "occurred_at": T,
                            "messages": [{"role": "user", "content": "hi", "timestamp": T}],
                            "command_id": "c7"},
    "end_session": {**ADA, "session_id": "s1", "command_id": "c8"},
    "extract": {**ADA, "episode_id": "e1", "model": "m", "command_id": "c9"},
    "extraction": {**ADA, "extraction_id": "x1"},
    "summaries": {**ADA, "offset": 20},
    "profile": {**ADA, "version": 2, "known_at": T},
    "profile_history": {**ADA, "offset": 50},
    "search": {**ADA, "query": "tea", "valid_at": T, "known_at": T, "kinds": ["fact"],
               "include_history": True, "include_messages": True, "types": ["memory"],
               "context_rules": True, "min_relevance": 0.8, "synthesize_questions": False,
               "recent_messages": ["hi"], "mmr_lambda": 0.5},
    "context": {**ADA, "message": "hi", "recent_messages": [{"role": "user", "content": "x"}],
                "min_relevance": 0.8, "relevant_limit": 5, "format": "json", "synthesize_questions": False},
    "add_todo": {**ADA, "content": "call Bo", "due_at": T, "remind_at": T, "importance": 0.7,
                 "command_id": "c10"},
    "todos": {**ADA, "state": "overdue", "offset": 100},
    "complete_todo": {**ADA, "todo_id": "t1", "completed_at": T, "command_id": "c11"},
    "reopen_todo": {**ADA, "todo_id": "t1"},
    "settings": ADA,
    "configure": {**ADA, "memory": True, "extraction": False, "citations": True, "temporary": False,
                  "episode_retention_days": 30, "pinned_kinds": ["preference"], "command_id": "c12"},
    "import_markdown": {**ADA, "text": "# Ada\n", "dry_run": False, "command_id": "c13"},
    "page_link": {**ADA, "ttl_s": 600, "scope": "read"},
    "erase": {**ADA, "command_id": "c14"},
    "maintenance_runs": {"offset": 20},
    "run_maintenance": {"as_of": T, "user_id": "ada", "dry_run": True, "run_id": "r1"},
    "maintenance_run": {"run_id": "r1"},
    "person_run": {**ADA, "run_id": "erase-1"},
    "whoami": {},
    "health": {},
}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return create_app().openapi()


def test_every_call_of_the_client_has_a_sample() -> None:
    assert sorted(CALLS) == sorted(SAMPLES)


def test_no_operation_of_v1_is_left_without_a_call(openapi: dict[str, Any]) -> None:
    operations = {(method.upper(), path) for path, item in openapi["paths"].items() if path.startswith("/v1")
                  for method in item}
    called = {(c.method, c.path) for c in (getattr(Calls, n)(**SAMPLES[n]) for n in CALLS)}
    assert operations - called - set(STREAMS) == set()
    assert called - operations == set()


def test_both_clients_have_every_call_with_the_same_parameters() -> None:
    for name in [*CALLS, *(n for names in STREAMS.values() for n in names)]:
        for client in (LoreClient, AsyncLoreClient):
            assert hasattr(client, name), (client.__name__, name)
    for name in CALLS:
        described = list(inspect.signature(getattr(Calls, name)).parameters)
        for client in (LoreClient, AsyncLoreClient):
            assert list(inspect.signature(getattr(client, name)).parameters)[1:] == described, name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_call_is_an_operation_of_the_openapi_document(name: str, openapi: dict[str, Any]) -> None:
    call: Call[Any] = getattr(Calls, name)(**SAMPLES[name])
    operation = openapi["paths"][call.path][call.method.lower()]
    declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
    assert set(call.query()) <= declared, set(call.query()) - declared
    path_params = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
    assert set(call.path_params) == path_params
    if call.text is not None:
        assert call.media_type.split(";")[0] in operation["requestBody"]["content"]
    elif call.body is not None:
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        (ref,) = [s["$ref"].rsplit("/", 1)[1] for s in schema.get("anyOf", [schema]) if "$ref" in s]
        fields = set(openapi["components"]["schemas"][ref]["properties"])
        sent = set(call.json() or {})
        assert sent and sent <= fields, sent - fields
    else:
        assert "requestBody" not in operation
    answers = {code: r for code, r in operation["responses"].items() if code.startswith("2")}
    models = {a["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1] for a in answers.values()
              if "application/json" in a.get("content", {})}
    if not models:  # an answer declared by its response_model only
        (answer,) = answers.values()
        models = {answer["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]}
    assert call.answer.__name__ in models
