"""The API-key store port: keys by id, kept hashed, outside the event log (a key is not a memory,
and a rebuild of the graph must not lose them)."""

from __future__ import annotations

from typing import Protocol

from domain.access import ApiKey


class ApiKeyStore(Protocol):
    name: str

    def find(self, key_id: str) -> ApiKey | None: ...

    def add(self, key: ApiKey) -> None: ...

    def revoke(self, key_id: str) -> bool:
        """Remove the key; False when there was none of that id."""

    def all(self) -> list[ApiKey]: ...

    def close(self) -> None: ...
