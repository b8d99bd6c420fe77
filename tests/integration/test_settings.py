"""A person's settings over the real Neo4j: memory off and a temporary session refuse what would
remember something (409 memory_paused) and recall nothing, citations off hides what a context
block used, extraction off keeps conversations without extracting them; all of it as events, so
a rebuild gives the same graph."""

from __future__ import annotations

from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from tests.support.rebuild import rebuilt_fingerprint


def configure(client: TestClient, **switches: bool) -> None:
    answer = client.put("/v1/users/ada/settings", params={"wait": "true"}, json=switches)
    assert answer.status_code == 202, answer.text


def remember(client: TestClient, content: str) -> int:
    answer = client.post("/v1/users/ada/memories", params={"wait": "true"}, json={"content": content})
    return answer.status_code


def test_switches_pause_memory_hide_citations_and_stop_extraction(
    client: TestClient, settings: Settings, neo4j: Driver
) -> None:
    assert remember(client, "Ada grows tomatoes on the balcony") == 202
    assert client.get("/v1/users/ada/settings").json() == {
        "episode_retention_days": None, "pinned_kinds": [], "memory": True, "extraction": True,
        "citations": True, "temporary": False}

    for switch in ({"temporary": True}, {"memory": False}):
        configure(client, **switch)
        refused = client.post("/v1/users/ada/memories", params={"wait": "true"}, json={"content": "secret"})
        assert refused.status_code == 409 and refused.json()["code"] == "memory_paused"
        found = client.post("/v1/users/ada/search", json={"query": "tomatoes"}).json()
        assert found["hits"] == [] and found["note"]
        block = client.post("/v1/users/ada/context", json={"message": "tomatoes?"}).json()
        assert block["text"] == "" and block["note"] and block["cited"]["memories"] == []
        configure(client, temporary=False, memory=True)
    assert client.post("/v1/users/ada/search", json={"query": "tomatoes"}).json()["hits"]

    configure(client, citations=False)
    asked = {"message": "what grows on the balcony? tomatoes"}
    block = client.post("/v1/users/ada/context", json=asked).json()
    assert "tomatoes" in block["text"] and block["cited"]["memories"] == []

    configure(client, extraction=False)
    turns = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"I really love my dog Rex, part {i}"}
             for i in range(30)]
    kept = client.post("/v1/users/ada/episodes", params={"wait": "true"},
                       json={"session_id": "chat-1", "messages": turns})
    assert kept.status_code == 202
    records, _, _ = neo4j.execute_query("MATCH (x:Extraction {user_id: 'ada'}) RETURN count(x) AS n")
    assert records[0]["n"] == 0
    assert client.get("/v1/users/ada/settings").json()["extraction"] is False

    client.app.state.lore.use.flush()  # the use its context blocks noted goes to the log before comparing
    live = fingerprint(neo4j)
    assert rebuilt_fingerprint(settings, neo4j) == live


def test_a_memory_links_to_the_conversation_it_came_from_on_the_page(client: TestClient) -> None:
    turns = [{"role": "user", "content": "We finally adopted a greyhound called Pixel"},
             {"role": "assistant", "content": "Congratulations on Pixel!"}]
    sent = client.post("/v1/users/ada/episodes", params={"wait": "true"},
                       json={"session_id": "chat-7", "episode_id": "ep-7", "messages": turns})
    assert sent.status_code == 202
    made = client.post("/v1/users/ada/memories", params={"wait": "true"},
                       json={"content": "Ada has a greyhound called Pixel", "episode_id": "ep-7"}).json()
    assert client.get(f"/v1/users/ada/memories/{made['memory_id']}").json()["episode_id"] == "ep-7"
    page = client.get("/ui/users/ada")
    assert 'href="/ui/users/ada/episodes/ep-7"' in page.text
    conversation = client.get("/ui/users/ada/episodes/ep-7")
    assert conversation.status_code == 200
    assert "We finally adopted a greyhound called Pixel" in conversation.text
    assert "Congratulations on Pixel!" in conversation.text
    assert client.get("/ui/users/ada/episodes/nothing").status_code == 404
