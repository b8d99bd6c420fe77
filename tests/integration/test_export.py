"""A person's export: everything Lore holds about them, as JSON Lines, page by page, over HTTP and
from the CLI; nothing of anyone else's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from typer.testing import CliRunner

from infra.settings import Settings
from services.api import create_app
from services.bootstrap import bootstrap
from services.cli import app
from tests.integration.test_memory_formation import end, talk, turns
from tests.integration.test_search import remember
from tests.support.kafka_flow import env_for, wait_until
from tests.support.servers import ServerEndpoints


def exported(client: TestClient, user: str) -> list[dict[str, Any]]:
    response = client.get(f"/v1/users/{user}/export")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def test_an_export_holds_a_persons_memories_with_their_history_and_conversations_and_no_one_elses(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="sqlite", extraction_poll_s=0.1
    )
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        berlin = remember(
            client,
            "ada",
            "Lives in Berlin",
            kind="fact",
            attribute="home_city",
            value="Berlin",
            valid_from="2026-01-10T00:00:00Z",
        )
        remember(
            client,
            "ada",
            "Lives in Lisbon",
            kind="fact",
            attribute="home_city",
            value="Lisbon",
            valid_from="2026-02-01T00:00:00Z",
        )
        tea = remember(client, "ada", "Likes green tea", kind="preference")
        assert client.delete(f"/v1/users/ada/memories/{tea}", params={"wait": "true"}).status_code == 202
        for n in range(5):
            remember(client, "ada", f"Read chapter {n} of the sourdough book", kind="event")
        talk(
            client,
            "chat",
            turns(
                "2026-03-01T10:00:00Z",
                ("user", "I'm planning a trip to Japan in April."),
                ("assistant", "Lovely."),
                ("user", "We still need to book the ryokan."),
                ("assistant", "Noted."),
            ),
        )
        end(client, "chat")
        lore = client.app.state.lore  # type: ignore[attr-defined]
        wait_until(lambda: bool(lore.layer_queries.profiles("ada")), "the session's summary and a profile")
        remember(client, "bob", "Bob's secret: plays the theremin", kind="fact")
        lore.exports.page = 2  # many pages, even here

        lines = exported(client, "ada")
        header, items = lines[0], lines[1:]
        assert header["type"] == "export" and header["user_id"] == "ada"
        kinds = [item["type"] for item in items]
        assert kinds == sorted(kinds, key=["memory", "episode", "summary", "profile"].index)
        memories = {m["memory_id"]: m for m in items if m["type"] == "memory"}
        sent = [m for m in memories.values() if not m.get("decided_by")]
        assert len(memories) == kinds.count("memory")  # each once, across pages
        assert sorted(m["content"] for m in sent) == sorted(
            [
                "Lives in Berlin",
                "Lives in Lisbon",
                "Likes green tea",
                *(f"Read chapter {n} of the sourdough book" for n in range(5)),
            ]
        )
        assert all(m["decided_by"] == "rules/23" for m in memories.values() if m not in sent)  # extracted
        assert memories[berlin]["valid_until"].startswith("2026-02-01") and memories[berlin]["superseded_by"]
        assert memories[tea]["status"] == "forgotten" and memories[tea]["forgotten_at"]
        (episode,) = [i for i in items if i["type"] == "episode"]
        assert [m["content"] for m in episode["messages"]][0] == "I'm planning a trip to Japan in April."
        (summary,) = [i for i in items if i["type"] == "summary"]
        assert "Japan" in summary["summary"] and summary["session_id"] == "chat"
        assert [i["version"] for i in items if i["type"] == "profile"] == [1]
        assert "theremin" not in json.dumps(lines)
        assert exported(client, "nobody")[1:] == []

    for key, value in env_for(settings).items():
        monkeypatch.setenv(key, value)
    out = tmp_path / "ada.jsonl"
    result = CliRunner().invoke(app, ["export", "ada", "--out", str(out)])
    assert result.exit_code == 0, result.output
    from_cli = [json.loads(line) for line in out.read_text().splitlines()]
    assert [i["type"] for i in from_cli] == kinds
