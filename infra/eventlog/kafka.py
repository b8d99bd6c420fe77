"""The event log on a Kafka topic: `lore.events`, key = user_id, kept forever.

One record per command: its events travel as one entry, so a crash can never leave half a
command in the log. Kafka cannot refuse a duplicate key, so this adapter does not look command
ids up: the command handler does, against the projection, which the same worker keeps current
for its partitions (DESIGN.md §1), and the projection applies a command that the log holds
twice only once. Order per user holds because one user's entries share a partition (the key)
and the producer is idempotent with one request in flight.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

from confluent_kafka import Producer
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from kafka.admin import NewTopic
from kafka.errors import TopicAlreadyExistsError

from domain import codec
from domain.stored import Decided, StoredEvent

log = logging.getLogger(__name__)


class KafkaAppendError(RuntimeError):
    """The broker did not take every entry of a batch; the caller retries the whole batch."""


def ensure_topic(bootstrap: str, topic: str, partitions: int, config: dict[str, str] | None = None) -> int:
    """Create the topic if it is missing; the number of partitions it has."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        if topic not in admin.list_topics():
            admin.create_topics([NewTopic(topic, partitions, 1, topic_configs=config or {})])
    except TopicAlreadyExistsError:
        pass
    finally:
        admin.close()
    return topic_partitions(bootstrap, topic)


def topic_partitions(bootstrap: str, topic: str) -> int:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    try:
        for _ in range(50):
            found = consumer.partitions_for_topic(topic)
            if found:
                return len(found)
            consumer.poll(timeout_ms=100)
        raise RuntimeError(f"Kafka topic {topic!r} has no partitions")
    finally:
        consumer.close()


class KafkaEventLog:
    name = "kafka"

    def __init__(self, bootstrap: str, topic: str = "lore.events", partitions: int = 8) -> None:
        self.bootstrap = bootstrap
        self.topic = topic
        ensure_topic(bootstrap, topic, partitions, {"retention.ms": "-1", "retention.bytes": "-1"})
        # librdkafka, not kafka-python, for appends: a Python producer spends ~100 µs a record,
        # which bounded the whole write path. murmur2 is the partitioner of the Java client, of
        # kafka-python and of aiokafka, so a user's events land in the partition number of its
        # commands.
        self._producer = Producer({
            "bootstrap.servers": bootstrap,
            "enable.idempotence": True,
            "acks": "all",
            "linger.ms": 2,
            "partitioner": "murmur2_random",
            "message.max.bytes": 4 * 1024 * 1024,
        })
        self._consumer = KafkaConsumer(
            bootstrap_servers=bootstrap, enable_auto_commit=False, group_id=None,
            max_partition_fetch_bytes=8 * 1024 * 1024, fetch_max_bytes=64 * 1024 * 1024,
        )
        admin = KafkaAdminClient(bootstrap_servers=bootstrap)
        try:
            # A wiped broker is a new cluster: its topic of the same name is another log.
            self.log_id = f"kafka:{admin.describe_cluster()['cluster_id']}/{topic}"
        finally:
            admin.close()
        self._partitions = [
            TopicPartition(topic, p) for p in sorted(self._consumer.partitions_for_topic(topic) or [])
        ]

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        placed: list[tuple[int, int] | None] = [None] * len(batch)
        failures: list[str] = []

        def delivered(index: int) -> Callable[[Any, Any], None]:
            def report(error: Any, message: Any) -> None:
                if error is not None:
                    failures.append(str(error))
                else:
                    placed[index] = (message.partition(), message.offset())
            return report

        for index, decided in enumerate(batch):
            while True:
                try:
                    self._producer.produce(self.topic, key=decided.user_id.encode(),
                                           value=codec.encode_entry(decided.events),
                                           on_delivery=delivered(index))
                    break
                except BufferError:  # the local queue is full: let it drain
                    self._producer.poll(0.1)
        if self._producer.flush(60) or failures:
            raise KafkaAppendError(f"appending to {self.topic} failed: {failures[:3] or 'timed out'}")
        stored = []
        for decided, where in zip(batch, placed, strict=True):
            assert where is not None
            stored.extend(StoredEvent(where[0], where[1], event) for event in decided.events)
        return stored

    def end(self) -> dict[int, int]:
        ends = self._consumer.end_offsets(self._partitions)
        return {tp.partition: ends[tp] - 1 for tp in self._partitions}

    def count(self) -> int:
        ends = self._consumer.end_offsets(self._partitions)
        starts = self._consumer.beginning_offsets(self._partitions)
        return sum(ends[tp] - starts[tp] for tp in self._partitions)

    def read(self, start: dict[int, int], batch_size: int = 10_000,
             partitions: Collection[int] | None = None) -> Iterator[list[StoredEvent]]:
        last = self.end()
        todo = {tp: last[tp.partition] for tp in self._partitions
                if start.get(tp.partition, -1) < last[tp.partition]
                and (partitions is None or tp.partition in partitions)}
        if not todo:
            return
        self._consumer.assign(list(todo))
        for tp in todo:
            self._consumer.seek(tp, start.get(tp.partition, -1) + 1)
        while todo:
            polled = self._consumer.poll(timeout_ms=1000, max_records=batch_size)
            batch: list[StoredEvent] = []
            for tp, records in polled.items():
                if tp not in todo:
                    continue
                for record in records:
                    if record.offset > todo[tp]:
                        break
                    batch.extend(StoredEvent(tp.partition, record.offset, event)
                                 for event in codec.decode_entry(record.value))
                if self._consumer.position(tp) > todo[tp]:
                    del todo[tp]
            if batch:
                yield batch
        self._consumer.assign([])

    def ping(self) -> None:
        if not self._consumer.bootstrap_connected():
            self._consumer.topics()

    def close(self) -> None:
        self._producer.flush(30)
        self._consumer.close()
