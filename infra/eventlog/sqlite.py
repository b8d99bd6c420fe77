"""The embedded event log: one SQLite file, no server needed. One partition.

One row per command: its events as one entry, so that they are appended, read and replayed
together. A command id is unique per person, so the same command never enters the log twice,
and two people choosing the same id never collide.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path

from domain.access import DEFAULT_TENANT, TENANT_SEPARATOR, People
from domain.sealing import Keyring
from domain.stored import Decided, StoredEvent
from infra.eventlog.port import PeopleRead
from infra.eventlog.sealed import EntrySealing

_ENTRIES = """
CREATE TABLE IF NOT EXISTS {name} (
    position   INTEGER PRIMARY KEY,
    user_id    TEXT NOT NULL,
    command_id TEXT NOT NULL,
    events     INTEGER NOT NULL,
    payload    BLOB NOT NULL,
    UNIQUE (user_id, command_id)
);
"""
_SCHEMA = _ENTRIES.format(name="entries") + """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS entries_by_user ON entries (user_id, position);
"""
# Logs written before command ids were scoped to their person held them unique on their own.
_GLOBAL_COMMAND_IDS = "command_id TEXT NOT NULL UNIQUE"


# SQLite numbers rows from 1; log positions, like Kafka offsets, start at 0 with no gaps.
_FIRST_ROWID = 1


class SqliteEventLog:
    name = "sqlite"

    def __init__(self, path: Path, keys: Keyring | None = None) -> None:
        """`keys`: seal each person's entries with their key (None: entries are written plain)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._sealing = EntrySealing(keys)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._scope_command_ids_to_their_person()
        self._db.executescript(_SCHEMA)
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('log_id', ?)", (f"sqlite:{uuid.uuid4()}",))
        (self.log_id,) = self._db.execute("SELECT value FROM meta WHERE key = 'log_id'").fetchone()

    def _scope_command_ids_to_their_person(self) -> None:
        """Rewrite a log of an earlier version, positions and entries unchanged."""
        found = self._db.execute("SELECT sql FROM sqlite_master WHERE name = 'entries'").fetchone()
        if not found or _GLOBAL_COMMAND_IDS not in found[0]:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(_ENTRIES.format(name="entries_scoped"))
            self._db.execute("INSERT INTO entries_scoped SELECT position, user_id, command_id, events, "
                             "payload FROM entries")
            self._db.execute("DROP TABLE entries")
            self._db.execute("ALTER TABLE entries_scoped RENAME TO entries")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        stored: list[StoredEvent] = []
        for segment in self._sealing.segments(batch):
            self._sealing.prepare(segment)
            stored.extend(self._append(segment))
        return stored

    def _append(self, batch: Sequence[Decided]) -> list[StoredEvent]:
        stored: list[StoredEvent] = []
        appended: list[Decided] = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for decided in batch:
                    cursor = self._db.execute(
                        "INSERT OR IGNORE INTO entries(user_id, command_id, events, payload) "
                        "VALUES (?, ?, ?, ?)",
                        (decided.user_id, decided.command_id, len(decided.events),
                         self._sealing.stored(decided)),
                    )
                    if not cursor.rowcount:
                        continue
                    appended.append(decided)
                    assert cursor.lastrowid is not None
                    position = cursor.lastrowid - _FIRST_ROWID
                    stored.extend(StoredEvent(0, position, event) for event in decided.events)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        self._sealing.appended(appended)
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
                   for rowid, payload in rows for event in self._sealing.events(payload)]
            after = rows[-1][0]

    def read_entries(self, until: dict[int, int], people: Callable[[str], bool] | None = None,
                     partitions: Collection[int] | None = None,
                     batch_size: int = 10_000) -> Iterator[list[StoredEvent]]:
        if partitions is not None and 0 not in partitions:
            return
        after, last = _FIRST_ROWID - 1, until.get(0, -1) + _FIRST_ROWID
        # The people's filter runs inside SQLite: the entries of the others are never fetched.
        query = ("SELECT position, payload FROM entries WHERE position > ? AND position <= ? "
                 + ("AND lore_takes(user_id) " if people else "") + "ORDER BY position LIMIT ?")
        with self._lock:
            if people is not None:
                self._db.create_function("lore_takes", 1, people, deterministic=True)
        try:
            while after < last:
                with self._lock:
                    rows = self._db.execute(query, (after, last, batch_size)).fetchall()
                if not rows:
                    return
                opened = self._sealing.events_of([payload for _, payload in rows])
                yield [StoredEvent(0, rowid - _FIRST_ROWID, event)
                       for (rowid, _), events in zip(rows, opened, strict=True) for event in events]
                after = rows[-1][0]
        finally:
            if people is not None:
                with self._lock:
                    self._db.create_function("lore_takes", 1, None)

    def history(self, user_id: str, partition: int, before: int) -> list[StoredEvent]:
        with self._lock:
            rows = self._db.execute(
                "SELECT position, payload FROM entries WHERE user_id = ? AND position < ? ORDER BY position",
                (user_id, before + _FIRST_ROWID)).fetchall()
        return [StoredEvent(0, rowid - _FIRST_ROWID, event)
                for rowid, payload in rows for event in self._sealing.events(payload)]

    def shred(self, user_id: str, purged: Collection[str], live: Collection[str]) -> None:
        self._sealing.shred(user_id, purged, live)

    def people_reader(self, people: People) -> SqlitePeopleReader:
        return SqlitePeopleReader(self, people)

    def _people_rows(self, people: People, after: int, last: int, most: int) -> list[tuple[int, bytes]]:
        """Rows of `people` with rowids in (after, last], at most `most`, by the (user_id, position) index."""
        if people.person is not None:
            where, args = "user_id = ?", [people.person]
        elif people.tenant == DEFAULT_TENANT:
            where, args = "instr(user_id, ?) = 0", [TENANT_SEPARATOR]
        else:  # the tenant's ids all start with its name and a slash: one range of the index
            prefix = people.tenant + TENANT_SEPARATOR
            beyond = people.tenant + chr(ord(TENANT_SEPARATOR) + 1)
            where, args = "user_id >= ? AND user_id < ?", [prefix, beyond]
        with self._lock:
            rows = self._db.execute(
                f"SELECT position, payload FROM entries WHERE {where} AND position > ? AND position <= ? "
                "ORDER BY position LIMIT ?", (*args, after, last, most)).fetchall()
        return [(int(rowid), bytes(payload)) for rowid, payload in rows]

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


class SqlitePeopleReader:
    """Some people's entries of a SQLite log, read through its connection (no other is needed)."""

    def __init__(self, log: SqliteEventLog, people: People) -> None:
        self._log, self._people = log, people

    def read(self, after: dict[int, int], most: int = 500) -> PeopleRead:
        last = self._log.end()[0]
        start = after.get(0, -1)
        if start >= last:
            return PeopleRead([], {0: max(start, last)})
        rows = self._log._people_rows(self._people, start + _FIRST_ROWID, last + _FIRST_ROWID, most)
        events = [StoredEvent(0, rowid - _FIRST_ROWID, event)
                  for rowid, payload in rows for event in self._log._sealing.events(payload)]
        reached = rows[-1][0] - _FIRST_ROWID if len(rows) == most else last
        return PeopleRead(events, {0: reached})

    def end(self) -> dict[int, int]:
        return self._log.end()

    def close(self) -> None:
        pass
