"""Erasure reaches every byte Lore keeps: a person's words are sealed in the log from the start, and
after DELETE (EraseUser) and `lore compact` no file of Lore's, Neo4j's included, holds them.

These tests run their own Neo4j and Kafka (local processes in a temporary folder): they read the
servers' files, and `compact` restarts Neo4j on a new store, which the session's servers are not for.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from domain.commands import EndSession, EraseUser, Message, PurgeMemory, RecordEpisode, RecordMemory
from infra.keys.kafka import KafkaKeyStore
from infra.local import LocalStack
from infra.settings import Settings
from services.bootstrap import Lore, bootstrap
from services.compact import compact
from tests.support.kafka_flow import wait_until
from tests.support.servers import private_stack
from tests.support.settled import nothing_due

AT = datetime(2026, 2, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    home = tmp_path_factory.mktemp("erasure-servers")
    local = private_stack(home, neo4j_heap="512m", pagecache="128m", kafka_heap="512m", start_timeout_s=240)
    try:
        local.up()
        yield local
    finally:
        local.down()


def files_holding(marker: bytes, *folders: Path) -> list[Path]:
    """Every file under the folders whose bytes contain the marker (binary-safe, like grep -r)."""
    return [path for folder in folders for path in folder.rglob("*")
            if path.is_file() and marker in path.read_bytes()]


def say(lore: Lore, user: str, marker: str) -> None:
    outcomes = lore.commands.handle([
        RecordMemory(command_id=f"{user}-m1", user_id=user, occurred_at=AT,
                     content=f"My favourite word is {marker}"),
        RecordMemory(command_id=f"{user}-m2", user_id=user, occurred_at=AT, kind="preference",
                     content=f"I prefer {marker} tea", attribute="tea", value=marker),
        RecordEpisode(command_id=f"{user}-e1", user_id=user, occurred_at=AT, session_id="s1",
                      messages=(Message(role="user", content=f"Tell me about {marker} please"),
                                Message(role="assistant", content=f"{marker} is a fine word"))),
    ])
    assert [o.status for o in outcomes] == ["applied"] * 3


def nodes_of(lore: Lore, user: str) -> list[str]:
    records, _, _ = lore.driver.execute_query(
        "MATCH (n {user_id: $user}) WHERE NOT n:AppliedCommand OR n.command_id <> $erasure "
        "RETURN labels(n)[0] AS label", user=user, erasure=f"{user}-erase")
    return [r["label"] for r in records]


@pytest.mark.parametrize("mode", ["sqlite", "kafka"])
def test_an_erased_persons_words_are_in_no_file_after_compact(stack: LocalStack, tmp_path: Path,
                                                              mode: str) -> None:
    tag = uuid.uuid4().hex[:8]
    ada, bob = f"marker{tag}ada", f"marker{tag}bob"
    settings = Settings(neo4j_uri=stack.neo4j.bolt_uri, home=tmp_path / "lore", embedder="none",
                        extractor="off", layers="off", event_log=mode,
                        kafka_bootstrap=stack.kafka.bootstrap, events_topic=f"lore.events.{tag}",
                        keys_topic=f"lore.keys.{tag}")
    kafka_data, neo4j_home = stack.kafka.home / "data", stack.neo4j.home
    lore = bootstrap(settings)
    try:
        say(lore, "ada", ada)
        say(lore, "bob", bob)
        bob_before = lore.projector.fingerprint("bob")
        # Sealed from the start: neither word is in the log (SQLite file or Kafka segments) or keys.
        for marker in (ada, bob):
            assert files_holding(marker.encode(), settings.home, kafka_data) == []
        # The graph holds them in the clear while the people exist (and shows the search works).
        assert files_holding(ada.encode(), neo4j_home)

        (erased,) = lore.commands.handle([EraseUser(command_id="ada-erase", user_id="ada", occurred_at=AT)])
        assert erased.status == "applied"
        assert nodes_of(lore, "ada") == []
    finally:
        lore.close()

    compact(settings, stack)

    assert files_holding(ada.encode(), settings.home, kafka_data, neo4j_home) == []
    assert files_holding(bob.encode(), neo4j_home), "the other person is still there"
    lore = bootstrap(settings)
    try:
        assert nodes_of(lore, "ada") == []
        assert lore.projector.fingerprint("bob") == bob_before
        whole = lore.projector.fingerprint()
        lore.projector.rebuild(lore.event_log)  # and a replay is the same again
        assert lore.projector.fingerprint() == whole
        assert nodes_of(lore, "ada") == []
        # A command of hers consumed again (a crash before its offset was committed) or sent again
        # brings nothing back: its id still answers, now as erased.
        (again,) = lore.commands.handle([RecordMemory(command_id="ada-m1", user_id="ada", occurred_at=AT,
                                                      content=f"My favourite word is {ada}")])
        assert again.status == "duplicate" and nodes_of(lore, "ada") == []
        # Ada may come back: a new key, and what she says now is readable again.
        assert [o.status for o in lore.commands.handle([RecordMemory(
            command_id="ada-back", user_id="ada", occurred_at=AT, content="a new start")])] == ["applied"]
        lore.projector.rebuild(lore.event_log)
        assert set(nodes_of(lore, "ada")) == {"AppliedCommand", "Memory", "User"}
    finally:
        lore.close()
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")


def test_the_kafka_key_store_is_shared_by_processes_and_forgets_a_destroyed_key(stack: LocalStack) -> None:
    topic = f"lore.keys.{uuid.uuid4().hex[:8]}"
    one = KafkaKeyStore(stack.kafka.bootstrap, topic=topic)
    key = one.current("ada")
    one.prepare(["bob", "cy"])
    other = KafkaKeyStore(stack.kafka.bootstrap, topic=topic)  # another process, later
    assert other.current("ada") == key and other.find("ada", key.key_id) == key.secret
    assert other.find("bob", one.current("bob").key_id) == one.current("bob").secret
    other.destroy("ada")
    other.close()
    one.close()
    again = KafkaKeyStore(stack.kafka.bootstrap, topic=topic)
    try:
        assert again.find("ada", key.key_id) is None
        assert again.current("ada").key_id != key.key_id
        assert again.current("cy").secret
    finally:
        again.close()


def test_a_key_destroyed_by_another_process_leaves_this_ones_memory_at_once(stack: LocalStack) -> None:
    """A process sealing with a key it remembers, after another destroyed it, would write what no
    one can open: the store follows the topic, so the next key it hands out is a new one."""
    topic = f"lore.keys.{uuid.uuid4().hex[:8]}"
    api, worker = KafkaKeyStore(stack.kafka.bootstrap, topic=topic), KafkaKeyStore(stack.kafka.bootstrap,
                                                                                    topic=topic)
    try:
        old = api.current("ada")
        assert worker.current("ada") == old
        worker.destroy("ada")  # the erasure, applied by a worker
        wait_until(lambda: api.find("ada", old.key_id) is None, "the destroyed key to leave the other store")
        assert api.current("ada").key_id != old.key_id
    finally:
        api.close()
        worker.close()


def test_a_key_another_process_just_made_is_found_however_soon_it_is_asked_for(stack: LocalStack) -> None:
    """New people one after another: the worker meets each one's first sealed command before its
    own reader has seen the key. Each is read from the topic, not taken for destroyed."""
    topic = f"lore.keys.{uuid.uuid4().hex[:8]}"
    api, worker = KafkaKeyStore(stack.kafka.bootstrap, topic=topic), KafkaKeyStore(stack.kafka.bootstrap,
                                                                                    topic=topic)
    try:
        for n in range(20):
            key = api.current(f"new-{n}")
            assert worker.find(f"new-{n}", key.key_id) == key.secret
        gone = api.current("gone")
        api.destroy("gone")
        # The worker's follower may have read the key's record and not yet its tombstone: a destroyed
        # key leaves another process's memory within a poll (infra/keys/kafka.py), not at once.
        wait_until(lambda: worker.find("gone", gone.key_id) is None, "the destroyed key to leave the worker")
        assert worker.find("gone", gone.key_id) is None  # and stays gone
    finally:
        api.close()
        worker.close()


def _settled(lore: Lore, user: str) -> bool:
    return nothing_due(lore.driver, user)


@pytest.mark.parametrize("mode", ["sqlite", "kafka"])
def test_a_purged_memorys_words_are_in_no_file_after_compact_and_the_rest_of_the_person_stays(
        stack: LocalStack, tmp_path: Path, mode: str) -> None:
    tag = "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:8])  # letters: a word, as said
    cat, hike = f"Quokka{tag}", f"Zermatt{tag}"  # names, written as people write them
    settings = Settings(neo4j_uri=stack.neo4j.bolt_uri, home=tmp_path / "lore", embedder="none",
                        event_log=mode, kafka_bootstrap=stack.kafka.bootstrap,
                        events_topic=f"lore.events.{tag}", keys_topic=f"lore.keys.{tag}",
                        extraction_poll_s=0.1)
    kafka_data, neo4j_home = stack.kafka.home / "data", stack.neo4j.home
    said = (Message(role="user", content=f"I have a cat named {cat}.", timestamp=AT),
            Message(role="assistant", content="How lovely.", timestamp=AT),
            Message(role="user", content=f"I love hiking near {hike} on weekends.", timestamp=AT),
            Message(role="assistant", content="Sounds wonderful.", timestamp=AT))
    lore = bootstrap(settings)
    try:
        lore.start_extraction()
        outcomes = lore.commands.handle([
            RecordEpisode(command_id="e1", user_id="ada", occurred_at=AT, session_id="s1", messages=said),
            EndSession(command_id="end1", user_id="ada", occurred_at=AT, session_id="s1")])
        assert [o.status for o in outcomes] == ["applied", "applied"]
        wait_until(lambda: len(lore.queries.memories("ada")) == 2 and _settled(lore, "ada"), "two memories")
        (purged,) = [m for m in lore.queries.memories("ada") if cat in m.content]
        assert files_holding(cat.encode(), neo4j_home)  # in the graph, in the clear, while it is kept

        (outcome,) = lore.commands.handle([PurgeMemory(command_id="p1", user_id="ada", occurred_at=AT,
                                                       memory_id=purged.memory_id)])
        assert outcome.status == "applied", outcome
        wait_until(lambda: _settled(lore, "ada") and lore.layer_queries.profiles("ada"), "the layers anew")
        assert lore.queries.memory("ada", purged.memory_id) is None
        (kept,) = lore.queries.memories("ada")
        assert hike in kept.content
        nodes = lore.driver.execute_query("MATCH (n {user_id: 'ada'}) RETURN labels(n) AS l, "
                                          "properties(n) AS p").records
        assert [r["l"] for r in nodes if cat in str(r["p"])] == [], "no node of the graph holds the words"
        (again,) = lore.commands.handle([PurgeMemory(command_id="p2", user_id="ada", occurred_at=AT,
                                                     memory_id=purged.memory_id)])
        assert again.status == "rejected" and getattr(again.error, "code", None) == "memory_not_found"
        person = lore.projector.fingerprint("ada")
    finally:
        lore.close()

    compact(settings, stack)

    assert files_holding(cat.encode(), settings.home, kafka_data, neo4j_home) == []
    assert files_holding(hike.encode(), neo4j_home), "the rest of the person is still there"
    lore = bootstrap(settings)
    try:
        assert lore.projector.fingerprint("ada") == person  # the live purge left what a replay gives
        whole = lore.projector.fingerprint()
        lore.projector.rebuild(lore.event_log)
        assert lore.projector.fingerprint() == whole
    finally:
        lore.close()
    with GraphDatabase.driver(stack.neo4j.bolt_uri, auth=None) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
