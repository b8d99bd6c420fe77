"""The one place where events become bytes and back.

A stored event is never reinterpreted silently: an event whose shape changes gets a
higher `schema_version` and an upcaster here that lifts old payloads to the new shape.
Crypto-shredding: `seal_entry` and `open_entry` are what the logs store and read; a person's
entries are sealed with a key of theirs (domain/sealing.py), and open to nothing once it is destroyed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import TypeAdapter

from domain.events import Event
from domain.sealing import Sealer, is_sealed, stays_clear

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


def seal_entry(user_id: str, events: Sequence[Event], entry: bytes, sealer: Sealer | None) -> bytes:
    """The entry as the log keeps it: sealed with the person's key (with a sealer), except an
    erasure, which holds nothing personal and must stay readable once the key is gone."""
    if sealer is None or stays_clear(events):
        return entry
    return sealer.seal(user_id, entry)


def open_entry(raw: bytes, sealer: Sealer | None) -> list[Event]:
    """The events of a stored entry, sealed or plain; none when its person's key is destroyed."""
    if is_sealed(raw):
        if sealer is None:
            raise UnreadableEvent("a sealed entry, and no key store to open it (LORE_ENCRYPTION=off?)")
        plain = sealer.open(raw)
        if plain is None:
            return []
        raw = plain
    return decode_entry(raw)


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
