"""Neo4j Browser, guided: the guide Lore serves is Browser's slide format, every ready query in
it runs on the real Neo4j and answers what its slide says, and memories carry their kind and
status as labels (what the style colours), kept in step by every change and by a rebuild."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from tests.support.rebuild import rebuilt_fingerprint


def remember(client: TestClient, **body: object) -> str:
    answer = client.post("/v1/users/ada/memories", params={"wait": "true"}, json=body)
    assert answer.status_code == 202, answer.text
    return str(answer.json()["memory_id"])


def labels(neo4j: Driver, memory_id: str) -> set[str]:
    records, _, _ = neo4j.execute_query("MATCH (m:Memory {memory_id: $id}) RETURN labels(m) AS l",
                                        id=memory_id)
    return set(records[0]["l"])


def test_memories_carry_kind_and_status_labels_in_step_with_their_status(
    client: TestClient, settings: Settings, neo4j: Driver
) -> None:
    dark = remember(client, content="prefers the dark theme", kind="preference", attribute="editor_theme",
                    value="dark", valid_from="2026-01-01T00:00:00Z")
    assert labels(neo4j, dark) == {"Memory", "Preference", "Active"}
    light = remember(client, content="prefers the light theme", kind="preference", attribute="editor_theme",
                     value="light", valid_from="2026-04-01T00:00:00Z")
    assert labels(neo4j, dark) == {"Memory", "Preference", "Superseded"}
    client.delete(f"/v1/users/ada/memories/{light}", params={"wait": "true"})
    assert labels(neo4j, light) == {"Memory", "Preference", "Forgotten"}
    client.post(f"/v1/users/ada/memories/{light}/restore", params={"wait": "true"})
    assert labels(neo4j, light) == {"Memory", "Preference", "Active"}
    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live
    assert labels(neo4j, dark) == {"Memory", "Preference", "Superseded"}


def runnable(guide: str) -> list[str]:
    return [html.unescape(block).strip() for block in
            re.findall(r'<pre class="pre-scrollable code runnable">(.*?)</pre>', guide, re.S)]


def test_every_query_of_the_guide_runs_and_answers_its_slide(client: TestClient, neo4j: Driver) -> None:
    remember(client, content="prefers the dark theme", kind="preference", attribute="editor_theme",
             value="dark", valid_from="2026-01-01T00:00:00Z")
    remember(client, content="prefers the light theme", kind="preference", attribute="editor_theme",
             value="light", valid_from="2026-04-01T00:00:00Z")
    remember(client, content="lives in Lisbon", kind="fact", entities=["Lisbon"],
             valid_from="2025-09-01T00:00:00Z")

    served = client.get("/browser-guide")
    assert served.status_code == 200 and served.headers["access-control-allow-origin"] == "*"
    assert '<carousel class="deck container">' in served.text and served.text.count("<slide") >= 6
    style = client.get("/browser-style.grass")
    assert "node.Preference" in style.text and "node.Forgotten" in style.text
    assert ":style http://testserver/browser-style.grass" in served.text

    params: dict[str, str] = {}
    answers: list[list[dict]] = []
    for block in runnable(served.text):
        if block.startswith(":param"):
            name, value = re.fullmatch(r":param (\w+) => '(.*)'", block).groups()  # type: ignore[union-attr]
            params[name] = value
        elif not block.startswith(":"):
            records, _, _ = neo4j.execute_query(block, params)
            answers.append([r.data() for r in records])
    preferences, timeline, chains, around, on_date = answers
    assert [(p["slot"], p["value"]) for p in preferences] == [("editor_theme", "light")]
    assert [(t["value"], t["status"]) for t in timeline] == [("dark", "superseded"), ("light", "active")]
    assert len(chains) == 1  # dark <- light, as one path
    assert around and all(a["around"] for a in around)
    assert sorted(d["value"] or d["memory"] for d in on_date) == ["dark", "lives in Lisbon"]
