"""Kafka command messages: every way a message can be wrong is named; a good one round-trips."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from domain.commands import EraseUser, ForgetMemory, RecordMemory
from services.wire import BadCommand, parse_command, to_message

NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def parse(raw: bytes, max_bytes: int = 10_000):
    return parse_command(raw, max_bytes=max_bytes, received_at=NOW)


def message(**fields: object) -> bytes:
    base: dict[str, object] = {"type": "RecordMemory", "command_id": "c-1", "user_id": "ada",
                               "payload": {"content": "likes tea"}}
    base.update(fields)
    return json.dumps(base).encode()


@pytest.mark.parametrize(("raw", "reason"), [
    (b"{oops", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b'"a string"', "a command is a JSON object, not str"),
    (message(type="PlantTree"), "type: Input should be"),
    (message(command_id=None), "command_id: Input should be a valid string"),
    (json.dumps({"type": "RecordMemory", "user_id": "ada", "payload": {}}).encode(),
     "command_id: Field required"),
    (message(payload={}), "payload.content: Field required"),
    (message(payload={"content": "x", "importance": "high"}), "payload.importance"),
    (message(payload={"content": "x", "kind": "opinion"}), "payload.kind"),
    (message(payload={"content": "x", "surprise": 1}), "payload.surprise: Extra inputs"),
    (message(user_id="has spaces"), "user_id: String should match pattern"),
    (message(extra="field"), "extra: Extra inputs are not permitted"),
    (message(payload={"content": "x", "entities": ["e"] * 51}), "payload.entities: Tuple should have"),
    (message(payload={"content": "x", "entities": ["e" * 201]}), "payload.entities.0: String should have"),
    (message(payload={"content": "x", "episode_id": "a b"}), "payload.episode_id: String should match"),
    (message(payload={"content": "x", "episode_id": "e" * 201}), "payload.episode_id: String should have"),
])
def test_a_bad_message_is_refused_with_a_reason_that_names_the_problem(raw: bytes, reason: str) -> None:
    with pytest.raises(BadCommand) as refused:
        parse(raw)
    assert reason in refused.value.reason


def test_a_message_larger_than_the_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(BadCommand, match="message too large: 20,0.. bytes, a command may have 1,024"):
        parse(message(payload={"content": "x" * 20_000}), max_bytes=1024)


def test_an_empty_message_is_refused() -> None:
    with pytest.raises(BadCommand, match="empty message"):
        parse_command(None, max_bytes=100, received_at=NOW)


def test_occurred_at_defaults_to_when_the_message_was_received() -> None:
    assert parse(message()).occurred_at == NOW
    stated = parse(message(occurred_at="2026-01-02T03:04:05+02:00"))
    assert stated.occurred_at == datetime(2026, 1, 2, 1, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize("command", [
    RecordMemory(command_id="r", user_id="ada", occurred_at=NOW, content="works at Globex",
                 kind="fact", attribute="employer", value="Globex", entities=("Globex",),
                 valid_from=datetime(2025, 1, 1, tzinfo=UTC)),
    ForgetMemory(command_id="f", user_id="ada", occurred_at=NOW, memory_id="m-1", reason="asked"),
    EraseUser(command_id="e", user_id="ada", occurred_at=NOW),
])
def test_a_command_survives_the_trip_through_a_message(command: object) -> None:
    assert parse(to_message(command)) == command  # type: ignore[arg-type]


def test_an_episode_longer_than_an_episode_may_be_is_refused_naming_its_messages() -> None:
    long = message(type="RecordEpisode", payload={"session_id": "s", "messages": [
        {"role": "user", "content": "m" * 50_000}] * 21})
    with pytest.raises(BadCommand) as refused:
        parse(long, max_bytes=4 * 1024 * 1024)
    reason = refused.value.reason
    assert "payload.messages: Value error, an episode holds at most 1,000,000 characters" in reason


def test_every_command_of_the_domain_travels_on_kafka() -> None:
    """The message's `type` names every command the domain knows: none is refused at the door."""
    from typing import get_args

    from domain.commands import Command
    from services.wire import CommandType

    types = get_args(get_args(Command)[0])
    assert set(get_args(CommandType)) == {get_args(t.model_fields["type"].annotation)[0] for t in types}
