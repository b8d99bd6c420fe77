"""Use as callers meet it: the memories a search answer listed and a context block cited, sent as
RecordUse commands, one per person, every `interval_s`.

A request only notes what it returned (a dict update under a lock); a background thread turns the
notes into commands, so that a burst of searches costs one small write per person a second, not one
each. Use becomes events like everything else: maintenance reads it (what is used is kept) and a
rebuild restores it. A crash loses at most the last interval's notes — statistics, not commands.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from domain.commands import Command, RecordUse, UseCount

log = logging.getLogger(__name__)

# The most memories one RecordUse names per kind of use (a statistic: any beyond it are dropped).
_MOST = 5_000


class UseRecorder:
    def __init__(self, send: Callable[[Sequence[Command]], None], interval_s: float = 1.0) -> None:
        self._send = send
        self.interval_s = interval_s
        self._found: dict[str, Counter[str]] = defaultdict(Counter)
        self._cited: dict[str, Counter[str]] = defaultdict(Counter)
        self._last: dict[str, datetime] = {}
        self._lock = threading.Lock()
        self._sending = threading.Lock()  # one send at a time, so that flush() waits for one under way
        self._wake = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="lore-use", daemon=True)
        self._thread.start()

    def found(self, user_id: str, memory_ids: Iterable[str], at: datetime) -> None:
        """Memories a search answer listed for the caller."""
        self._note(self._found, user_id, memory_ids, at)

    def cited(self, user_id: str, memory_ids: Iterable[str], at: datetime) -> None:
        """Memories a context block cited."""
        self._note(self._cited, user_id, memory_ids, at)

    def _note(self, into: dict[str, Counter[str]], user_id: str, memory_ids: Iterable[str],
              at: datetime) -> None:
        ids = list(memory_ids)
        if not ids:
            return
        with self._lock:
            into[user_id].update(ids)
            self._last[user_id] = max(at, self._last.get(user_id, at))

    def pending(self) -> int:
        """People whose use is noted and not sent yet."""
        with self._lock:
            return len(self._last)

    def flush(self) -> None:
        """Send what is noted, now: when it returns, all use noted before the call is sent (a send the
        background thread began is waited for, so a caller never reads the store ahead of it)."""
        with self._sending:
            with self._lock:
                found, cited, last = self._found, self._cited, self._last
                self._found, self._cited, self._last = defaultdict(Counter), defaultdict(Counter), {}
            commands: list[Command] = [
                RecordUse(command_id=f"use-{uuid.uuid4().hex}", user_id=user_id, occurred_at=at,
                          found=_counts(found.get(user_id)), cited=_counts(cited.get(user_id)))
                for user_id, at in last.items()]
            if not commands:
                return
            try:
                self._send(commands)
            except Exception:  # statistics only: losing a second of them must not disturb anything else
                log.warning("could not record the use of %d people's memories", len(commands),
                            exc_info=True)

    def close(self) -> None:
        """Send what is pending and stop (the sender must still work)."""
        if not self._closed:
            self._closed = True
            self._wake.set()
            self._thread.join()
            self.flush()

    def _run(self) -> None:
        while not self._wake.wait(self.interval_s):
            self.flush()


def _counts(counter: Counter[str] | None) -> tuple[UseCount, ...]:
    if not counter:
        return ()
    return tuple(UseCount(memory_id=m, count=n) for m, n in sorted(counter.items())[:_MOST])
