"""The embedded event log: one SQLite file, no server needed. One partition."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from lore.domain import codec
from lore.domain.stored import Decided, StoredEvent

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    position   INTEGER PRIMARY KEY,
    user_id    TEXT NOT NULL,
    command_id TEXT NOT NULL,
    payload    BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (command_id TEXT PRIMARY KEY) WITHOUT ROWID;
"""


# SQLite numbers rows from 1; log positions, like Kafka offsets, start at 0 with no gaps.
_FIRST_ROWID = 1


class SqliteEventLog:
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        stored: list[StoredEvent] = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for decided in batch:
                    fresh = self._db.execute(
                        "INSERT OR IGNORE INTO commands(command_id) VALUES (?)", (decided.command_id,)
                    ).rowcount
                    if not fresh:
                        continue
                    for event in decided.events:
                        cursor = self._db.execute(
                            "INSERT INTO events(user_id, command_id, payload) VALUES (?, ?, ?)",
                            (decided.user_id, decided.command_id, codec.encode(event)),
                        )
                        assert cursor.lastrowid is not None
                        stored.append(StoredEvent(0, cursor.lastrowid - _FIRST_ROWID, event))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return stored

    def read(self, start: dict[int, int], batch_size: int = 10_000) -> Iterator[list[StoredEvent]]:
        after = start.get(0, -1) + _FIRST_ROWID
        last = self.end()[0] + _FIRST_ROWID
        while after < last:
            with self._lock:
                rows = self._db.execute(
                    "SELECT position, payload FROM events WHERE position > ? AND position <= ? "
                    "ORDER BY position LIMIT ?",
                    (after, last, batch_size),
                ).fetchall()
            if not rows:
                return
            yield [StoredEvent(0, rowid - _FIRST_ROWID, codec.decode(payload)) for rowid, payload in rows]
            after = rows[-1][0]

    def end(self) -> dict[int, int]:
        with self._lock:
            (last,) = self._db.execute("SELECT max(position) FROM events").fetchone()
        return {0: -1 if last is None else int(last) - _FIRST_ROWID}

    def count(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT count(*) FROM events").fetchone()
        return int(n)

    def ping(self) -> None:
        with self._lock:
            self._db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        self._db.close()
