"""The one place where events become bytes and back.

A stored event is never reinterpreted silently: an event whose shape changes gets a
higher `schema_version` and an upcaster here that lifts old payloads to the new shape.
Crypto-shredding (encrypting a person's content with a key of theirs) slots in here too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import TypeAdapter

from domain.events import Event

_adapter: TypeAdapter[Event] = TypeAdapter(Event)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
# (event type, stored schema_version) -> function returning the payload one version up.
def _episode_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """v1 episodes were recorded before messages had vectors: they have none."""
    return {**payload, "schema_version": 2, "embeddings": []}


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("EpisodeRecorded", 1): _episode_v1_to_v2,
}


class UnreadableEvent(ValueError):
    pass


def encode(event: Event) -> bytes:
    return event.model_dump_json(exclude_none=True).encode()


def encode_entry(events: Sequence[Event]) -> bytes:
    """The events of one command as one log entry: a JSON array, written and read whole."""
    return b"[" + b",".join(encode(event) for event in events) + b"]"


def decode_entry(raw: bytes | str) -> list[Event]:
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UnreadableEvent(f"not JSON: {exc}") from exc
    # An entry written before entries held lists is a single event.
    return [decode_payload(p) for p in (payload if isinstance(payload, list) else [payload])]


def decode(raw: bytes | str) -> Event:
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UnreadableEvent(f"not JSON: {exc}") from exc
    return decode_payload(payload)


def decode_payload(payload: dict[str, Any]) -> Event:
    payload = upcast(payload)
    return _adapter.validate_python(payload)


def upcast(payload: dict[str, Any]) -> dict[str, Any]:
    while (step := UPCASTERS.get((payload.get("type", ""), payload.get("schema_version", 1)))):
        payload = step(payload)
    return payload
