"""The v1 HTTP API in embedded mode (SQLite log), over the real Neo4j."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.servers import ServerEndpoints


@pytest.fixture()
def client(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none")
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


def colour(client: TestClient, value: str, month: int, **extra: object):
    return client.post("/v1/users/ada/memories", params={"wait": "true"}, json={
        "content": f"favourite colour is {value}", "kind": "preference", "attribute": "favorite_color",
        "value": value, "valid_from": f"2026-{month:02d}-01T00:00:00Z", **extra})


def test_a_slot_changes_and_every_read_sees_its_history(client: TestClient) -> None:
    blue = colour(client, "blue", 1, command_id="c-blue")
    assert blue.status_code == 202 and blue.json()["status"] == "applied"
    assert blue.json()["command_id"] == "c-blue"
    green = colour(client, "green", 3).json()
    red = colour(client, "red", 2).json()  # late: slotted into February

    now = client.get("/v1/users/ada/memories").json()
    assert [m["value"] for m in now["items"]] == ["green"]
    february = client.get("/v1/users/ada/memories", params={"valid_at": "2026-02-15T00:00:00Z"}).json()
    assert [m["value"] for m in february["items"]] == ["red"]
    superseded = client.get("/v1/users/ada/memories", params={"status": "superseded"}).json()
    assert sorted(m["value"] for m in superseded["items"]) == ["blue", "red"]

    timeline = client.get("/v1/users/ada/timeline", params={"attribute": "favorite_color"}).json()["items"]
    assert [(m["value"], m["valid_until"]) for m in timeline] == [
        ("blue", "2026-02-01T00:00:00Z"), ("red", "2026-03-01T00:00:00Z"), ("green", None)]
    history = client.get(f"/v1/users/ada/memories/{green['memory_id']}/history").json()["items"]
    assert [m["value"] for m in history] == ["blue", "red", "green"]
    one = client.get(f"/v1/users/ada/memories/{red['memory_id']}").json()
    assert one["superseded_by"] == green["memory_id"] and one["status"] == "superseded"


def test_the_same_command_id_takes_effect_once(client: TestClient) -> None:
    first = colour(client, "blue", 1, command_id="same")
    again = colour(client, "blue", 1, command_id="same")
    assert first.json()["status"] == "applied" and again.status_code == 202
    assert again.json()["status"] == "duplicate"
    assert client.get("/v1/users/ada/stats").json()["total"] == 1


def test_forget_and_restore_with_refusals_as_404_and_409(client: TestClient) -> None:
    memory_id = colour(client, "blue", 1).json()["memory_id"]
    path = f"/v1/users/ada/memories/{memory_id}"
    refused = client.post(f"{path}/restore")
    assert refused.status_code == 409 and refused.json()["code"] == "memory_not_forgotten"

    assert client.delete(path, params={"reason": "asked to"}).status_code == 202
    assert client.get("/v1/users/ada/memories").json()["items"] == []
    assert client.get(path).json()["status"] == "forgotten"
    again = client.delete(path)
    assert again.status_code == 409 and "already forgotten" in again.json()["detail"]

    assert client.post(f"{path}/restore").status_code == 202
    assert [m["memory_id"] for m in client.get("/v1/users/ada/memories").json()["items"]] == [memory_id]
    missing = client.delete("/v1/users/ada/memories/no-such-memory")
    assert missing.status_code == 404 and "no-such-memory" in missing.json()["detail"]
    assert client.get("/v1/users/ada/memories/no-such-memory").status_code == 404


@pytest.mark.parametrize(("body", "field"), [
    ({"content": ""}, "content"),
    ({"content": "x", "importance": 2}, "importance"),
    ({"content": "x", "kind": "opinion"}, "kind"),
    ({"content": "x", "valid_from": "last tuesday"}, "valid_from"),
    ({"content": "x", "colour": "blue"}, "colour"),
])
def test_invalid_input_is_422_naming_the_field(client: TestClient, body: dict, field: str) -> None:
    response = client.post("/v1/users/ada/memories", json=body)
    assert response.status_code == 422
    assert field in str(response.json()["detail"])
    assert client.get("/v1/users/ada/stats").json()["total"] == 0


def test_a_validity_window_that_ends_before_it_starts_is_422(client: TestClient) -> None:
    response = client.post("/v1/users/ada/memories", json={
        "content": "x", "valid_from": "2026-03-01T00:00:00Z", "valid_until": "2026-01-01T00:00:00Z"})
    assert response.status_code == 422 and response.json()["code"] == "invalid_validity_window"


def test_a_bad_user_id_in_the_path_is_422(client: TestClient) -> None:
    response = client.post("/v1/users/not%20valid/memories", json={"content": "x"})
    assert response.status_code == 422 and "user_id" in str(response.json()["detail"])


def test_paging_episodes_stats_and_erasure(client: TestClient) -> None:
    for n in range(7):
        client.post("/v1/users/bo/memories", json={"content": f"fact {n}", "kind": "fact",
                                                   "valid_from": f"2026-01-{n + 1:02d}T00:00:00Z"})
    client.post("/v1/users/bo/memories", json={"content": "wants to learn Rust", "kind": "goal"})
    episode = client.post("/v1/users/bo/episodes", json={"session_id": "s-1", "messages": [
        {"role": "user", "content": "hello", "timestamp": "2026-02-01T10:00:00Z"},
        {"role": "assistant", "content": "hi!"}]})
    assert episode.status_code == 202 and episode.json()["status"] == "applied"

    pages, offset = [], 0
    while offset is not None:
        params = {"kind": "fact", "limit": 3, "offset": offset}
        page = client.get("/v1/users/bo/memories", params=params).json()
        pages.append([m["content"] for m in page["items"]])
        offset = page["next_offset"]
    assert [len(p) for p in pages] == [3, 3, 1]
    assert sorted(sum(pages, [])) == [f"fact {n}" for n in range(7)]

    stats = client.get("/v1/users/bo/stats").json()
    assert stats["total"] == 8 and stats["by_kind"] == {"fact": 7, "goal": 1}
    assert stats["by_status"] == {"active": 8}

    assert client.delete("/v1/users/bo", params={"wait": "true"}).status_code == 202
    assert client.get("/v1/users/bo/stats").json()["total"] == 0
    assert client.get("/v1/users/bo/memories").json()["items"] == []


def test_openapi_documents_every_route_with_examples(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path, method in [
        ("/v1/users/{user_id}/memories", "post"), ("/v1/users/{user_id}/episodes", "post"),
        ("/v1/users/{user_id}/memories", "get"), ("/v1/users/{user_id}/memories/{memory_id}", "get"),
        ("/v1/users/{user_id}/memories/{memory_id}/history", "get"), ("/v1/users/{user_id}/timeline", "get"),
        ("/v1/users/{user_id}/memories/{memory_id}", "delete"),
        ("/v1/users/{user_id}/memories/{memory_id}/restore", "post"), ("/v1/users/{user_id}", "delete"),
        ("/v1/users/{user_id}/stats", "get"), ("/v1/health", "get"),
    ]:
        assert method in paths[path], (method, path)
    assert spec["components"]["schemas"]["MemoryCreate"]["examples"]


def test_an_event_that_recurs_is_two_memories_and_a_restated_preference_is_one(client: TestClient) -> None:
    for month in (1, 6):
        response = client.post("/v1/users/ada/memories", params={"wait": "true"}, json={
            "content": "had a migraine", "kind": "event", "valid_from": f"2026-{month:02d}-10T08:00:00Z"})
        assert response.json()["status"] == "applied"
    for month in (1, 6):
        client.post("/v1/users/ada/memories", params={"wait": "true"}, json={
            "content": "prefers window seats", "kind": "preference",
            "valid_from": f"2026-{month:02d}-10T00:00:00Z"})
    stats = client.get("/v1/users/ada/stats").json()
    assert stats["by_kind"] == {"event": 2, "preference": 1}
    events = client.get("/v1/users/ada/memories",
                        params={"kind": "event", "status": "active"}).json()["items"]
    assert sorted(m["valid_from"][:7] for m in events) == ["2026-01", "2026-06"]


@pytest.mark.parametrize(("path", "body", "field"), [
    ("memories", {"content": "x", "entities": ["e"] * 51}, "entities"),
    ("memories", {"content": "x", "entities": ["x" * 201]}, "entities"),
    ("memories", {"content": "x", "episode_id": "not an id"}, "episode_id"),
    ("memories", {"content": "x" * 10_001}, "content"),
    ("episodes", {"session_id": "s", "messages": [{"role": "user", "content": "y" * 50_000}] * 21},
     "messages"),
    ("episodes", {"session_id": "s", "messages": [{"role": "user", "content": "y"}] * 1_001}, "messages"),
])
def test_every_input_over_its_bound_is_422_naming_it(client: TestClient, path: str, body: dict,
                                                    field: str) -> None:
    response = client.post(f"/v1/users/ada/{path}", json=body)
    assert response.status_code == 422 and field in str(response.json()["detail"]), response.text
    assert client.get("/v1/users/ada/stats").json()["total"] == 0


def test_a_command_larger_than_a_command_may_be_is_422(neo4j: Driver, servers: ServerEndpoints,
                                                       tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", max_command_bytes=4096)
    with TestClient(create_app(lambda: bootstrap(settings))) as small:
        response = small.post("/v1/users/ada/memories", json={"content": "z" * 5000})
        assert response.status_code == 422 and "LORE_MAX_COMMAND_BYTES" in response.text
        assert small.post("/v1/users/ada/memories", json={"content": "z" * 3000}).status_code == 202


def test_timeline_and_history_come_in_pages(client: TestClient) -> None:
    for month in range(1, 8):
        colour(client, f"c{month}", month)
    seen, offset = [], 0
    while offset is not None:
        page = client.get("/v1/users/ada/timeline",
                          params={"attribute": "favorite_color", "limit": 3, "offset": offset}).json()
        seen += [m["value"] for m in page["items"]]
        offset = page["next_offset"]
    assert seen == [f"c{m}" for m in range(1, 8)]
    latest = client.get("/v1/users/ada/memories").json()["items"][0]["memory_id"]
    page = client.get(f"/v1/users/ada/memories/{latest}/history", params={"limit": 2, "offset": 4}).json()
    assert [m["value"] for m in page["items"]] == ["c5", "c6"] and page["next_offset"] == 6
    assert client.get("/v1/users/ada/memories/nothing/history").status_code == 404


def test_commands_that_change_nothing_leave_no_gap_for_the_next_write(client: TestClient) -> None:
    """An episode sent again under a new command id, a session ended twice: nothing to record, and
    the writes after them apply (the log keeps no entry without events, which the graph could
    not follow)."""
    turns = [{"role": "user", "content": "I moved to Lisbon last week."},
             {"role": "assistant", "content": "Welcome to Lisbon!"}]
    for command_id in ("first", "again"):
        sent = client.post("/v1/users/ada/episodes", params={"wait": "true"},
                           json={"session_id": "s1", "episode_id": "e1", "messages": turns,
                                 "command_id": command_id})
        assert sent.status_code == 202 and sent.json()["status"] == "applied"
    for _ in range(2):
        assert client.post("/v1/users/ada/sessions/s1/end", params={"wait": "true"}).status_code == 202
    after = client.post("/v1/users/ada/memories", params={"wait": "true"}, json={"content": "likes tea"})
    assert after.status_code == 202 and after.json()["status"] == "applied"
    assert [m["content"] for m in client.get("/v1/users/ada/memories").json()["items"]] == ["likes tea"]
