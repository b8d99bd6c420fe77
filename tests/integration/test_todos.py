"""To-dos: added, listed open / overdue / done by due time, completed and reopened; a done one
leaves the context block; what is not a to-do cannot be completed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from tests.integration.test_search import remember
from tests.support.servers import ServerEndpoints


@pytest.fixture()
def client(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="sqlite")
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


def add(client: TestClient, content: str, **fields: Any) -> str:
    response = client.post(
        "/v1/users/ada/todos", params={"wait": "true"}, json={"content": content, **fields}
    )
    assert response.status_code == 202, response.text
    return str(response.json()["memory_id"])


def listed(client: TestClient, state: str) -> list[str]:
    return [t["content"] for t in client.get("/v1/users/ada/todos", params={"state": state}).json()["items"]]


def test_todos_are_listed_by_due_time_completed_and_reopened(client: TestClient) -> None:
    now = datetime.now(UTC)
    passport = add(client, "Renew the passport", due_at=(now + timedelta(days=2)).isoformat())
    add(client, "Call the plumber", due_at=(now - timedelta(days=1)).isoformat())
    add(client, "Read the Kafka book")
    assert listed(client, "open") == ["Call the plumber", "Renew the passport", "Read the Kafka book"]
    assert listed(client, "overdue") == ["Call the plumber"]
    (item,) = [t for t in client.get("/v1/users/ada/todos").json()["items"] if t["memory_id"] == passport]
    due = datetime.fromisoformat(item["due_at"])
    assert datetime.fromisoformat(item["remind_at"]) == due - timedelta(
        hours=1
    )  # an hour before, unless said

    done = client.post(f"/v1/users/ada/todos/{passport}/complete", params={"wait": "true"})
    assert done.status_code == 202, done.text
    assert listed(client, "done") == ["Renew the passport"] and "Renew the passport" not in listed(
        client, "open"
    )
    again = client.post(f"/v1/users/ada/todos/{passport}/complete", params={"wait": "true"})
    assert again.status_code == 409 and again.json()["code"] == "todo_already_completed"
    block = client.post("/v1/users/ada/context", json={"message": "what should I do today?"}).json()
    todo_lines = [i["text"] for s in block["sections"] if s["name"] == "todos" for i in s["items"]]
    assert todo_lines and not any("passport" in line for line in todo_lines)  # done: out of the block

    assert client.post(f"/v1/users/ada/todos/{passport}/reopen", params={"wait": "true"}).status_code == 202
    assert "Renew the passport" in listed(client, "open") and listed(client, "done") == []
    undone = client.post(f"/v1/users/ada/todos/{passport}/reopen", params={"wait": "true"})
    assert undone.status_code == 409 and undone.json()["code"] == "todo_not_completed"

    fact = remember(client, "ada", "Lives in Lisbon", kind="fact")
    refused = client.post(f"/v1/users/ada/todos/{fact}/complete", params={"wait": "true"})
    assert refused.status_code == 409 and refused.json()["code"] == "not_a_todo"
    assert client.post("/v1/users/ada/todos/nope/complete", params={"wait": "true"}).status_code == 404
    assert client.post(f"/v1/users/bob/todos/{passport}/complete", params={"wait": "true"}).status_code == 404
    wrong = client.post(
        "/v1/users/ada/memories", json={"content": "x", "kind": "fact", "due_at": now.isoformat()}
    )
    assert wrong.status_code == 422 and "due_at is for to-dos" in wrong.text
