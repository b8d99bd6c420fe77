"""The Kafka worker: commands from `lore.commands`, a batch at a time, through the same handler
as HTTP. What cannot be parsed, validated or applied goes to `lore.commands.dlq` with the reason.

Offsets are committed only once a batch's events are in the log and applied to the graph. A
worker that is given partitions (at start, or when the group rebalances) first brings the graph
up to the end of the log for them; the command ids the graph has seen are then refused as
duplicates, so a batch consumed twice after a crash takes effect once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiokafka import ConsumerRebalanceListener, ConsumerRecord, TopicPartition
from faststream import AckPolicy
from faststream.kafka import KafkaBroker
from faststream.kafka.annotations import KafkaMessage

from domain.commands import Command
from infra.eventlog.kafka import ensure_topic
from infra.settings import Settings
from services.commands import CommandHandler, Outcome
from services.wire import BadCommand, CommandMessage, parse_command

log = logging.getLogger(__name__)

REASON_HEADER = "lore.dlq.reason"


@dataclass(frozen=True)
class DeadLetter:
    record: ConsumerRecord[Any, Any]
    reason: str

    def headers(self) -> dict[str, str]:
        return {
            REASON_HEADER: self.reason,
            "lore.dlq.source.topic": self.record.topic,
            "lore.dlq.source.partition": str(self.record.partition),
            "lore.dlq.source.offset": str(self.record.offset),
        }


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    """Partitions given to this worker: catch the graph up on them before the next decision."""

    def __init__(self, handler: CommandHandler) -> None:
        self.handler = handler

    async def on_partitions_revoked(self, revoked: Sequence[TopicPartition]) -> None:
        log.info("partitions revoked: %s", sorted(tp.partition for tp in revoked))

    async def on_partitions_assigned(self, assigned: Sequence[TopicPartition]) -> None:
        partitions = sorted(tp.partition for tp in assigned)
        log.info("partitions assigned: %s", partitions)
        self.handler.serve_partitions(partitions)


async def _raw_bodies(message: Any) -> Any:
    """Bodies stay bytes: each is parsed by `parse_command`, which says what is wrong with it."""
    return message.body


def received_at(record: ConsumerRecord[Any, Any]) -> datetime:
    return datetime.fromtimestamp(record.timestamp / 1000, tz=UTC)


class CommandWorker:
    def __init__(self, handler: CommandHandler, settings: Settings) -> None:
        self.handler = handler
        self.settings = settings

    def sort(self, records: Sequence[ConsumerRecord[Any, Any]]) -> tuple[
            list[tuple[ConsumerRecord[Any, Any], Command]], list[DeadLetter]]:
        valid, dead = [], []
        for record in records:
            try:
                command = parse_command(record.value, max_bytes=self.settings.max_command_bytes,
                                        received_at=received_at(record))
            except BadCommand as bad:
                dead.append(DeadLetter(record, bad.reason))
            else:
                valid.append((record, command))
        return valid, dead

    async def handle(self, valid: list[tuple[ConsumerRecord[Any, Any], Command]]) -> list[DeadLetter]:
        """Apply the valid commands; the refused ones come back as dead letters."""
        if not valid:
            return []
        outcomes = await self._handle_until_done([c for _, c in valid], [received_at(r) for r, _ in valid])
        return [DeadLetter(record, f"{o.error.code}: {o.error}")
                for (record, _), o in zip(valid, outcomes, strict=True) if o.error is not None]

    async def _handle_until_done(self, commands: list[Command], accepted: list[datetime]) -> list[Outcome]:
        # A failure here is Neo4j or Kafka being away, not the commands: the batch is retried
        # (already applied ones come back as duplicates) until it goes through or we stop.
        delay = 0.5
        while True:
            try:
                return await asyncio.to_thread(self.handler.handle, commands, accepted)
            except Exception:
                log.exception("applying %d commands failed; retrying in %.1fs", len(commands), delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 15.0)


def prepare_topics(settings: Settings) -> None:
    """The command and event topics, with the same number of partitions (see Settings)."""
    assert settings.kafka_bootstrap
    counts = {
        topic: ensure_topic(settings.kafka_bootstrap, topic, settings.kafka_partitions, config)
        for topic, config in (
            (settings.commands_topic, None),
            (settings.events_topic, {"retention.ms": "-1", "retention.bytes": "-1"}),
            (settings.dead_letter_topic, None),
        )
    }
    if counts[settings.commands_topic] != counts[settings.events_topic]:
        raise RuntimeError(
            f"{settings.commands_topic} has {counts[settings.commands_topic]} partitions and "
            f"{settings.events_topic} {counts[settings.events_topic]}: they must be equal, so that a "
            "worker owns the same users in both"
        )


def command_broker(settings: Settings, handler: CommandHandler | None, *,
                   describe_only: bool = False) -> KafkaBroker:
    """The Kafka side of Lore: publishers of commands and dead letters, and, given a handler, the
    worker's subscriber. FastStream documents all of it (`lore asyncapi`, with `describe_only`:
    the subscriber is declared for the document and never started)."""
    broker = KafkaBroker(settings.kafka_bootstrap or "127.0.0.1:9092", client_id="lore",
                         log_level=logging.DEBUG, enable_idempotence=True,
                         max_request_size=max(settings.max_command_bytes * 2, 1_048_576))
    broker.publisher(
        settings.commands_topic, title="lore.commands",
        description="Commands for Lore, key = user_id. HTTP writes travel here too when Kafka is configured.",
        schema=CommandMessage,
    )
    dead_letters = broker.publisher(
        settings.dead_letter_topic, title="lore.commands.dlq",
        description="A command message that could not be parsed, validated or applied: its original "
        f"bytes and key, with headers {REASON_HEADER} and lore.dlq.source.topic/partition/offset.",
        schema=bytes,
    )
    if handler is None and not describe_only:
        return broker
    worker = CommandWorker(handler, settings) if handler else None

    @broker.subscriber(
        settings.commands_topic, batch=True, group_id=settings.worker_group,
        max_records=settings.worker_batch, batch_timeout_ms=50, auto_offset_reset="earliest",
        session_timeout_ms=settings.worker_session_timeout_ms,
        heartbeat_interval_ms=settings.worker_session_timeout_ms // 4,
        ack_policy=AckPolicy.MANUAL, listener=_Rebalance(handler) if handler else None,
        decoder=_raw_bodies,
        max_partition_fetch_bytes=max(settings.max_command_bytes * 2, 1_048_576),
        title="lore.commands:worker",
        description="Validates each command, applies the valid ones in order per user, and sends "
        "the others to lore.commands.dlq.",
    )
    async def apply_commands(body: list[bytes], message: KafkaMessage) -> None:
        assert worker is not None, "a broker built to be described is never started"
        records = message.raw_message if isinstance(message.raw_message, tuple) else (message.raw_message,)
        valid, dead = worker.sort(records)
        dead += await worker.handle(valid)
        for letter in dead:
            log.warning("dead letter %s:%d@%d: %s", letter.record.topic, letter.record.partition,
                        letter.record.offset, letter.reason)
            await dead_letters.publish(letter.record.value or b"", key=letter.record.key,
                                       headers=letter.headers())
        await message.ack()

    return broker
