"""Splitting people across Neo4j instances: which shard holds whom, and which partitions a shard's
workers are given."""

from __future__ import annotations

from collections import Counter

import pytest
from aiokafka.coordinator.protocol import ConsumerProtocolMemberMetadata
from pydantic import ValidationError

from infra.eventlog.kafka import key_partition
from infra.eventlog.shards import shard_assignor, shard_of, shard_partitions
from infra.settings import Settings
from lore.schemas import MaintenanceRunView
from services.api.routers.maintenance import combined


class Cluster:
    def __init__(self, partitions: dict[str, int]) -> None:
        self.partitions = partitions

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        return set(range(self.partitions[topic])) if topic in self.partitions else None


def given(assignment: object) -> list[tuple[str, list[int]]]:
    return list(assignment.assignment)  # type: ignore[attr-defined]


def test_every_partition_belongs_to_exactly_one_shard() -> None:
    owned = [p for shard in range(3) for p in shard_partitions(shard, 3, 8)]
    assert sorted(owned) == list(range(8))
    assert shard_partitions(1, 3, 8) == [1, 4, 7]


def test_a_person_lives_on_the_shard_of_their_partition() -> None:
    people = [f"person-{i}" for i in range(200)]
    for person in people:
        assert shard_of(person, 8, 2) == key_partition(person, 8) % 2
    assert set(Counter(shard_of(p, 8, 2) for p in people)) == {0, 1}  # both shards hold someone


def test_a_shard_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="shard 2 does not exist"):
        shard_partitions(2, 2, 8)
    with pytest.raises(ValueError, match="shard 2 does not exist"):
        shard_assignor(2, 2)


def test_the_assignor_gives_a_shards_workers_only_its_partitions_shared_among_them() -> None:
    assignor = shard_assignor(1, 2)
    members = {m: ConsumerProtocolMemberMetadata(0, ["lore.commands"], b"") for m in ("w-b", "w-a")}
    assignment = assignor.assign(Cluster({"lore.commands": 8}), members)  # type: ignore[arg-type]
    parts = {member: given(a) for member, a in assignment.items()}
    assert parts == {"w-a": [("lore.commands", [1, 5])], "w-b": [("lore.commands", [3, 7])]}


def test_a_lone_worker_of_a_shard_takes_all_of_its_partitions_and_none_of_the_others() -> None:
    assignor = shard_assignor(0, 2)
    members = {"w": ConsumerProtocolMemberMetadata(0, ["lore.commands"], b"")}
    assignment = assignor.assign(Cluster({"lore.commands": 4}), members)  # type: ignore[arg-type]
    assert given(assignment["w"]) == [("lore.commands", [0, 2])]


def test_each_shard_has_its_own_assignor_name() -> None:
    # Members of one group must agree on the protocol; two shards' groups never mix.
    assert shard_assignor(0, 2).name != shard_assignor(1, 2).name


def test_shards_are_read_from_a_comma_separated_list_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LORE_KAFKA_BOOTSTRAP", "127.0.0.1:9092")
    monkeypatch.setenv("LORE_NEO4J_SHARDS", "bolt://a:7687, bolt://b:7687")
    settings = Settings()
    assert settings.neo4j_shards == ["bolt://a:7687", "bolt://b:7687"]
    assert settings.shard_count == 2
    assert settings.for_shard(1).neo4j_uri == "bolt://b:7687"
    monkeypatch.setenv("LORE_NEO4J_SHARDS", '["bolt://c:1"]')
    assert Settings().neo4j_shards == ["bolt://c:1"]


def test_no_shards_is_one_graph() -> None:
    settings = Settings(neo4j_uri="bolt://only:7687")
    assert settings.shard_count == 1
    assert settings.for_shard(0).neo4j_uri == "bolt://only:7687"
    with pytest.raises(ValueError, match="there is one"):
        settings.for_shard(1)


def test_shards_need_kafka_and_enough_partitions() -> None:
    with pytest.raises(ValidationError, match="needs Kafka"):
        Settings(neo4j_shards=["bolt://a:1", "bolt://b:1"], kafka_bootstrap=None, event_log="auto")
    with pytest.raises(ValidationError, match="at least as many"):
        Settings(neo4j_shards=["bolt://a:1", "bolt://b:1", "bolt://c:1"], kafka_bootstrap="k:9092",
                 kafka_partitions=2)
    with pytest.raises(ValueError, match="shard 2 does not exist"):
        Settings(neo4j_shards=["bolt://a:1", "bolt://b:1"], kafka_bootstrap="k:9092").for_shard(2)


def test_a_maintenance_run_over_shards_is_reported_as_one() -> None:
    first = MaintenanceRunView(run_id="run-1", as_of="2026-01-01T00:00:00Z", users=3, evaluated=10,
                               forgotten=1, started_at="2026-01-01T00:00:01Z",
                               finished_at="2026-01-01T00:00:03Z", duration_s=2.0)
    second = first.model_copy(update={"users": 2, "evaluated": 5, "forgotten": 0, "duration_s": 4.0,
                                      "started_at": first.started_at.replace(second=0)})  # type: ignore[union-attr]
    both = combined([first, second])
    assert (both.users, both.evaluated, both.forgotten) == (5, 15, 1)
    assert both.started_at == second.started_at and both.duration_s == 4.0
    running = second.model_copy(update={"finished_at": None, "duration_s": None})
    assert combined([first, running]).finished_at is None  # not finished until every shard is
