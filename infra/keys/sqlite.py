"""People's keys in a SQLite file of their own (the embedded mode's key store: `.lore/keys.sqlite3`).

Destroying a key must take its bytes out of the file, not only out of the table: `secure_delete`
overwrites a deleted row's bytes, and the rollback journal (not WAL, whose frames would keep a
copy of the page until overwritten) is removed after each transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Collection
from pathlib import Path

from cachetools import LRUCache

from domain.sealing import PersonKey

_SCHEMA = """
CREATE TABLE IF NOT EXISTS keys (
    user_id TEXT NOT NULL,
    key_id  BLOB NOT NULL,
    secret  BLOB NOT NULL,
    PRIMARY KEY (user_id, key_id)
);
CREATE TABLE IF NOT EXISTS item_keys (
    user_id TEXT NOT NULL,
    key_id  BLOB NOT NULL,
    tag     BLOB,            -- the item's tag for a key a purge kept; NULL for a root
    secret  BLOB NOT NULL,
    PRIMARY KEY (user_id, key_id)
);
CREATE INDEX IF NOT EXISTS item_keys_tag ON item_keys (user_id, tag);
"""


class SqliteKeyStore:
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=DELETE")
        self._db.execute("PRAGMA secure_delete=ON")
        self._db.execute("PRAGMA synchronous=FULL")  # a key lost is a person's log lost
        self._db.executescript(_SCHEMA)
        self._current: LRUCache[str, PersonKey] = LRUCache(maxsize=100_000)
        self._roots: LRUCache[str, PersonKey] = LRUCache(maxsize=100_000)
        # Item keys looked up (a root's secret, a kept key; None: destroyed): a replay opens the same
        # root once per sealed part.
        self._found: LRUCache[tuple[str, bytes], bytes | None] = LRUCache(maxsize=100_000)
        # Keys looked up (None: destroyed): a replay asks once per entry, an erased person's too.
        self._keys: LRUCache[tuple[str, bytes], bytes | None] = LRUCache(maxsize=100_000)

    def find(self, user_id: str, key_id: bytes) -> bytes | None:
        with self._lock:
            if (user_id, key_id) in self._keys:
                return self._keys[(user_id, key_id)]
            row = self._db.execute("SELECT secret FROM keys WHERE user_id = ? AND key_id = ?",
                                   (user_id, key_id)).fetchone()
            found = self._keys[(user_id, key_id)] = None if row is None else bytes(row[0])
            return found

    def current(self, user_id: str) -> PersonKey:
        with self._lock:
            key = self._current.get(user_id)
            if key is not None:
                return key
            key = self._newest(user_id)
            if key is None:
                key = PersonKey.new()
                self._db.execute("INSERT INTO keys VALUES (?, ?, ?)", (user_id, key.key_id, key.secret))
            self._current[user_id] = key
            return key

    def prepare(self, user_ids: Collection[str]) -> None:
        with self._lock:
            new: dict[str, PersonKey] = {}
            for user_id in user_ids:
                if user_id not in self._current:
                    found = self._newest(user_id)
                    if found is None:
                        new[user_id] = PersonKey.new()
                    else:
                        self._current[user_id] = found
            if not new:
                return
            roots = {u: PersonKey.new() for u in new}  # a new person has no item root either
            self._db.execute("BEGIN IMMEDIATE")  # one synced write for the batch, not one per person
            try:
                self._db.executemany("INSERT INTO keys VALUES (?, ?, ?)",
                                     [(u, k.key_id, k.secret) for u, k in new.items()])
                self._db.executemany("INSERT INTO item_keys VALUES (?, ?, NULL, ?)",
                                     [(u, k.key_id, k.secret) for u, k in roots.items()])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._current.update(new)
            self._roots.update(roots)

    def _newest(self, user_id: str) -> PersonKey | None:
        """The newest key of the person's (rowids grow): the one made since their last erasure."""
        row = self._db.execute("SELECT key_id, secret FROM keys WHERE user_id = ? "
                               "ORDER BY rowid DESC LIMIT 1", (user_id,)).fetchone()
        return None if row is None else PersonKey(bytes(row[0]), bytes(row[1]))

    def item_root(self, user_id: str) -> PersonKey:
        with self._lock:
            root = self._roots.get(user_id)
            if root is None:
                row = self._db.execute("SELECT key_id, secret FROM item_keys WHERE user_id = ? "
                                       "AND tag IS NULL ORDER BY rowid DESC LIMIT 1", (user_id,)).fetchone()
                root = PersonKey(bytes(row[0]), bytes(row[1])) if row else PersonKey.new()
                if row is None:
                    self._db.execute("INSERT INTO item_keys VALUES (?, ?, NULL, ?)",
                                     (user_id, root.key_id, root.secret))
                self._roots[user_id] = root
            return root

    def find_item_key(self, user_id: str, key_id: bytes) -> bytes | None:
        with self._lock:
            if (user_id, key_id) in self._found:
                return self._found[(user_id, key_id)]
            row = self._db.execute("SELECT secret FROM item_keys WHERE user_id = ? AND key_id = ?",
                                   (user_id, key_id)).fetchone()
            found = None if row is None else bytes(row[0])
            self._found[(user_id, key_id)] = found
            return found

    def shred_items(self, user_id: str, root_id: bytes, keep: dict[bytes, tuple[bytes, bytes]],
                    forget: Collection[bytes]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")  # all or nothing: a crash leaves the root, nothing shredded
            try:
                self._db.executemany("INSERT OR REPLACE INTO item_keys VALUES (?, ?, ?, ?)",
                                     [(user_id, k, tag, secret) for k, (tag, secret) in keep.items()])
                self._db.executemany("DELETE FROM item_keys WHERE user_id = ? AND tag = ?",
                                     [(user_id, tag) for tag in forget])
                self._db.execute("DELETE FROM item_keys WHERE user_id = ? AND key_id = ?", (user_id, root_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._forget_cached(user_id)

    def _forget_cached(self, user_id: str) -> None:
        self._roots.pop(user_id, None)
        for cached in [k for k in self._found if k[0] == user_id]:
            del self._found[cached]
        for cached in [k for k in self._keys if k[0] == user_id]:
            del self._keys[cached]

    def destroy(self, user_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM keys WHERE user_id = ?", (user_id,))
            self._db.execute("DELETE FROM item_keys WHERE user_id = ?", (user_id,))
            self._current.pop(user_id, None)
            self._forget_cached(user_id)

    def close(self) -> None:
        self._db.close()
