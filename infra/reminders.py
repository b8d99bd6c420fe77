"""Where reminders go: `lore.reminders`, exactly once, and a webhook, at least once.

Exactly once on the topic (for consumers reading committed records, `isolation.level=
read_committed`): every sender shares one transactional id, so the broker lets one of them
commit at a time and aborts what a fenced (or killed) one left open. A sender, on becoming the
one, first reads the topic's committed records to the end: what is there was sent, whoever sent
it. It then commits only what is not there yet.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

import httpx
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition

from domain.lifecycle.reminders import ReminderDue
from infra.eventlog.kafka import ensure_topic
from infra.kafka_access import KafkaAccess

log = logging.getLogger(__name__)



class KafkaReminderOutbox:
    def __init__(self, kafka: KafkaAccess | str, topic: str, retention_days: int,
                 partitions: int = 1) -> None:
        self.kafka = kafka = KafkaAccess.of(kafka)
        self.topic = topic
        # Longer than the catch-up window, so that the record of a reminder outlives any chance of
        # sending it again.
        ensure_topic(kafka, topic, partitions, {"retention.ms": str(retention_days * 86_400_000)})
        # One transactional id per topic: every sender of this topic is the same sender to Kafka.
        self._producer = Producer(kafka.confluent(**{
            "transactional.id": f"lore-reminders:{topic}", "enable.idempotence": True, "acks": "all",
            "transaction.timeout.ms": 30_000}))
        self._sent: set[str] | None = None

    def _become_sender(self) -> set[str]:
        """Fence every other sender, then learn what was committed before now."""
        self._producer.init_transactions(60)
        sent: set[str] = set()
        consumer = Consumer(self.kafka.confluent(**{
            "group.id": "lore-reminders-reader", "enable.auto.commit": False,
            "isolation.level": "read_committed", "auto.offset.reset": "earliest"}))
        try:
            metadata = consumer.list_topics(self.topic, timeout=30).topics[self.topic]
            partitions = [TopicPartition(self.topic, p, 0) for p in metadata.partitions]
            ends = {p.partition: consumer.get_watermark_offsets(p, timeout=30)[1] for p in partitions}
            todo = {p for p, end in ends.items() if end > 0}
            consumer.assign([TopicPartition(self.topic, p, -2) for p in todo])  # -2: from the beginning
            while todo:
                message = consumer.poll(1.0)
                if message is None:
                    todo = {p for p in todo if consumer.position([TopicPartition(self.topic, p)])[0].offset
                            < ends[p]}
                    continue
                if message.error():
                    if message.error().code() == KafkaError._PARTITION_EOF:
                        todo.discard(message.partition())
                        continue
                    raise KafkaException(message.error())
                if message.key():
                    sent.add(message.key().decode())
                if message.offset() + 1 >= ends[message.partition()]:
                    todo.discard(message.partition())
        finally:
            consumer.close()
        log.info("reminders: sending from here; %d sent before", len(sent))
        return sent

    def send(self, reminders: Sequence[ReminderDue]) -> list[ReminderDue]:
        """Commit the reminders not sent yet, in one transaction; the ones it sent."""
        if self._sent is None:
            self._sent = self._become_sender()
        fresh = [r for r in reminders if r.reminder_id not in self._sent]
        if not fresh:
            return []
        try:
            self._producer.begin_transaction()
            for reminder in fresh:
                self._producer.produce(self.topic, key=reminder.reminder_id.encode(),
                                       value=reminder.model_dump_json().encode(),
                                       headers={"lore.user_id": reminder.user_id})
            self._producer.commit_transaction(60)
        except KafkaException as error:
            # Fenced by another sender, or the broker failed us: whatever was open is aborted; we
            # learn afresh what was sent before trying again.
            log.warning("reminders: transaction not committed (%s); re-reading what was sent", error)
            self._sent = None
            with contextlib.suppress(KafkaException):
                self._producer.abort_transaction(30)
            raise
        self._sent.update(r.reminder_id for r in fresh)
        return fresh

    def close(self) -> None:
        self._producer.flush(10)


class WebhookSender:
    """POSTs each reminder (header Idempotency-Key), retrying with a doubling pause."""

    def __init__(self, url: str, tries: int = 5, first_pause_s: float = 1.0) -> None:
        self.url = url
        self.tries = tries
        self.first_pause_s = first_pause_s
        self._client = httpx.Client(timeout=10.0)

    def post(self, reminder: ReminderDue) -> bool:
        pause = self.first_pause_s
        for attempt in range(1, self.tries + 1):
            try:
                response = self._client.post(self.url, content=reminder.model_dump_json(),
                                             headers={"Content-Type": "application/json",
                                                      "Idempotency-Key": reminder.reminder_id})
                if response.status_code < 500 and response.status_code != 429:
                    return response.is_success
            except httpx.HTTPError as error:
                log.warning("reminder webhook %s: %s (try %d of %d)", self.url, error, attempt, self.tries)
            time.sleep(pause)
            pause *= 2
        return False

    def close(self) -> None:
        self._client.close()


class SqliteReminderOutbox:
    """Embedded mode: which reminders were sent, in a small SQLite file beside the log, so that a
    restart does not send them again."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("CREATE TABLE IF NOT EXISTS sent "
                         "(reminder_id TEXT PRIMARY KEY, sent_at TEXT NOT NULL)")

    def send(self, reminders: Sequence[ReminderDue]) -> list[ReminderDue]:
        fresh = []
        for reminder in reminders:
            cursor = self._db.execute("INSERT OR IGNORE INTO sent VALUES (?, ?)",
                                      (reminder.reminder_id, reminder.sent_at.isoformat()))
            if cursor.rowcount:
                fresh.append(reminder)
        return fresh

    def close(self) -> None:
        self._db.close()
