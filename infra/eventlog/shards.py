"""Which Neo4j holds a person when the graph is split across several (LORE_NEO4J_SHARDS).

A person's partition is Kafka's (murmur2 of their user_id); a partition belongs to shard
`partition mod shards`. So one hash places a person's commands, events and graph, and a shard's
workers own whole partitions: the projector's per-partition checkpoints stay true, and a shard
catches up from the log like any worker. Changing the number of shards moves people between
Neo4j instances: each shard is rebuilt from the log (`lore rebuild --shard I`).

`shard_assignor` is the consumer-group assignor of one shard's workers: they share that shard's
partitions among themselves (and take them over from a worker that leaves), and never see the
other shards' partitions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from aiokafka.cluster import ClusterMetadata
from aiokafka.coordinator.assignors.abstract import AbstractPartitionAssignor
from aiokafka.coordinator.protocol import ConsumerProtocolMemberAssignment, ConsumerProtocolMemberMetadata

from infra.eventlog.kafka import key_partition


def shard_of_partition(partition: int, shards: int) -> int:
    return partition % shards


def shard_partitions(shard: int, shards: int, partitions: int) -> list[int]:
    """The partitions shard `shard` of `shards` owns, of a topic with `partitions`."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} does not exist: there are {shards} (0 to {shards - 1})")
    return [p for p in range(partitions) if shard_of_partition(p, shards) == shard]


def shard_of(user_id: str, partitions: int, shards: int) -> int:
    """The shard that holds `user_id` (as Lore keeps them: tenant-qualified)."""
    return shard_of_partition(key_partition(user_id, partitions), shards)


def shard_assignor(shard: int, shards: int) -> type[AbstractPartitionAssignor]:
    """An assignor that gives a group's members only the partitions of `shard`, round robin."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} does not exist: there are {shards} (0 to {shards - 1})")

    class ShardAssignor(AbstractPartitionAssignor):  # type: ignore[misc]
        name = f"lore-shard-{shard}-of-{shards}"
        version = 0

        @classmethod
        def assign(cls, cluster: ClusterMetadata, members: Mapping[str, ConsumerProtocolMemberMetadata],
                   ) -> dict[str, ConsumerProtocolMemberAssignment]:
            topics = sorted({topic for member in members.values() for topic in member.subscription})
            owned = [(topic, p) for topic in topics for p in sorted(cluster.partitions_for_topic(topic) or ())
                     if shard_of_partition(p, shards) == shard]
            ids = sorted(members)
            given: dict[str, dict[str, list[int]]] = {m: defaultdict(list) for m in ids}
            subscribed = {m: set(members[m].subscription) for m in ids}
            for turn, (topic, partition) in enumerate(owned):
                takers = [m for m in ids if topic in subscribed[m]]
                given[takers[turn % len(takers)]][topic].append(partition)
            return {m: ConsumerProtocolMemberAssignment(cls.version, sorted(given[m].items()), b"")
                    for m in ids}

        @classmethod
        def metadata(cls, topics: Iterable[str]) -> ConsumerProtocolMemberMetadata:
            return ConsumerProtocolMemberMetadata(cls.version, list(topics), b"")

        @classmethod
        def on_assignment(cls, assignment: ConsumerProtocolMemberAssignment) -> None:
            pass

    return ShardAssignor
