"""Crypto-shredding: a person's log entries sealed with a key of theirs (AES-256-GCM).

A sealed entry is the whole plain entry (codec.encode_entry) encrypted, behind a short clear
header that says whose it is and with which of their keys:

    MAGIC | len(user_id) (2 bytes, big-endian) | user_id | key_id (16) | nonce (12) | ciphertext+tag

The header is the associated data, so an entry cannot be passed off as another person's or
another key's. A plain entry is JSON and starts with `[` or `{`, never with MAGIC's NUL byte: a
log may hold both (one written before encryption, or an erasure, which is kept clear).

Keys live outside the log, behind `Keyring`. Erasing a person destroys every key of theirs: their
entries then open to nothing. A person who comes back after an erasure gets a new key (a new
key_id); what they wrote before stays unreadable.

Purging one memory shreds at a finer grain. Inside an entry, the words of each item (a memory, a
turn, a summary, the profile: domain/shredding.py) are sealed again, with the item's key: HMAC of
the person's current *item root* and the item's name, so that no key is stored per item. A purge
stores the keys of the person's other items (by a lookup id from root and item, with a tag of the
item so that a later purge finds them), then destroys the root: what the purged items sealed
opens no more, everything else opens as before. Items sealed after it take a new root.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import struct
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from domain.events import Event, UserErased

MAGIC = b"\x00LS1"
KEY_ID_BYTES = 16
SECRET_BYTES = 32  # AES-256
NONCE_BYTES = 12
_LENGTH = struct.Struct(">H")


@dataclass(frozen=True)
class PersonKey:
    key_id: bytes
    secret: bytes = b""

    @staticmethod
    def new() -> PersonKey:
        return PersonKey(os.urandom(KEY_ID_BYTES), AESGCM.generate_key(bit_length=SECRET_BYTES * 8))


class Keyring(Protocol):
    """Where people's keys are kept: outside the log, and able to forget them for good."""

    def find(self, user_id: str, key_id: bytes) -> bytes | None:
        """The secret of that key of the person's; None once destroyed (or never made)."""

    def current(self, user_id: str) -> PersonKey:
        """The key the person's new entries are sealed with, made on first use."""

    def destroy(self, user_id: str) -> None:
        """Forget every key of the person's: what they sealed can never be opened again."""

    def prepare(self, user_ids: Collection[str]) -> None:
        """Make the keys these people have not got yet, in one write (a batch's first entries)."""

    def item_root(self, user_id: str) -> PersonKey:
        """The root the person's items are sealed under now, made on first use."""

    def find_item_key(self, user_id: str, key_id: bytes) -> bytes | None:
        """A root's secret, or an item key a purge kept, by its id; None once destroyed."""

    def shred_items(self, user_id: str, root_id: bytes, keep: dict[bytes, tuple[bytes, bytes]],
                    forget: Collection[bytes]) -> None:
        """Store the kept item keys (lookup id -> (item tag, key)), destroy every kept key whose item
        tag is in `forget`, and destroy the root `root_id`, in that order."""


def item_key(root: bytes, item: str) -> bytes:
    return hmac.digest(root, b"lore-item\x00" + item.encode(), "sha256")


def kept_key_id(root_id: bytes, item: str) -> bytes:
    """Where a purge keeps an item's key of a destroyed root."""
    return hashlib.sha256(root_id + b"\x00" + item.encode()).digest()[:KEY_ID_BYTES]


def item_tag(item: str) -> bytes:
    """Names an item among kept keys, whatever the root, so that a purge forgets all of its keys."""
    return hashlib.sha256(b"lore-tag\x00" + item.encode()).digest()[:KEY_ID_BYTES]


def _part_key(keys: Sequence[bytes]) -> bytes:
    """One item's key, or for words of several items one that needs them all."""
    return keys[0] if len(keys) == 1 else hashlib.sha256(b"".join(keys)).digest()


def _part_data(user_id: str, items: Sequence[str]) -> bytes:
    return "\x00".join([user_id, *items]).encode()


class UnreadableEntry(ValueError):
    """A sealed entry that is damaged or forged (not one whose key was destroyed)."""


def stays_clear(events: Sequence[Event]) -> bool:
    """An erasure holds nothing personal, and must still be read once the key is gone: a
    replay then erases what the projection has of the person."""
    return bool(events) and all(isinstance(event, UserErased) for event in events)


def is_sealed(raw: bytes) -> bool:
    return raw[:len(MAGIC)] == MAGIC


def _header(user_id: str, key_id: bytes) -> bytes:
    user = user_id.encode()
    return MAGIC + _LENGTH.pack(len(user)) + user + key_id


def _split(raw: bytes) -> tuple[str, bytes, bytes, bytes, bytes]:
    """user_id, key_id, header (the associated data), nonce, ciphertext."""
    at = len(MAGIC)
    if len(raw) < at + _LENGTH.size:
        raise UnreadableEntry("a sealed entry too short for its header")
    (length,) = _LENGTH.unpack_from(raw, at)
    at += _LENGTH.size
    user = raw[at:at + length]
    at += length
    key_id = raw[at:at + KEY_ID_BYTES]
    at += KEY_ID_BYTES
    nonce = raw[at:at + NONCE_BYTES]
    if len(nonce) != NONCE_BYTES:
        raise UnreadableEntry("a sealed entry too short for its header")
    return user.decode(), key_id, raw[:at], nonce, raw[at + NONCE_BYTES:]


def sealed_bound(plain_bytes: int) -> int:
    """The most bytes a sealed entry of `plain_bytes` plain ones takes: the words of its items
    sealed again travel in base64 (4/3), with their items' names and paths beside them."""
    return plain_bytes * 3 // 2 + 256 * 1024


def owner(raw: bytes) -> str:
    """Whose sealed entry this is (no key needed)."""
    return _split(raw)[0]


class Sealer:
    """Seals and opens entries with the keys of a `Keyring`, keeping the ciphers it made."""

    def __init__(self, keyring: Keyring, cached_ciphers: int = 10_000) -> None:
        self.keyring = keyring
        self._ciphers: dict[tuple[str, bytes], AESGCM] = {}
        self._cached = cached_ciphers

    def seal(self, user_id: str, entry: bytes) -> bytes:
        key = self.keyring.current(user_id)
        header = _header(user_id, key.key_id)
        nonce = os.urandom(NONCE_BYTES)  # random 96-bit nonces: safe far beyond a person's entries
        return header + nonce + self._cipher(user_id, key.key_id, key.secret).encrypt(nonce, entry, header)

    def open(self, raw: bytes) -> bytes | None:
        """The plain entry; None when its key is destroyed (the person was erased)."""
        user_id, key_id, header, nonce, sealed = _split(raw)
        cipher = self._ciphers.get((user_id, key_id))
        if cipher is None:
            secret = self.keyring.find(user_id, key_id)
            if secret is None:
                return None
            cipher = self._cipher(user_id, key_id, secret)
        try:
            return cipher.decrypt(nonce, sealed, header)
        except InvalidTag as error:
            raise UnreadableEntry(f"a sealed entry of {user_id!r} fails its authentication") from error

    def seal_part(self, user_id: str, items: Sequence[str], plain: bytes) -> dict[str, object]:
        """Words of `items`, sealed under their keys: a token that names the root and the items."""
        root = self.keyring.item_root(user_id)
        key = _part_key([item_key(root.secret, i) for i in items])
        nonce = os.urandom(NONCE_BYTES)
        sealed = AESGCM(key).encrypt(nonce, plain, _part_data(user_id, items))
        return {"r": root.key_id.hex(), "i": list(items), "c": base64.b64encode(nonce + sealed).decode()}

    def open_part(self, user_id: str, token: dict[str, object]) -> bytes | None:
        """The words a token sealed; None when a key of one of its items is destroyed (purged)."""
        root_id = bytes.fromhex(str(token["r"]))
        items = [str(i) for i in token["i"]]  # type: ignore[attr-defined]
        root = self.keyring.find_item_key(user_id, root_id)
        keys = []
        for item in items:
            key = item_key(root, item) if root is not None else self.keyring.find_item_key(
                user_id, kept_key_id(root_id, item))
            if key is None:
                return None
            keys.append(key)
        raw = base64.b64decode(str(token["c"]))
        try:
            return AESGCM(_part_key(keys)).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:],
                                                   _part_data(user_id, items))
        except InvalidTag as error:
            raise UnreadableEntry(f"sealed words of {user_id!r} fail their authentication") from error

    def shred(self, user_id: str, purged: Collection[str], live: Collection[str]) -> None:
        """Make the words of the `purged` items unreadable for good, the `live` ones staying readable."""
        root = self.keyring.item_root(user_id)
        keep = {kept_key_id(root.key_id, item): (item_tag(item), item_key(root.secret, item))
                for item in set(live) - set(purged)}
        self.keyring.shred_items(user_id, root.key_id, keep, {item_tag(item) for item in purged})

    def destroy(self, user_id: str) -> None:
        """Destroy every key of the person's, and the ciphers made of them here."""
        self.keyring.destroy(user_id)
        for cached in [k for k in self._ciphers if k[0] == user_id]:
            del self._ciphers[cached]

    def _cipher(self, user_id: str, key_id: bytes, secret: bytes) -> AESGCM:
        cipher = self._ciphers.get((user_id, key_id))
        if cipher is None:
            if len(self._ciphers) >= self._cached:
                self._ciphers.clear()
            cipher = self._ciphers[(user_id, key_id)] = AESGCM(secret)
        return cipher
