"""API keys in a SQLite file of their own (`.lore/api-keys.sqlite3`), for one server."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from domain.access import ApiKey
from infra.apikeys.codec import dump_key, load_key


class SqliteApiKeyStore:
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("CREATE TABLE IF NOT EXISTS api_keys (key_id TEXT PRIMARY KEY, "
                         "record BLOB NOT NULL)")

    def find(self, key_id: str) -> ApiKey | None:
        with self._lock:
            row = self._db.execute("SELECT record FROM api_keys WHERE key_id = ?", (key_id,)).fetchone()
        return None if row is None else load_key(row[0])

    def add(self, key: ApiKey) -> None:
        with self._lock:
            self._db.execute("INSERT INTO api_keys VALUES (?, ?)", (key.key_id, dump_key(key)))

    def revoke(self, key_id: str) -> bool:
        with self._lock:
            return self._db.execute("DELETE FROM api_keys WHERE key_id = ?", (key_id,)).rowcount > 0

    def all(self) -> list[ApiKey]:
        with self._lock:
            rows = self._db.execute("SELECT record FROM api_keys ORDER BY rowid").fetchall()
        return [load_key(row[0]) for row in rows]

    def close(self) -> None:
        self._db.close()
