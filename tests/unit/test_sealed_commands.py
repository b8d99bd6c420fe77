"""Commands and dead letters sealed with their person's key: a worker opens what Lore's own
publishers sealed, still reads a producer's plain JSON, dead-letters what it cannot open with
the reason, and seals the dead letters and forwarded commands it publishes itself."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from aiokafka import ConsumerRecord

from domain.commands import RecordMemory
from domain.sealing import Sealer, is_sealed
from infra.eventlog.kafka import key_partition
from infra.settings import Settings
from services.wire import SealedUnreadable, open_message, seal_message, to_message, to_sealed_message
from services.worker import CommandWorker
from tests.unit.test_sealing import MemoryKeyring

T = datetime(2026, 3, 1, tzinfo=UTC)
PARTITIONS = 4
MARKER = "quillwort"


def command(user: str = "ada", n: int = 0) -> RecordMemory:
    return RecordMemory(command_id=f"c{n}", user_id=user, occurred_at=T, content=f"grows {MARKER} {n}")


def record(value: bytes, user: str = "ada", partition: int | None = None, offset: int = 0) -> ConsumerRecord:
    at = key_partition(user, PARTITIONS) if partition is None else partition
    return ConsumerRecord("lore.commands", at, offset, int(T.timestamp() * 1000), 0, user.encode(), value,
                          None, 3, len(value), [])


def worker(sealer: Sealer | None) -> CommandWorker:
    return CommandWorker(None, Settings(), PARTITIONS, sealer=sealer)  # type: ignore[arg-type]


def test_a_sealed_command_shows_nothing_in_the_clear_and_opens_to_the_same_message() -> None:
    sealer = Sealer(MemoryKeyring())
    sealed = to_sealed_message(command(), sealer)
    assert is_sealed(sealed) and MARKER.encode() not in sealed
    assert open_message(sealed, sealer) == (to_message(command()), "ada")
    assert seal_message("ada", sealed, sealer) == sealed  # sealed once, not twice
    assert to_sealed_message(command(), None) == to_message(command())  # encryption off: plain


def test_the_worker_applies_sealed_and_plain_commands_alike() -> None:
    sealer = Sealer(MemoryKeyring())
    batch = worker(sealer).sort([record(to_sealed_message(command(n=0), sealer), offset=0),
                                 record(to_message(command(n=1)), offset=1)])
    assert [c.command_id for _, c in batch.valid] == ["c0", "c1"] and batch.dead == []


def test_a_command_sealed_with_a_destroyed_key_is_dead_lettered_as_key_destroyed() -> None:
    sealer = Sealer(MemoryKeyring())
    sealed = to_sealed_message(command(), sealer)
    sealer.destroy("ada")
    batch = worker(sealer).sort([record(sealed)])
    (letter,) = batch.dead
    assert letter.code == "key_destroyed" and "erasure" in letter.reason and batch.valid == []
    # The letter is the sealed message as it came: it holds nothing anyone can read.
    assert worker(sealer).letter_value(letter) == sealed


def test_a_sealed_command_reaching_a_worker_without_keys_says_so() -> None:
    sealed = to_sealed_message(command(), Sealer(MemoryKeyring()))
    (letter,) = worker(None).sort([record(sealed)]).dead
    assert letter.code == "sealed" and "LORE_ENCRYPTION=off" in letter.reason


def test_a_command_sealed_for_one_person_naming_another_is_refused() -> None:
    sealer = Sealer(MemoryKeyring())
    forged = seal_message("ada", to_message(command(user="bob")), sealer)
    (letter,) = worker(sealer).sort([record(forged, user="bob")]).dead
    assert letter.code == "bad_command" and "'ada'" in letter.reason and "'bob'" in letter.reason


def test_a_damaged_sealed_command_is_a_bad_command() -> None:
    sealer = Sealer(MemoryKeyring())
    sealed = bytearray(to_sealed_message(command(), sealer))
    sealed[-1] ^= 1
    (letter,) = worker(sealer).sort([record(bytes(sealed))]).dead
    assert letter.code == "bad_command" and "authentication" in letter.reason


def test_dead_letters_the_worker_publishes_are_sealed_for_their_person() -> None:
    sealer = Sealer(MemoryKeyring())
    poison = json.dumps({"type": "RecordMemory", "user_id": "ada", "payload": {"content": MARKER}}).encode()
    (letter,) = worker(sealer).sort([record(poison)]).dead
    value = worker(sealer).letter_value(letter)
    assert letter.code == "bad_command" and MARKER.encode() not in value
    assert open_message(value, sealer) == (poison, "ada")  # for `lore dlq replay`: it opens again
    assert worker(None).letter_value(letter) == poison  # encryption off: as it came


def test_a_forwarded_command_is_sealed_too() -> None:
    sealer = Sealer(MemoryKeyring())
    home = key_partition("ada", PARTITIONS)
    stray = record(to_message(command()), partition=(home + 1) % PARTITIONS)
    ((_, to, value),) = worker(sealer).sort([stray]).misrouted
    assert to == home and open_message(value, sealer) == (to_message(command()), "ada")


def test_a_plain_message_opens_to_itself_with_no_owner() -> None:
    assert open_message(b'{"x": 1}', None) == (b'{"x": 1}', None)
    with pytest.raises(SealedUnreadable):
        open_message(b"\x00LS1\x00", Sealer(MemoryKeyring()))
