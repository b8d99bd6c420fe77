"""The one place where events become bytes and back.

A stored event is never reinterpreted silently: an event whose shape changes gets a
higher `schema_version` and an upcaster here that lifts old payloads to the new shape.
Crypto-shredding: `seal_entry` and `open_entry` are what the logs store and read; a person's
entries are sealed with a key of theirs (domain/sealing.py), and open to nothing once it is destroyed.
Inside, the words of each item a purge can shred (domain/shredding.py) are sealed again with the
item's key: a token under `$sealed` in the event, with the paths it fills; once an item is purged,
its paths keep the placeholders written in their place.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import TypeAdapter

from domain.events import Event
from domain.sealing import Sealer, is_sealed, stays_clear
from domain.shredding import Part, Path, sealed_parts

_adapter: TypeAdapter[Event] = TypeAdapter(Event)
# Plain JSON values written by pydantic's serialiser (see _with_parts)
_json: TypeAdapter[Any] = TypeAdapter(Any)

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
    """The entry as the log keeps it: sealed with the person's key (with a sealer), the words of each
    item inside sealed again with the item's; an erasure, which holds nothing personal and must stay
    readable once the key is gone, stays clear."""
    if sealer is None or stays_clear(events):
        return entry
    parts = [sealed_parts(event) for event in events]
    if any(parts):
        entry = b"[" + b",".join(_with_parts(event, mine, sealer)
                                 for event, mine in zip(events, parts, strict=True)) + b"]"
    return sealer.seal(user_id, entry)


_MISSING = object()


def _get(payload: Any, path: Path) -> Any:
    for step in path:
        try:
            payload = payload[step]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return payload


def _put(payload: Any, path: Path, value: Any) -> None:
    for step in path[:-1]:
        payload = payload[step]
    payload[path[-1]] = value


def _with_parts(event: Event, parts: Sequence[Part], sealer: Sealer) -> bytes:
    if not parts:
        return encode(event)
    payload = event.model_dump(mode="json", exclude_none=True)
    tokens = []
    for part in parts:
        values = [_get(payload, path) for path in part.paths]
        if all(v is _MISSING for v in values):
            continue
        plain = _json.dump_json([None if v is _MISSING else v for v in values])
        tokens.append({**sealer.seal_part(event.user_id, part.items, plain), "p": list(part.paths)})
        for path, placeholder in zip(part.paths, part.placeholders, strict=True):
            _put(payload, path, placeholder)
    payload["$sealed"] = tokens
    # pydantic's serialiser, not json.dumps: the same JSON (UTF-8, shortest floats), and a vector's
    # 384 floats written several times faster (the live ingest seals every entry, bench/README)
    return _json.dump_json(payload)


def open_entries(raws: Sequence[bytes], sealer: Sealer | None) -> list[list[Event]]:
    """The events of many stored entries (a rebuild reads them so)."""
    return [open_entry(raw, sealer) for raw in raws]


def open_entry(raw: bytes, sealer: Sealer | None) -> list[Event]:
    """The events of a stored entry, sealed or plain; none when its person's key is destroyed."""
    if is_sealed(raw):
        if sealer is None:
            raise UnreadableEvent("a sealed entry, and no key store to open it (LORE_ENCRYPTION=off?)")
        plain = sealer.open(raw)
        if plain is None:
            return []
        raw = plain
        if b'"$sealed"' in raw:
            payloads = json.loads(raw)
            return [decode_payload(_opened(p, sealer)) for p in payloads]
    return decode_entry(raw)


def _opened(payload: dict[str, Any], sealer: Sealer) -> dict[str, Any]:
    """The payload with the words of its items put back where their keys still open them."""
    for token in payload.pop("$sealed", ()):
        plain = sealer.open_part(payload["user_id"], token)
        if plain is None:
            continue  # purged: the placeholders stay
        for path, value in zip(token["p"], json.loads(plain), strict=True):
            _put(payload, tuple(path), value)
    return payload


_entry_adapter: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
# An entry naming one of these types may hold a payload of an older shape, to be upcast first.
_UPCAST_TYPES = tuple(f'"{name}"'.encode() for name, _ in UPCASTERS)


def decode_entry(raw: bytes | str) -> list[Event]:
    data = raw.encode() if isinstance(raw, str) else raw
    if data[:1] == b"[" and not any(name in data for name in _UPCAST_TYPES):
        # Straight from the bytes to the events: pydantic parses the JSON itself (no dicts between).
        try:
            return _entry_adapter.validate_json(data)
        except ValueError:
            pass  # said below, with the reason json gives
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
