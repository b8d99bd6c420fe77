"""A worker that never stalls: a large episode fits the log, a command that cannot be applied
goes to the dead-letter topic alone, a graph that follows another log refuses (and recovers
after `lore rebuild` and `lore dlq replay`), a dead letter that cannot be published is sent
after redelivery, and transaction time is Lore's, whatever the producer stamped."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType
from kafka import KafkaProducer
from neo4j import Driver
from typer.testing import CliRunner

from domain.commands import ForgetMemory, Message, RecordEpisode, RecordMemory
from domain.sealing import is_sealed
from infra.eventlog.kafka import key_partition
from infra.settings import Settings
from services.cli import app
from services.wire import to_message
from services.worker import CODE_HEADER, REASON_HEADER, prepare_topics
from tests.support.kafka_flow import (
    Sent,
    applied,
    as_messages,
    by_source,
    env_for,
    kafka_settings,
    opened,
    produce,
    read_topic,
    start_worker,
    stop,
    wait_until,
)
from tests.support.servers import ServerEndpoints

PARTITIONS = 4
NOW = datetime.now(UTC)


@pytest.fixture()
def make_settings(servers: ServerEndpoints, tmp_path: Path,
                  kafka_topic: Callable[..., str]) -> Callable[..., Settings]:
    def make(**extra: object) -> Settings:
        return kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic,
                              partitions=PARTITIONS, **extra)
    return make


def neighbours(user: str, count: int) -> list[str]:
    """Other people whose commands share `user`'s partition."""
    home = key_partition(user, PARTITIONS)
    return [f"n{i}" for i in range(1000) if key_partition(f"n{i}", PARTITIONS) == home][:count]


def facts(users: list[str], prefix: str) -> list[RecordMemory]:
    return [RecordMemory(command_id=f"{prefix}-{n}", user_id=u, occurred_at=NOW,
                         content=f"{u} fact {prefix} {n}") for n, u in enumerate(users)]


def episode(user: str, command_id: str, messages: int) -> RecordEpisode:
    return RecordEpisode(command_id=command_id, user_id=user, occurred_at=NOW, session_id="long-chat",
                         messages=tuple(Message(role="user" if i % 2 == 0 else "assistant",
                                                content=f"turn {i}: we talked about the garden, the weather "
                                                        f"and the plans for the weekend, part {i}")
                                        for i in range(messages)))


def outcome_of(neo4j: Driver, user: str, command_id: str) -> str | None:
    records, _, _ = neo4j.execute_query(
        "MATCH (a:AppliedCommand {user_id: $u, command_id: $c}) RETURN a.outcome AS o", u=user, c=command_id)
    return records[0]["o"] if records else None


def letters_by_code(settings: Settings, expect: int) -> dict[str, list]:
    found: dict[str, list] = {}
    for letter in by_source(read_topic(settings.kafka_bootstrap, settings.dead_letter_topic, expect)):
        found.setdefault(dict(letter.headers)[CODE_HEADER].decode(), []).append(letter)
    return found


def test_a_thousand_message_episode_with_its_vectors_is_applied_and_the_partition_goes_on(
    make_settings: Callable[..., Settings], neo4j: Driver, tmp_path: Path
) -> None:
    settings = make_settings(embedder="local")
    after = facts(neighbours("talker", 20), "after")
    produce(settings.kafka_bootstrap, settings.commands_topic,
            as_messages([episode("talker", "long", 1000), *after]))
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        wait_until(lambda: applied(neo4j) >= 1 + len(after), "the episode and the commands after it",
                   [worker], progress=lambda: applied(neo4j))
    finally:
        stop(worker)
    records, _, _ = neo4j.execute_query(
        "MATCH (:Episode {user_id: 'talker'})-[:HAS_MESSAGE]->(x:Message) "
        "RETURN count(x) AS n, count(x.embedding) AS vectors")
    assert (records[0]["n"], records[0]["vectors"]) == (1000, 1000)
    assert all(outcome_of(neo4j, c.user_id, c.command_id) == "applied" for c in after)


def test_events_too_large_for_the_log_go_to_the_dead_letter_topic_and_the_partition_goes_on(
    make_settings: Callable[..., Settings], neo4j: Driver, tmp_path: Path
) -> None:
    settings = make_settings(embedder="local", max_entry_bytes=256 * 1024)
    after = facts(neighbours("talker", 10), "after")
    produce(settings.kafka_bootstrap, settings.commands_topic,
            as_messages([episode("talker", "too-long", 300), *after]))
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        wait_until(lambda: applied(neo4j) >= 1 + len(after), "the refusal and the commands after it",
                   [worker], progress=lambda: applied(neo4j))
        letters = letters_by_code(settings, 1)
    finally:
        stop(worker)
    assert outcome_of(neo4j, "talker", "too-long") == "rejected"
    assert all(outcome_of(neo4j, c.user_id, c.command_id) == "applied" for c in after)
    (letter,) = letters["events_too_large"]
    reason = dict(letter.headers)[REASON_HEADER].decode()
    assert "262,144" in reason and "LORE_MAX_ENTRY_BYTES" in reason
    assert is_sealed(letter.value) and b"garden" not in letter.value  # Lore seals what it publishes
    assert json.loads(opened(settings, [letter.value])[0])["command_id"] == "too-long"


def stray_checkpoint(neo4j: Driver) -> None:
    """What another Lore, following another log, leaves in the graph."""
    neo4j.execute_query("CREATE (:Checkpoint {key: 'graph:0:0', projection: 'graph', partition: 0, "
                        "shard: 0, position: 41, log: 'kafka:another-cluster/lore.events', version: 2})")


def test_a_graph_that_follows_another_log_sends_commands_to_the_dead_letter_topic_until_rebuilt(
    make_settings: Callable[..., Settings], neo4j: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings()
    stray_checkpoint(neo4j)
    first = facts(neighbours("ada", 5), "first")
    produce(settings.kafka_bootstrap, settings.commands_topic, as_messages(first))
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        letters = letters_by_code(settings, len(first))
        assert len(letters.get("projection_mismatch", [])) == len(first)
        reason = dict(letters["projection_mismatch"][0].headers)[REASON_HEADER].decode()
        assert "another event log" in reason and "lore rebuild" in reason
        assert applied(neo4j) == 0

        for key, value in env_for(settings).items():
            monkeypatch.setenv(key, value)
        rebuilt = CliRunner().invoke(app, ["rebuild"])
        assert rebuilt.exit_code == 0, rebuilt.output

        second = facts(neighbours("ada", 5), "second")  # the same partition, the worker still running
        produce(settings.kafka_bootstrap, settings.commands_topic, as_messages(second))
        wait_until(lambda: applied(neo4j) >= len(second), "the commands after the rebuild", [worker],
                   progress=lambda: applied(neo4j))
        replayed = CliRunner().invoke(app, ["dlq", "replay"])
        assert replayed.exit_code == 0 and f"sent {len(first)} dead letters back" in replayed.output
        wait_until(lambda: applied(neo4j) >= len(first) + len(second), "the replayed commands", [worker],
                   progress=lambda: applied(neo4j))
        again = CliRunner().invoke(app, ["dlq", "replay"])
        assert "sent 0 dead letters back" in again.output  # each letter is sent back once
    finally:
        stop(worker)
    assert all(outcome_of(neo4j, c.user_id, c.command_id) == "applied" for c in first + second)


def set_topic(bootstrap: str, topic: str, **config: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    entries = [ConfigEntry(k.replace("_", "."), v, incremental_operation=AlterConfigOpType.SET)
               for k, v in config.items()]
    target = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=entries)
    admin.incremental_alter_configs([target])[target].result(timeout=30)


def test_a_refusal_whose_dead_letter_could_not_be_published_is_sent_after_redelivery(
    make_settings: Callable[..., Settings], neo4j: Driver, tmp_path: Path
) -> None:
    settings = make_settings()
    worker = start_worker(settings, tmp_path / "worker.log")
    log = tmp_path / "worker.log"
    try:
        wait_until(lambda: "partitions assigned: [0" in log.read_text(), "the worker to join", [worker])
        set_topic(settings.kafka_bootstrap, settings.dead_letter_topic, max_message_bytes="16")
        refused = ForgetMemory(command_id="nope", user_id="ada", occurred_at=NOW, memory_id="no-such-memory")
        produce(settings.kafka_bootstrap, settings.commands_topic, as_messages([refused]))
        wait_until(lambda: "will be consumed again" in log.read_text(), "a dead letter refused by the topic",
                   [worker])
        assert outcome_of(neo4j, "ada", "nope") == "rejected"
        set_topic(settings.kafka_bootstrap, settings.dead_letter_topic, max_message_bytes="1048576")
        (letter,) = by_source(read_topic(settings.kafka_bootstrap, settings.dead_letter_topic, 1))
    finally:
        stop(worker)
    assert dict(letter.headers)[CODE_HEADER] == b"memory_not_found"
    assert json.loads(opened(settings, [letter.value])[0])["command_id"] == "nope"
    assert applied(neo4j) == 1


def test_commands_stamped_long_ago_are_kept_by_the_brokers_clock(
    make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings()
    assert settings.kafka_bootstrap
    # A topic made by someone else, stamped by its producers (the test topics are stamped by the
    # broker, as Lore makes them): Lore switches it to the broker's clock.
    set_topic(settings.kafka_bootstrap, settings.commands_topic, message_timestamp_type="CreateTime")
    prepare_topics(settings)
    # The broker applies a topic's new settings on its own time: a record sent before they hold
    # keeps its producer's stamp (seen once on a busy machine).
    wait_until(lambda: topic_setting(settings.kafka_bootstrap, settings.commands_topic,
                                     "message.timestamp.type") == "LogAppendTime", "the broker's clock")
    old = as_messages(facts(["ada"], "old"))  # stamped months ago, as a producer may
    produce(settings.kafka_bootstrap, settings.commands_topic, old)
    (record,) = read_topic(settings.kafka_bootstrap, settings.commands_topic, 1)
    # Retention counts from the broker's time, not the producer's: nothing expires unapplied.
    assert record.timestamp_type == 1 and record.timestamp > old[0].timestamp_ms
    assert abs(record.timestamp / 1000 - datetime.now(UTC).timestamp()) < 3600
    # And it is bounded: a producer's own commands, and their dead letters, may be in the clear.
    for topic in (settings.commands_topic, settings.dead_letter_topic):
        assert topic_setting(settings.kafka_bootstrap, topic, "retention.ms") == str(7 * 24 * 60 * 60 * 1000)


def topic_setting(bootstrap: str, topic: str, name: str) -> str:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    resource = ConfigResource(ResourceType.TOPIC, topic)
    return str(admin.describe_configs([resource])[resource].result(timeout=30)[name].value)


def test_transaction_time_is_lores_whatever_the_producer_stamped(
    make_settings: Callable[..., Settings], neo4j: Driver, tmp_path: Path
) -> None:
    settings = make_settings()
    stamps = [datetime(2001, 1, 1, tzinfo=UTC), datetime(2099, 1, 1, tzinfo=UTC),
              datetime(1999, 1, 1, tzinfo=UTC)]
    commands = facts(["ada"] * 3, "t")
    messages = [Sent(m.key, m.value, int(at.timestamp() * 1000))
                for m, at in zip(as_messages(commands), stamps, strict=True)]
    before = datetime.now(UTC)
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        for message in messages:  # one at a time: three batches, three decisions
            produce(settings.kafka_bootstrap, settings.commands_topic, [message])
            count = applied(neo4j)
            wait_until(lambda count=count: applied(neo4j) > count, "the command", [worker])
    finally:
        stop(worker)
    after = datetime.now(UTC)
    records, _, _ = neo4j.execute_query(
        "MATCH (m:Memory {user_id: 'ada'}) RETURN m.recorded_at AS at ORDER BY m.log_position")
    recorded = [r["at"].to_native() for r in records]
    assert len(recorded) == 3
    assert all(before - timedelta(seconds=1) <= at <= after for at in recorded), recorded
    assert recorded == sorted(recorded)


def test_a_command_on_another_partition_than_its_persons_is_decided_on_theirs(
    make_settings: Callable[..., Settings], neo4j: Driver, tmp_path: Path
) -> None:
    settings = make_settings()
    home = key_partition("ada", PARTITIONS)
    wrong = (home + 1) % PARTITIONS
    producer = KafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all")
    for command in facts(["ada", "ada"], "misrouted"):
        producer.send(settings.commands_topic, key=b"ada", value=to_message(command), partition=wrong)
    producer.flush()
    producer.close()
    worker = start_worker(settings, tmp_path / "worker.log")
    try:
        wait_until(lambda: applied(neo4j) >= 2, "the two commands", [worker], progress=lambda: applied(neo4j))
    finally:
        stop(worker)
    events = read_topic(settings.kafka_bootstrap, settings.events_topic, 2)
    assert [e.partition for e in events] == [home, home]
    commands = read_topic(settings.kafka_bootstrap, settings.commands_topic, 4)
    forwarded = [c for c in commands if c.partition == home]  # (twice, if a batch was consumed again)
    assert all(is_sealed(c.value) for c in forwarded)  # forwarded by Lore: sealed
    assert {json.loads(v)["command_id"] for v in opened(settings, [c.value for c in forwarded])} == {
        "misrouted-0", "misrouted-1"}
    assert all(dict(c.headers).get("lore.forwarded.from") for c in forwarded)
