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
"""

from __future__ import annotations

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
