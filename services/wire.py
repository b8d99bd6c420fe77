"""Commands as producers send them to `lore.commands`, and how a message becomes a command.

    {"type": "RecordMemory", "command_id": "...", "user_id": "...",
     "occurred_at": "2026-03-01T09:00:00Z", "payload": {"content": "...", ...}}

Every way a message can be wrong ends in `BadCommand`, whose reason names the field.

What Lore publishes itself (HTTP writes in Kafka mode, maintenance runs, re-extractions, dead
letters) is sealed with the person's key when encryption is on (domain/sealing.py): the command
topic and the dead-letter topic then hold a person's words no longer than their key lives. A
producer of its own may send plain JSON; a worker reads both.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from domain.access import DEFAULT_TENANT, TENANT_PATTERN, person_id, split_person
from domain.commands import Command, Identifier, UtcDatetime, command_adapter
from domain.sealing import Sealer, UnreadableEntry, is_sealed, owner

CommandType = Literal["RecordMemory", "RecordEpisode", "ForgetMemory", "RestoreMemory", "EraseUser",
                      "EndSession", "ExtractEpisode", "RecordExtraction", "RecordSummary", "RecordProfile",
                      "CompleteTodo", "ReopenTodo", "ConfigureUser", "MaintainMemory", "GiveFeedback",
                      "ReplaceEmbeddings", "RecordUse", "PurgeMemory", "ForgetTopic",
                      "ReviseMemories"]


class CommandMessage(BaseModel):
    """One command on `lore.commands` (key = user_id)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{
            "type": "RecordMemory", "command_id": "crm-1842", "user_id": "ada",
            "occurred_at": "2026-03-01T09:00:00Z",
            "payload": {"content": "Ada's favourite colour is green", "kind": "preference",
                        "attribute": "favorite_color", "value": "green"},
        }]},
    )

    type: CommandType
    command_id: Identifier = Field(description="Chosen by the producer; the same id takes effect once.")
    user_id: Identifier = Field(description="Whose memory, as their tenant knows them.")
    tenant: str = Field(default=DEFAULT_TENANT, pattern=TENANT_PATTERN,
                        description="The tenant the person lives in. The message key is `user_id` in "
                        "the default tenant, else `tenant/user_id`.")
    occurred_at: UtcDatetime | None = Field(
        default=None, description="When it happened; defaults to the message's timestamp."
    )
    payload: dict[str, Any] = Field(
        default_factory=dict, description="The command's own fields (see the HTTP API's request bodies)."
    )


class BadCommand(ValueError):
    """A message that is not a valid command; `reason` says why, naming the field."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SealedUnreadable(ValueError):
    """A sealed message that cannot be opened here; `code` says why (for the dead letter)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = f"{code}: {reason}"


def describe(error: ValidationError, prefix: str = "") -> str:
    """Pydantic's errors as one line a person can act on: `payload.content: Field required`."""
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"] if p not in _UNION_TAGS)
        parts.append(f"{prefix}{where}: {item['msg']}" if where else item["msg"])
    return "; ".join(parts)


_UNION_TAGS = set(get_args(CommandType))


def parse_command(raw: bytes | None, *, max_bytes: int, received_at: datetime) -> Command:
    """The command a message holds; `received_at` stands in for a missing `occurred_at`."""
    if raw is None:
        raise BadCommand("empty message (no value)")
    if len(raw) > max_bytes:
        raise BadCommand(f"message too large: {len(raw):,} bytes, a command may have {max_bytes:,}")
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadCommand(f"not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise BadCommand(f"a command is a JSON object, not {type(data).__name__}")
    try:
        message = CommandMessage.model_validate(data)
    except ValidationError as exc:
        raise BadCommand(describe(exc)) from exc
    fields = {**message.payload, "type": message.type, "command_id": message.command_id,
              "user_id": person_id(message.tenant, message.user_id),
              "occurred_at": message.occurred_at or received_at}
    try:
        return command_adapter.validate_python(fields)
    except ValidationError as exc:
        raise BadCommand(describe(exc, "payload.")) from exc


def to_message(command: Command) -> bytes:
    """The message a command travels as: what `parse_command` reads back."""
    body = command.model_dump(mode="json", exclude_none=True)
    envelope = {key: body.pop(key) for key in ("type", "command_id", "user_id", "occurred_at")}
    tenant, envelope["user_id"] = split_person(envelope["user_id"])
    if tenant != DEFAULT_TENANT:
        envelope["tenant"] = tenant
    return json.dumps({**envelope, "payload": body}, ensure_ascii=False).encode()


def seal_message(user_id: str, message: bytes, sealer: Sealer | None) -> bytes:
    """The message as Lore publishes it: sealed with the person's key when encryption is on (a
    message sealed already stays as it is)."""
    if sealer is None or is_sealed(message):
        return message
    return sealer.seal(user_id, message)


def to_sealed_message(command: Command, sealer: Sealer | None) -> bytes:
    return seal_message(command.user_id, to_message(command), sealer)


def open_message(raw: bytes | None, sealer: Sealer | None) -> tuple[bytes | None, str | None]:
    """The plain message and, when it came sealed, the person it was sealed for; a plain message
    comes back as it is. Raises `SealedUnreadable` when it cannot be opened here."""
    if raw is None or not is_sealed(raw):
        return raw, None
    try:
        person = owner(raw)
    except (UnreadableEntry, UnicodeDecodeError) as exc:
        raise SealedUnreadable("bad_command", f"a damaged sealed message: {exc}") from exc
    if sealer is None:
        raise SealedUnreadable("sealed", f"sealed with a key of {person!r}, and this worker runs with "
                               "LORE_ENCRYPTION=off: it holds no keys to open it")
    try:
        plain = sealer.open(raw)
    except UnreadableEntry as exc:
        raise SealedUnreadable("bad_command", str(exc)) from exc
    if plain is None:
        raise SealedUnreadable("key_destroyed", f"sealed with a key of {person!r} that their erasure "
                               "destroyed: no one can read it any more")
    return plain, person
