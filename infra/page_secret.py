"""The secret page links are signed with (domain/page_links.py): LORE_PAGE_SECRET, or a file in
LORE_HOME made on first use. Rotating it revokes every link given so far; a server reads the file
again when it changes, so a rotation takes effect without a restart."""

from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path


class PageSecret:
    def __init__(self, path: Path, configured: str | None = None) -> None:
        self.path = path
        self.configured = configured
        self._lock = threading.Lock()
        self._seen: tuple[tuple[int, int], bytes] | None = None  # (the file's inode and mtime, its secret)

    def current(self) -> bytes:
        if self.configured:
            return self.configured.encode()
        with self._lock:
            try:
                stamp = self._stamp()
            except FileNotFoundError:
                self._write(secrets.token_hex(32))
                stamp = self._stamp()
            if self._seen is None or self._seen[0] != stamp:
                self._seen = (stamp, self.path.read_text(encoding="ascii").strip().encode())
            return self._seen[1]

    def _stamp(self) -> tuple[int, int]:
        found = self.path.stat()
        return found.st_ino, found.st_mtime_ns

    def rotate(self) -> None:
        """A new secret: every link signed with the old one stops opening."""
        if self.configured:
            raise ValueError("LORE_PAGE_SECRET is set: change it (on every server) to revoke the links")
        with self._lock:
            self._write(secrets.token_hex(32))
            self._seen = None

    def _write(self, secret: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_name(self.path.name + ".new")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(secret + "\n")
        os.replace(fresh, self.path)
