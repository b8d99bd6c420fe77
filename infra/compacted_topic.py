"""A small table kept on a compacted, one-partition Kafka topic: the last value of each record key
wins, a record without a value (a tombstone) deletes the key. People's keys and API keys live
this way, beside the event log and not in it.

Every process reads the whole topic at start and keeps it in memory (these tables are small),
and a background thread follows it, so that what one process writes or deletes reaches every
other within a poll. Writes are acknowledged by every replica before they return.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from confluent_kafka import Producer
from kafka import KafkaConsumer, TopicPartition

from infra.eventlog.kafka import ensure_topic
from infra.kafka_access import KafkaAccess
from infra.kafka_publish import produce_patiently

# What a reader does with each record: its key, and its value (None: a tombstone).
OnRecord = Callable[[bytes, bytes | None], None]


class CompactedTopic:
    def __init__(self, kafka: KafkaAccess | str, topic: str, config: dict[str, str], on_record: OnRecord,
                 follow_s: float = 0.1) -> None:
        kafka = KafkaAccess.of(kafka)
        self.topic = topic
        self._on_record = on_record
        ensure_topic(kafka, topic, 1, config)
        self._producer = Producer(kafka.confluent(**{"enable.idempotence": True, "acks": "all"}))
        self._consumer = KafkaConsumer(**kafka.kafka_python(enable_auto_commit=False, group_id=None))
        # Where the topic ends is asked on a connection of its own: a broker answers a connection's
        # requests in order, and on the reader's the follower's fetch is nearly always waiting there
        # (held up to fetch.max.wait.ms, 500 ms, while nothing is new), so each read to the end (a
        # batch's new people, a key not known yet) waited up to half a second behind it.
        self._ends = KafkaConsumer(**kafka.kafka_python(enable_auto_commit=False, group_id=None))
        self._partition = TopicPartition(topic, 0)
        self._consumer.assign([self._partition])
        self._consumer.seek_to_beginning(self._partition)
        self._errors: list[object] = []
        # Held by whoever reads or changes the table: the follower thread, and the store's calls.
        self.lock = threading.Lock()
        with self.lock:
            self.read_to_end()
        self._closed = threading.Event()
        self._follower = threading.Thread(target=self._follow, args=(follow_s,), name=f"follow-{topic}",
                                          daemon=True)
        self._follower.start()

    def _take(self, timeout_ms: int) -> None:
        for records in self._consumer.poll(timeout_ms=timeout_ms).values():
            for record in records:
                self._on_record(record.key, record.value)

    def read_to_end(self) -> None:
        """Apply every record written so far (by any process). Call with the lock held."""
        end = self._ends.end_offsets([self._partition])[self._partition]
        while self._consumer.position(self._partition) < end:
            self._take(1000)

    def _follow(self, every_s: float) -> None:
        while not self._closed.wait(every_s):
            with self.lock:
                if self._closed.is_set():
                    return
                self._take(0)

    def produce(self, key: bytes, value: bytes | None) -> None:
        """Queue a record; flush() sends what is queued."""
        produce_patiently(self._producer, self.topic, key=key, value=value, on_delivery=self._delivered)

    def _delivered(self, error: object, _: object) -> None:
        if error is not None:
            self._errors.append(error)

    def flush(self) -> None:
        """Every queued record is on the topic, or this raises."""
        left = self._producer.flush(30)
        errors, self._errors = self._errors, []
        if left or errors:
            raise RuntimeError(f"writing to the Kafka topic {self.topic} failed: {errors or 'timed out'}")

    def write(self, key: bytes, value: bytes | None) -> None:
        self.produce(key, value)
        self.flush()

    def close(self) -> None:
        self._closed.set()
        self._follower.join(timeout=5)
        self._producer.flush(30)
        with self.lock:
            self._consumer.close()
            self._ends.close()
