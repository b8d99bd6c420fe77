"""The embedded event log: one SQLite file, no server needed. One partition.

One row per command: its events as one entry, so that they are appended, read and replayed
together. A command id is unique, so the same command never enters the log twice.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from domain import codec
from domain.stored import Decided, StoredEvent

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    position   INTEGER PRIMARY KEY,
    user_id    TEXT NOT NULL,
    command_id TEXT NOT NULL UNIQUE,
    events     INTEGER NOT NULL,
    payload    BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('log_id', ?)", (f"sqlite:{uuid.uuid4()}",))
        (self.log_id,) = self._db.execute("SELECT value FROM meta WHERE key = 'log_id'").fetchone()

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        stored: list[StoredEvent] = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for decided in batch:
                    cursor = self._db.execute(
                        "INSERT OR IGNORE INTO entries(user_id, command_id, events, payload) "
                        "VALUES (?, ?, ?, ?)",
                        (decided.user_id, decided.command_id, len(decided.events),
                         codec.encode_entry(decided.events)),
                    )
                    if not cursor.rowcount:
                        continue
                    assert cursor.lastrowid is not None
                    position = cursor.lastrowid - _FIRST_ROWID
                    stored.extend(StoredEvent(0, position, event) for event in decided.events)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return stored

    def read(self, start: dict[int, int], batch_size: int = 10_000,
             partitions: Collection[int] | None = None) -> Iterator[list[StoredEvent]]:
        if partitions is not None and 0 not in partitions:
            return
        after = start.get(0, -1) + _FIRST_ROWID
        last = self.end()[0] + _FIRST_ROWID
        while after < last:
            with self._lock:
                rows = self._db.execute(
                    "SELECT position, payload FROM entries WHERE position > ? AND position <= ? "
                    "ORDER BY position LIMIT ?",
                    (after, last, batch_size),
                ).fetchall()
            if not rows:
                return
            yield [StoredEvent(0, rowid - _FIRST_ROWID, event)
                   for rowid, payload in rows for event in codec.decode_entry(payload)]
            after = rows[-1][0]

    def end(self) -> dict[int, int]:
        with self._lock:
            (last,) = self._db.execute("SELECT max(position) FROM entries").fetchone()
        return {0: -1 if last is None else int(last) - _FIRST_ROWID}

    def count(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT count(*) FROM entries").fetchone()
        return int(n)

    def ping(self) -> None:
        with self._lock:
            self._db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        self._db.close()
