"""The key-store port: a `Keyring` (domain/sealing.py) that can be closed, and where it lives."""

from __future__ import annotations

from typing import Protocol

from domain.sealing import Keyring


class KeyStore(Keyring, Protocol):
    name: str

    def close(self) -> None: ...
