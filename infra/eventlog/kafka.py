"""The event log on a Kafka topic: `lore.events`, key = user_id, kept forever.

One record per command: its events travel as one entry, so a crash can never leave half a
command in the log. The topic is made to take the largest entry Lore writes (`max_entry_bytes`,
which the command handler holds every entry to); an entry goes to the partition its command came
from, so the worker that owns a partition of commands is the one writer of that partition here.

Kafka cannot refuse a duplicate key, so this adapter does not look command ids up: the command
handler does, against the projection, which the same worker keeps current for its partitions
(DESIGN.md §1), and the projection applies a command that the log holds twice only once. Order
per user holds because one user's entries share a partition and the producer is idempotent with
one request in flight.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

from confluent_kafka import KafkaError, KafkaException, Producer
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, NewTopic
from kafka.errors import TopicAlreadyExistsError
from kafka.partitioner.default import murmur2

from domain.access import DEFAULT_TENANT, TENANT_SEPARATOR, People
from domain.sealing import Keyring, sealed_bound
from domain.stored import Decided, StoredEvent
from infra.eventlog.port import PeopleRead
from infra.eventlog.sealed import EntrySealing
from infra.kafka_access import KafkaAccess
from infra.kafka_publish import RECORD_OVERHEAD, produce_patiently

log = logging.getLogger(__name__)


class KafkaAppendError(RuntimeError):
    """The broker did not take every entry of a batch; the caller retries the whole batch.

    `retriable` is False when the same entries would be refused again (one is too large)."""

    def __init__(self, message: str, retriable: bool = True) -> None:
        super().__init__(message)
        self.retriable = retriable


def ensure_topic(kafka: KafkaAccess | str, topic: str, partitions: int,
                 config: dict[str, str] | None = None) -> int:
    """Create the topic if it is missing, and give an existing one `config` where it differs; the
    number of partitions it has."""
    kafka = KafkaAccess.of(kafka)
    admin = KafkaAdminClient(**kafka.kafka_python())
    try:
        if topic not in admin.list_topics():
            admin.create_topics([NewTopic(topic, partitions, 1, topic_configs=config or {})])
        elif config:
            _configure(kafka, topic, config)
    except TopicAlreadyExistsError:
        pass
    finally:
        admin.close()
    return topic_partitions(kafka, topic)


def _configure(kafka: KafkaAccess, topic: str, config: dict[str, str]) -> None:
    admin = KafkaAdminClient(**kafka.kafka_python())
    try:
        resource = ConfigResource(ConfigResourceType.TOPIC, topic)
        described = admin.describe_configs([resource])["topic"][topic]  # what differs from the default
        changes = {name: value for name, value in config.items()
                   if (described.get(name) or {}).get("value") != value}
        if not changes:
            return
        log.info("setting %s on Kafka topic %s", ", ".join(f"{k}={v}" for k, v in changes.items()), topic)
        # Incremental: the topic's other settings stay as they are.
        answer = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs=changes)],
                                     incremental=True)["topic"][topic]
        if answer != "OK":
            raise RuntimeError(f"Kafka refused {changes} on topic {topic}: {answer}")
    finally:
        admin.close()


def _too_large(errors: list[Any]) -> bool:
    """An entry the broker refuses by its size is refused again however often it is sent."""
    return any(e.code() == KafkaError.MSG_SIZE_TOO_LARGE for e in errors)


def topic_config(largest: int) -> dict[str, str]:
    """A topic that takes records of up to `largest` bytes."""
    return {"max.message.bytes": str(largest + RECORD_OVERHEAD)}


def events_topic_config(max_entry_bytes: int) -> dict[str, str]:
    """The event log's topic: kept forever, and large enough for any entry Lore writes, sealed."""
    return {"retention.ms": "-1", "retention.bytes": "-1", **topic_config(sealed_bound(max_entry_bytes))}


def key_partition(user_id: str, partitions: int) -> int:
    """The partition a record keyed by `user_id` lands in with Kafka's default partitioner (the
    Java client's, kafka-python's, aiokafka's: murmur2 of the key)."""
    return (murmur2(user_id.encode()) & 0x7FFFFFFF) % partitions


def topic_partitions(kafka: KafkaAccess | str, topic: str) -> int:
    consumer = KafkaConsumer(**KafkaAccess.of(kafka).kafka_python(enable_auto_commit=False))
    try:
        for _ in range(50):
            found = consumer.partitions_for_topic(topic)
            if found:
                return len(found)
            consumer.poll(timeout_ms=100)
        raise RuntimeError(f"Kafka topic {topic!r} has no partitions")
    finally:
        consumer.close()


def group_lag(kafka: KafkaAccess | str, topic: str, group: str) -> dict[int, int]:
    """Per partition, how many records of the topic the consumer group has not committed past."""
    consumer = KafkaConsumer(**KafkaAccess.of(kafka).kafka_python(group_id=group, enable_auto_commit=False))
    try:
        parts = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
        ends, starts = consumer.end_offsets(parts), consumer.beginning_offsets(parts)
        return {tp.partition: ends[tp] - max(consumer.committed(tp) or 0, starts[tp]) for tp in parts}
    finally:
        consumer.close()


class KafkaEventLog:
    name = "kafka"

    def __init__(self, kafka: KafkaAccess | str, topic: str = "lore.events", partitions: int = 8,
                 max_entry_bytes: int = 16 * 1024 * 1024, keys: Keyring | None = None) -> None:
        """`keys`: seal each person's entries with their key (None: entries are written plain)."""
        kafka = KafkaAccess.of(kafka)
        self._access = kafka
        self.bootstrap = kafka.bootstrap
        self._sealing = EntrySealing(keys)
        self.topic = topic
        ensure_topic(kafka, topic, partitions, events_topic_config(max_entry_bytes))
        # librdkafka, not kafka-python, for appends: a Python producer spends ~100 µs a record,
        # which bounded the whole write path. murmur2 is the partitioner of the Java client, of
        # kafka-python and of aiokafka, so a user's events land in the partition number of its
        # commands.
        self._producer = Producer(kafka.confluent(**{
            "enable.idempotence": True,
            "acks": "all",
            "linger.ms": 2,
            "partitioner": "murmur2_random",
            "message.max.bytes": sealed_bound(max_entry_bytes) + RECORD_OVERHEAD,
        }))
        self._consumer = KafkaConsumer(**kafka.kafka_python(
            enable_auto_commit=False, group_id=None,
            max_partition_fetch_bytes=8 * 1024 * 1024, fetch_max_bytes=64 * 1024 * 1024,
        ))
        admin = KafkaAdminClient(**kafka.kafka_python())
        try:
            # A wiped broker is a new cluster: its topic of the same name is another log.
            self.log_id = f"kafka:{admin.describe_cluster()['cluster_id']}/{topic}"
        finally:
            admin.close()
        self._partitions = [
            TopicPartition(topic, p) for p in sorted(self._consumer.partitions_for_topic(topic) or [])
        ]

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        stored: list[StoredEvent] = []
        for segment in self._sealing.segments(batch):
            self._sealing.prepare(segment)
            stored.extend(self._append(segment))
            self._sealing.appended(segment)
        return stored

    def _append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        placed: list[tuple[int, int] | None] = [None] * len(batch)
        failures: list[Any] = []

        def delivered(index: int) -> Callable[[Any, Any], None]:
            def report(error: Any, message: Any) -> None:
                if error is not None:
                    failures.append(error)
                else:
                    placed[index] = (message.partition(), message.offset())
            return report

        for index, decided in enumerate(batch):
            # The command's own partition when known; else the user's, by the key.
            where = {} if decided.partition is None else {"partition": decided.partition}
            value = self._sealing.stored(decided)
            try:
                produce_patiently(self._producer, self.topic, key=decided.user_id.encode(), value=value,
                                  on_delivery=delivered(index), **where)
            except KafkaException as exc:
                self._producer.flush(60)
                raise KafkaAppendError(f"appending to {self.topic} failed: {exc}",
                                       retriable=not _too_large([exc.args[0]])) from exc
        if self._producer.flush(60) or failures:
            raise KafkaAppendError(
                f"appending to {self.topic} failed: {[str(f) for f in failures[:3]] or 'timed out'}",
                retriable=not _too_large(failures))
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
        return self._read(start, self.end(), batch_size, partitions, None)

    def read_entries(self, until: dict[int, int], people: Callable[[str], bool] | None = None,
                     partitions: Collection[int] | None = None,
                     batch_size: int = 10_000) -> Iterator[list[StoredEvent]]:
        return self._read({}, until, batch_size, partitions, people)

    def _read(self, start: dict[int, int], last: dict[int, int], batch_size: int,
              partitions: Collection[int] | None,
              people: Callable[[str], bool] | None) -> Iterator[list[StoredEvent]]:
        todo = {tp: last.get(tp.partition, -1) for tp in self._partitions
                if start.get(tp.partition, -1) < last.get(tp.partition, -1)
                and (partitions is None or tp.partition in partitions)}
        if not todo:
            return
        self._consumer.assign(list(todo))
        for tp in todo:
            self._consumer.seek(tp, start.get(tp.partition, -1) + 1)
        while todo:
            polled = self._consumer.poll(timeout_ms=1000, max_records=batch_size)
            taken: list[tuple[int, int, bytes]] = []
            for tp, records in polled.items():
                if tp not in todo:
                    continue
                for record in records:
                    if record.offset > todo[tp]:
                        break
                    # The key names the person in the clear: another's entry is never opened.
                    if people is None or people(record.key.decode()):
                        taken.append((tp.partition, record.offset, record.value))
                if self._consumer.position(tp) > todo[tp]:
                    del todo[tp]
            opened = self._sealing.events_of([value for _, _, value in taken])
            batch = [StoredEvent(partition, offset, event)
                     for (partition, offset, _), events in zip(taken, opened, strict=True)
                     for event in events]
            if batch:
                yield batch
        self._consumer.assign([])

    def history(self, user_id: str, partition: int, before: int) -> list[StoredEvent]:
        """Read with a consumer of its own: the log's own may be part way through a read()."""
        consumer = KafkaConsumer(**self._access.kafka_python(
            enable_auto_commit=False, group_id=None, max_partition_fetch_bytes=8 * 1024 * 1024))
        key = user_id.encode()
        found: list[StoredEvent] = []
        try:
            tp = TopicPartition(self.topic, partition)
            consumer.assign([tp])
            consumer.seek_to_beginning(tp)
            while consumer.position(tp) < before:
                for records in consumer.poll(timeout_ms=1000, max_records=10_000).values():
                    found.extend(StoredEvent(partition, r.offset, event) for r in records
                                 if r.offset < before and r.key == key
                                 for event in self._sealing.events(r.value))
        finally:
            consumer.close()
        return found

    def shred(self, user_id: str, purged: Collection[str], live: Collection[str]) -> None:
        self._sealing.shred(user_id, purged, live)

    def people_reader(self, people: People) -> KafkaPeopleReader:
        return KafkaPeopleReader(self._access, self.topic, self._sealing, people, len(self._partitions))

    def ping(self) -> None:
        if not self._consumer.bootstrap_connected():
            self._consumer.topics()

    def close(self) -> None:
        self._producer.flush(30)
        self._producer.close()  # its threads stop now, not whenever the object is collected
        self._consumer.close()


def _keys_of(people: People) -> Callable[[bytes | None], bool]:
    """Whether a record's key (its person) is one of `people`'s: checked before anything is opened."""
    if people.person is not None:
        own = people.person.encode()
        return lambda key: key == own
    if people.tenant == DEFAULT_TENANT:
        return lambda key: key is not None and TENANT_SEPARATOR.encode() not in key
    prefix = (people.tenant + TENANT_SEPARATOR).encode()
    return lambda key: key is not None and key.startswith(prefix)


class KafkaPeopleReader:
    """Some people's entries of the event topic, with a consumer of its own: one person's partition,
    or every partition for a tenant; records of anyone else are passed over by their key, unopened."""

    def __init__(self, kafka: KafkaAccess, topic: str, sealing: EntrySealing, people: People,
                 partitions: int) -> None:
        self._sealing = sealing
        self._wanted = _keys_of(people)
        numbers = [key_partition(people.person, partitions)] if people.person else range(partitions)
        self._partitions = [TopicPartition(topic, p) for p in numbers]
        self._consumer = KafkaConsumer(**kafka.kafka_python(
            enable_auto_commit=False, group_id=None, max_partition_fetch_bytes=8 * 1024 * 1024))
        self._consumer.assign(self._partitions)

    def end(self) -> dict[int, int]:
        ends = self._consumer.end_offsets(self._partitions)
        return {tp.partition: ends[tp] - 1 for tp in self._partitions}

    def read(self, after: dict[int, int], most: int = 500) -> PeopleRead:
        last = self.end()
        reached = {p: after.get(p, -1) for p in last}
        todo = {tp: last[tp.partition] for tp in self._partitions
                if reached[tp.partition] < last[tp.partition]}
        for tp in todo:
            self._consumer.seek(tp, reached[tp.partition] + 1)
        events: list[StoredEvent] = []
        entries = 0
        while todo and entries < most:
            for tp, records in self._consumer.poll(timeout_ms=1000, max_records=most).items():
                if tp not in todo:
                    continue
                for record in records:
                    if record.offset > todo[tp] or entries >= most:
                        break
                    if self._wanted(record.key):
                        events.extend(StoredEvent(tp.partition, record.offset, event)
                                      for event in self._sealing.events(record.value))
                        entries += 1
                    reached[tp.partition] = record.offset
                # Offsets may skip (a transaction's markers): the partition is done once read past its end.
                if entries < most and self._consumer.position(tp) > todo[tp]:
                    reached[tp.partition] = todo.pop(tp)
        return PeopleRead(events, reached)

    def close(self) -> None:
        self._consumer.close()
