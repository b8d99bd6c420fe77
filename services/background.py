"""A process that works through a queue in the graph on a thread of its own: it starts, stops,
and rounds until stopped; a failed round is tried again after a pause that doubles (to a minute).
Extraction and the layers (summaries, profiles) are two such processes."""

from __future__ import annotations

import logging
import threading
from typing import Any

from services.commands import CommandHandler

log = logging.getLogger(__name__)


class BackgroundProcess:
    name = "background"        # the thread's name, which the log calls the work too
    retry: dict[str, Any]      # work to be tried again later (what to try, and when): set by each

    def __init__(self, handler: CommandHandler, poll_s: float) -> None:
        self.handler = handler
        self.poll_s = poll_s
        self.failing: str | None = None   # the last error, while work keeps failing
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> int:
        """One round: how much work was done (0: none was waiting)."""
        raise NotImplementedError

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    def _run(self) -> None:
        delay = self.poll_s
        while not self._stop.is_set():
            try:
                self.handler.ensure_schema()  # once per process: the first reads wait for the schema
                done = self.run_once()
            except Exception as error:  # noqa: BLE001 - the work stays due; tried again after a pause
                self.failing = f"{type(error).__name__}: {error}"
                log.warning("%s failed, tried again in %.0f s: %s", self.name, delay, self.failing)
                self._stop.wait(delay)
                delay = min(delay * 2, 60.0)
                continue
            if not self.retry:
                self.failing = None
            delay = self.poll_s
            if not done:
                self._stop.wait(self.poll_s)
