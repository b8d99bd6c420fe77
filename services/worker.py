"""The Kafka worker: commands from `lore.commands`, a batch at a time, through the same handler
as HTTP. What cannot be parsed, validated or applied goes to `lore.commands.dlq` with the reason.

Offsets are committed only once a batch's events are in the log and applied to the graph, and
its dead letters are on their topic; if either fails, the batch is consumed again (its applied
commands come back as duplicates, and a refused one is dead-lettered again). A worker that is
given partitions (at start, or when the group rebalances) first brings the graph up to the end
of the log for them. Failures are sorted as `services/failures.py` says: a transient one is
retried, one that a command causes sends that command alone to the dead-letter topic.

With encryption on, a command may come sealed with its person's key (Lore's own publishers seal
what they send, services/wire.py): it is opened here, and one whose key an erasure destroyed is
dead-lettered as `key_destroyed`. What the worker itself publishes (dead letters, commands it
forwards to their person's partition) it seals with the person's key.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiokafka import ConsumerRebalanceListener, ConsumerRecord, TopicPartition
from aiokafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from faststream import AckPolicy
from faststream.kafka import KafkaBroker
from faststream.kafka.annotations import KafkaMessage
from faststream.kafka.publisher.usecase import DefaultPublisher

from domain.commands import Command
from domain.sealing import Sealer
from infra.eventlog.kafka import ensure_topic, events_topic_config, key_partition, topic_config
from infra.eventlog.shards import shard_assignor
from infra.kafka_access import KafkaAccess
from infra.kafka_publish import RECORD_OVERHEAD
from infra.settings import Settings
from services.commands import CommandHandler, Outcome
from services.failures import Failure, classify, code_of
from services.telemetry import DEAD_LETTERS
from services.wire import (
    BadCommand,
    CommandMessage,
    SealedUnreadable,
    open_message,
    parse_command,
    seal_message,
)

log = logging.getLogger(__name__)

REASON_HEADER = "lore.dlq.reason"
CODE_HEADER = "lore.dlq.code"
FORWARDED_HEADER = "lore.forwarded.from"
Record = ConsumerRecord[Any, Any]


@dataclass(frozen=True)
class DeadLetter:
    record: Record
    code: str
    reason: str
    user_id: str | None = None  # whose command it is, when known (else the record's key says)

    def headers(self) -> dict[str, str]:
        return {
            REASON_HEADER: self.reason,
            CODE_HEADER: self.code,
            "lore.dlq.source.topic": self.record.topic,
            "lore.dlq.source.partition": str(self.record.partition),
            "lore.dlq.source.offset": str(self.record.offset),
        }


@dataclass(frozen=True)
class Sorted:
    """A consumed batch, sorted: commands to apply here, dead letters, and commands that came on
    another partition than their person's (`misrouted`: record, the person's partition, the value
    to forward)."""

    valid: list[tuple[Record, Command]]
    dead: list[DeadLetter]
    misrouted: list[tuple[Record, int, bytes]]


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    """Partitions given to this worker: catch the graph up on them before the next decision.
    Runs on the event loop, so it only notes the assignment; the next batch acts on it."""

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


def received_at(record: Record) -> datetime:
    """The record's timestamp (the broker's: lore.commands is LogAppendTime): when the command
    happened, if it does not say."""
    return datetime.fromtimestamp(record.timestamp / 1000, tz=UTC)


class CommandWorker:
    """Sorts and applies consumed commands; never gives a command up to a transient failure."""

    # A failure no one can name is given this many tries before its command is dead-lettered.
    TRIES = 3

    def __init__(self, handler: CommandHandler, settings: Settings, partitions: int,
                 sleep: Callable[[float], Any] = asyncio.sleep, max_delay_s: float = 30.0,
                 sealer: Sealer | None = None) -> None:
        self.handler = handler
        self.sealer = sealer
        self.settings = settings
        self.partitions = partitions
        self.max_delay_s = max_delay_s
        self._sleep = sleep
        # While a transient failure lasts: since when, and what it is (for /v1/health).
        self.stalled: tuple[float, str] | None = None

    def sort(self, records: Sequence[Record]) -> Sorted:
        valid, dead, misrouted = [], [], []
        for record in records:
            try:
                plain, sealed_for = open_message(record.value, self.sealer)
                command = parse_command(plain, max_bytes=self.settings.max_command_bytes,
                                        received_at=received_at(record))
            except SealedUnreadable as unreadable:
                dead.append(DeadLetter(record, unreadable.code, unreadable.reason))
                continue
            except BadCommand as bad:
                dead.append(DeadLetter(record, "bad_command", bad.reason))
                continue
            if sealed_for is not None and sealed_for != command.user_id:
                dead.append(DeadLetter(record, "bad_command", f"sealed for {sealed_for!r}, but the command "
                                       f"names user_id {command.user_id!r}", user_id=sealed_for))
                continue
            home = key_partition(command.user_id, self.partitions)
            if home != record.partition:
                misrouted.append((record, home, seal_message(command.user_id, record.value, self.sealer)))
            else:
                valid.append((record, command))
        return Sorted(valid, dead, misrouted)

    def letter_value(self, letter: DeadLetter) -> bytes:
        """What the dead-letter topic gets: the message as it came, sealed with its person's key
        when it came plain (a message naming no one stays as it came)."""
        value = letter.record.value or b""
        person = letter.user_id or (letter.record.key or b"").decode(errors="replace")
        return seal_message(person, value, self.sealer) if person and value else value

    async def apply(self, valid: list[tuple[Record, Command]]) -> list[DeadLetter]:
        """Apply the valid commands; the ones refused or failing alone come back as dead letters."""
        letters: list[DeadLetter] = []
        for (record, command), result in zip(valid, await self._apply(valid), strict=True):
            if isinstance(result, DeadLetter):
                letters.append(result)
                continue
            prior = result.prior
            if result.error is not None:
                letters.append(DeadLetter(record, result.error.code, f"{result.error.code}: {result.error}",
                                          command.user_id))
            elif prior is not None and prior.outcome == "rejected":
                # Refused when first applied: its dead letter may not have reached the topic then.
                code = prior.code or "rejected"
                letters.append(DeadLetter(record, code, f"{code}: {prior.reason}", command.user_id))
        return letters

    async def _apply(self, items: list[tuple[Record, Command]]) -> list[Outcome | DeadLetter]:
        delay, tries = 0.5, 0
        while True:
            try:
                outcomes = await asyncio.to_thread(self.handler.handle, [c for _, c in items],
                                                   [r.partition for r, _ in items])
            except Exception as error:  # noqa: BLE001 - sorted below; nothing escapes unsorted
                kind = classify(error)
                if kind is Failure.TRANSIENT:
                    self._alarm(error, len(items), delay)
                    await self._sleep(delay)
                    delay = min(delay * 2, self.max_delay_s)
                    continue
                if kind is Failure.GRAPH:
                    log.error("the graph refuses every command (%s): %d to the dead-letter topic",
                              error, len(items))
                    return [DeadLetter(r, code_of(error), f"{code_of(error)}: {error}", c.user_id)
                            for r, c in items]
                if len(items) > 1:
                    # Find the command that fails: halves, in order, so each person's order holds.
                    middle = len(items) // 2
                    return await self._apply(items[:middle]) + await self._apply(items[middle:])
                tries += 1
                if tries < self.TRIES:
                    log.warning("applying %s failed (%s); trying again", items[0][1].command_id, error)
                    continue
                log.exception("command %s fails every time: to the dead-letter topic", items[0][1].command_id)
                return [DeadLetter(items[0][0], code_of(error), f"{code_of(error)}: {type(error).__name__}: "
                                                               f"{error}", items[0][1].user_id)]
            if self.stalled is not None:
                log.warning("applying commands again after %.0fs", time.monotonic() - self.stalled[0])
                self.stalled = None
            return list(outcomes)

    def _alarm(self, error: BaseException, count: int, delay: float) -> None:
        if self.stalled is None:
            self.stalled = (time.monotonic(), f"{type(error).__name__}: {error}")
        since = time.monotonic() - self.stalled[0]
        # Each retry is noted; once it has lasted a while, loudly.
        level = logging.ERROR if since >= self.max_delay_s else logging.WARNING
        log.log(level, "applying %d commands failed for %.0fs (%s); retrying in %.1fs", count, since,
                error, delay)


def command_retention_ms(settings: Settings) -> int:
    return round(settings.command_retention_days * 24 * 60 * 60 * 1000)


def prepare_topics(settings: Settings) -> int:
    """The command, event and dead-letter topics, sized for what Lore writes; the number of
    partitions of the command and event topics, which must be equal, so that a worker owns the
    same people in both."""
    assert settings.kafka_bootstrap
    # Commands are kept by the broker's clock: a producer stamping an old time (CreateTime) would
    # otherwise have its commands deleted by retention before a worker applied them.
    # Commands and dead letters carry what people said in the clear: they are kept a bounded time
    # (LORE_COMMAND_RETENTION_DAYS), not forever like the event log, whose entries are sealed.
    commands = {**topic_config(settings.max_command_bytes), "message.timestamp.type": "LogAppendTime",
                "retention.ms": str(command_retention_ms(settings))}
    counts = {
        topic: ensure_topic(settings.kafka_access, topic, settings.kafka_partitions, config)
        for topic, config in (
            (settings.commands_topic, commands),
            (settings.events_topic, events_topic_config(settings.max_entry_bytes)),
            (settings.dead_letter_topic, commands),
        )
    }
    if counts[settings.commands_topic] != counts[settings.events_topic]:
        raise RuntimeError(
            f"{settings.commands_topic} has {counts[settings.commands_topic]} partitions and "
            f"{settings.events_topic} {counts[settings.events_topic]}: they must be equal, so that a "
            "worker owns the same users in both"
        )
    if settings.shard_count > counts[settings.commands_topic]:
        raise RuntimeError(
            f"LORE_NEO4J_SHARDS names {settings.shard_count} Neo4j instances, and {settings.commands_topic} "
            f"has {counts[settings.commands_topic]} partitions: a shard owns whole partitions, so there "
            "must be at least as many partitions as shards"
        )
    return counts[settings.commands_topic]


def worker_group(settings: Settings, shard: int | None) -> str:
    """The consumer group of the workers (of one shard's, when the graph is sharded)."""
    return settings.worker_group if shard is None else f"{settings.worker_group}.shard-{shard}"


def command_broker(settings: Settings, handler: CommandHandler | None, *, partitions: int = 0,
                   describe_only: bool = False, sealer: Sealer | None = None,
                   shard: int | None = None) -> tuple[KafkaBroker, CommandWorker | None]:
    """The Kafka side of Lore: publishers of commands and dead letters, and, given a handler, the
    worker's subscriber (and the worker). FastStream documents all of it (`lore asyncapi`, with
    `describe_only`: the subscriber is declared for the document and never started).

    `shard`: the worker applies only that shard's partitions (LORE_NEO4J_SHARDS), in a group of
    that shard's workers."""
    largest = settings.max_command_bytes + RECORD_OVERHEAD
    kafka = settings.kafka_access if settings.kafka_bootstrap else KafkaAccess("127.0.0.1:9092")
    broker = KafkaBroker(kafka.bootstrap, security=kafka.faststream(), client_id="lore",
                         log_level=logging.DEBUG, enable_idempotence=True, max_request_size=largest)
    commands = broker.publisher(
        settings.commands_topic, title="lore.commands",
        description="Commands for Lore, key = user_id. HTTP writes travel here too when Kafka is configured.",
        schema=CommandMessage,
    )
    dead_letters = broker.publisher(
        settings.dead_letter_topic, title="lore.commands.dlq",
        description="A command message that could not be parsed, validated or applied: its original "
        "bytes (sealed with the person's key when encryption is on) and key, with headers "
        f"{REASON_HEADER}, {CODE_HEADER} and "
        "lore.dlq.source.topic/partition/offset.",
        schema=bytes,
    )
    if handler is None and not describe_only:
        return broker, None
    worker = CommandWorker(handler, settings, partitions, sealer=sealer) if handler else None
    _subscribe(broker, settings, worker, commands, dead_letters, shard, largest)
    return broker, worker


def _subscribe(broker: KafkaBroker, settings: Settings, worker: CommandWorker | None,
               commands: DefaultPublisher, dead_letters: DefaultPublisher, shard: int | None,
               largest: int) -> None:
    """The worker's subscriber on lore.commands: a batch applied in order, then acknowledged; a
    batch that fails is consumed again after a growing pause."""
    handler = worker.handler if worker is not None else None
    failures = [0]  # batches in a row that could not be finished

    @broker.subscriber(
        settings.commands_topic, batch=True, group_id=worker_group(settings, shard),
        partition_assignment_strategy=(RoundRobinPartitionAssignor,) if shard is None
        else (shard_assignor(shard, settings.shard_count),),
        max_records=settings.worker_batch, batch_timeout_ms=50, auto_offset_reset="earliest",
        session_timeout_ms=settings.worker_session_timeout_ms,
        heartbeat_interval_ms=settings.worker_session_timeout_ms // 4,
        ack_policy=AckPolicy.MANUAL, listener=_Rebalance(handler) if handler else None,
        decoder=_raw_bodies, max_partition_fetch_bytes=largest,
        title="lore.commands:worker",
        description="Validates each command, applies the valid ones in order per user, and sends "
        "the others to lore.commands.dlq. A command on another partition than its user's is "
        "forwarded there.",
    )
    async def apply_commands(body: list[bytes], message: KafkaMessage) -> None:
        assert worker is not None, "a broker built to be described is never started"
        records = message.raw_message if isinstance(message.raw_message, tuple) else (message.raw_message,)
        try:
            batch = await asyncio.to_thread(worker.sort, records)
            for record, home, value in batch.misrouted:
                # One writer per person: their commands are applied where their key puts them.
                await commands.publish(value, key=record.key, partition=home, headers={
                    FORWARDED_HEADER: f"{record.topic}/{record.partition}/{record.offset}"})
            letters = batch.dead + await worker.apply(batch.valid)
            for letter in letters:
                DEAD_LETTERS.labels(letter.code).inc()
                log.warning("dead letter %s:%d@%d: %s", letter.record.topic, letter.record.partition,
                            letter.record.offset, letter.reason)
                value = await asyncio.to_thread(worker.letter_value, letter)
                await dead_letters.publish(value, key=letter.record.key, headers=letter.headers())
        except Exception:
            # The batch is consumed again: what was applied comes back as duplicates.
            failures[0] += 1
            delay = min(0.5 * 2 ** failures[0], 30.0)
            log.exception("a batch of %d commands will be consumed again in %.1fs", len(records), delay)
            await asyncio.sleep(delay)
            await message.nack()
            return
        failures[0] = 0
        await message.ack()

