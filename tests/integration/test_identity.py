"""Ids that clients choose belong to their person: two people using the same command id and
episode id are both stored, neither touches the other, and erasing one leaves the other's graph
exactly as it was — through HTTP (embedded log) and through Kafka."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from domain.commands import EraseUser, Message, RecordEpisode, RecordMemory
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.kafka_flow import T0 as T
from tests.support.kafka_flow import applied, as_messages, kafka_settings, produce, wait_until
from tests.support.servers import ServerEndpoints

PEOPLE = {"ada": "Ada takes her coffee black", "bob": "Bob takes his tea with milk"}


@pytest.fixture(params=["sqlite", "kafka"])
def client(request: pytest.FixtureRequest, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path,
           kafka_topic: Callable[..., str]) -> Iterator[TestClient]:
    if request.param == "sqlite":
        settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none")
    else:
        settings = kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic)
    with TestClient(create_app(lambda: bootstrap(settings))) as test_client:
        yield test_client


def write(client: TestClient, user: str) -> dict:
    memory = client.post(f"/v1/users/{user}/memories", params={"wait": "true"},
                         json={"content": PEOPLE[user], "command_id": "chat-1", "episode_id": "conv-1"})
    episode = client.post(f"/v1/users/{user}/episodes", params={"wait": "true"}, json={
        "command_id": "chat-2", "episode_id": "conv-1", "session_id": "morning",
        "messages": [{"role": "user", "content": f"{user} says: {PEOPLE[user]}"},
                     {"role": "assistant", "content": f"Noted, {user}."}]})
    assert memory.status_code == episode.status_code == 202, (memory.text, episode.text)
    return {"memory": memory.json(), "episode": episode.json()}


def turns(neo4j: Driver, user: str) -> list[str]:
    records, _, _ = neo4j.execute_query(
        "MATCH (:User {user_id: $u})-[:HAD]->(ep:Episode)-[:HAS_MESSAGE]->(x:Message) "
        "RETURN ep.episode_id AS episode, x.content AS content ORDER BY x.position", u=user)
    assert {r["episode"] for r in records} <= {"conv-1"}
    return [r["content"] for r in records]


def test_two_people_with_the_same_command_and_episode_ids_are_both_kept_apart(
    client: TestClient, neo4j: Driver
) -> None:
    ada, bob = write(client, "ada"), write(client, "bob")
    for answer in (ada, bob):
        assert answer["memory"]["status"] == answer["episode"]["status"] == "applied"
    assert ada["memory"]["memory_id"] != bob["memory"]["memory_id"]

    for user, text in PEOPLE.items():
        listed = client.get(f"/v1/users/{user}/memories").json()["items"]
        assert [m["content"] for m in listed] == [text]
        assert turns(neo4j, user) == [f"{user} says: {text}", f"Noted, {user}."]
        # Each person's memory is linked to their own conversation only.
        records, _, _ = neo4j.execute_query(
            "MATCH (m:Memory {user_id: $u})-[:EXTRACTED_FROM]->(ep:Episode) RETURN ep.user_id AS owner",
            u=user)
        assert [r["owner"] for r in records] == [user]

    # The same id again is the same command for the same person only.
    again = client.post("/v1/users/ada/memories", params={"wait": "true"},
                        json={"content": "something else", "command_id": "chat-1"})
    assert again.json()["status"] == "duplicate" and again.json()["memory_id"] == ada["memory"]["memory_id"]

    before = fingerprint(neo4j, "ada")
    erased = client.delete("/v1/users/bob", params={"wait": "true"})
    assert erased.status_code == 202 and erased.json()["status"] == "applied"
    assert client.get("/v1/users/bob/memories").json()["items"] == [] and turns(neo4j, "bob") == []
    assert fingerprint(neo4j, "ada") == before, "erasing Bob touched Ada's graph"
    assert turns(neo4j, "ada") == [f"ada says: {PEOPLE['ada']}", "Noted, ada."]


def test_one_person_cannot_forget_or_restore_anothers_memory(client: TestClient, neo4j: Driver) -> None:
    bobs = write(client, "bob")["memory"]["memory_id"]
    before = fingerprint(neo4j, "bob")
    refused = client.delete(f"/v1/users/ada/memories/{bobs}", params={"wait": "true"})
    assert refused.status_code == 404 and refused.json()["code"] == "memory_not_found"
    assert client.get(f"/v1/users/ada/memories/{bobs}").status_code == 404
    assert fingerprint(neo4j, "bob") == before


def erasure_applied(neo4j: Driver, user: str, command_id: str) -> bool:
    records, _, _ = neo4j.execute_query("MATCH (a:AppliedCommand {user_id: $user, command_id: $command}) "
                                        "RETURN count(a) AS n", user=user, command=command_id)
    return bool(records[0]["n"])


def test_the_same_ids_sent_by_two_producers_on_kafka_are_two_peoples(
    neo4j: Driver, servers: ServerEndpoints, tmp_path: Path, kafka_topic: Callable[..., str]
) -> None:
    settings = kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic)
    sent = [command for user, text in PEOPLE.items() for command in (
        RecordMemory(command_id="crm-1", user_id=user, occurred_at=T, content=text, episode_id="conv-1"),
        RecordEpisode(command_id="crm-2", user_id=user, occurred_at=T, session_id="s", episode_id="conv-1",
                      messages=(Message(role="user", content=f"{user} says: {text}"),)),
    )]
    with TestClient(create_app(lambda: bootstrap(settings))) as client:  # its worker consumes
        produce(settings.kafka_bootstrap, settings.commands_topic, as_messages(sent))
        wait_until(lambda: applied(neo4j) >= len(sent), "both people's commands",
                   progress=lambda: applied(neo4j))
        for user, text in PEOPLE.items():
            assert [m["content"] for m in client.get(f"/v1/users/{user}/memories").json()["items"]] == [text]
            assert turns(neo4j, user) == [f"{user} says: {text}"]
        before = fingerprint(neo4j, "ada")
        produce(settings.kafka_bootstrap, settings.commands_topic,
                as_messages([EraseUser(command_id="crm-3", user_id="bob", occurred_at=T)]))
        # The erasure keeps bob's commands answering, without their ids, and records its own.
        wait_until(lambda: erasure_applied(neo4j, "bob", "crm-3"), "the erasure",
                   progress=lambda: applied(neo4j))
    assert turns(neo4j, "bob") == [] and fingerprint(neo4j, "ada") == before
