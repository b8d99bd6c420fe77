"""Long work that a request starts and does not wait for (issue 35): a maintenance run, an erasure,
a purge. The request is answered 202 with the run's id at once; the work goes on in a thread of this
process, which keeps the run's record (projections/jobs.py) up to date: progress while it runs,
the report or the error when it ends, and a beat every few seconds.

What a crash does: the record stays `running` with a beat that stops. A reader then sees
`interrupted` (no beat for `stale_s`), and what to do, which each kind of run says (a maintenance
run is sent again with its id; a command is applied once however often it is sent, and this
process's successor sends the ones it finds cut short again at start). A process that stops
cleanly marks its runs interrupted at once."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from projections.jobs import JobRecord, job_key

log = logging.getLogger(__name__)


class JobStore(Protocol):
    def create(self, scope: str, run_id: str, kind: str, holder: str, now: datetime,
               asked: dict[str, Any]) -> None: ...

    def beat(self, key: str, holder: str, now: datetime, done: int | None = ...,
             total: int | None = ...) -> None: ...

    def finish(self, key: str, holder: str, now: datetime, state: str, report: dict[str, Any] | None,
               error: str | None) -> None: ...

    def get(self, scope: str, run_id: str) -> JobRecord | None: ...


@dataclass
class Progress:
    """What a run reports as it goes: `done` of `total` (people, items; None: not known yet)."""

    done: int = 0
    total: int | None = None

    def advance(self, by: int = 1) -> None:
        self.done += by


# The work of a run: it reports into its Progress and returns the report.
Work = Callable[[Progress], dict[str, Any]]


class Runs:
    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC), beat_s: float = 2.0,
                 stale_s: float = 30.0) -> None:
        self.clock = clock
        self.beat_s = beat_s
        self.stale_s = stale_s
        self.holder = f"runs-{uuid.uuid4().hex[:12]}"
        self._running: dict[str, tuple[JobStore, threading.Thread]] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def start(self, store: JobStore, scope: str, run_id: str, kind: str, work: Work,
              asked: dict[str, Any]) -> JobRecord:
        """Record the run, start its work in a thread, and return its record as it begins."""
        key = job_key(scope, run_id)
        store.create(scope, run_id, kind, self.holder, self.clock(), asked)
        progress = Progress()
        thread = threading.Thread(target=self._run, args=(store, key, work, progress),
                                  name=f"run-{kind}-{run_id}", daemon=True)
        with self._lock:
            self._running[key] = (store, thread)
        thread.start()
        found = store.get(scope, run_id)
        assert found is not None
        return found

    def view(self, found: JobRecord | None) -> JobRecord | None:
        """The record as a reader should take it: a `running` one whose beat stopped was cut short."""
        if found is None or found.state != "running":
            return found
        if self.clock() - found.updated_at > timedelta(seconds=self.stale_s):
            return replace(found, state="interrupted")
        return found

    def wait(self, scope: str, run_id: str, timeout_s: float | None = None) -> None:
        """Until this process's run ends (tests, and the CLI's foreground runs)."""
        with self._lock:
            entry = self._running.get(job_key(scope, run_id))
        if entry is not None:
            entry[1].join(timeout_s)

    def close(self) -> None:
        """Stop beating; the runs still going are marked interrupted (their threads die with us)."""
        self._stopping.set()
        with self._lock:
            running = dict(self._running)
        for key, (store, thread) in running.items():
            if thread.is_alive():
                try:
                    store.finish(key, self.holder, self.clock(), "interrupted", None,
                                 "the process running it stopped before it ended")
                except Exception as error:  # noqa: BLE001 - the graph may be away: the beat stops anyway
                    log.warning("could not mark run %s interrupted: %s", key, error)

    def _run(self, store: JobStore, key: str, work: Work, progress: Progress) -> None:
        finished = threading.Event()
        beater = threading.Thread(target=self._beat, args=(store, key, progress, finished), daemon=True,
                                  name=f"beat-{key}")
        beater.start()
        state, report, error = "done", None, None
        try:
            report = work(progress)
        except Exception as failure:  # noqa: BLE001 - any failure ends the run as failed, said in its record
            log.exception("run %s failed", key.replace("\x1f", "/"))
            state, error = "failed", f"{type(failure).__name__}: {failure}"
        finally:
            finished.set()
            beater.join()
        if self._stopping.is_set():
            return
        try:
            store.beat(key, self.holder, self.clock(), progress.done, progress.total)  # as it ended
            store.finish(key, self.holder, self.clock(), state, report, error)
        except Exception as failure:  # noqa: BLE001 - the beat stops: readers see it interrupted
            log.warning("could not record the end of run %s: %s", key, failure)
        finally:
            with self._lock:
                self._running.pop(key, None)

    def _beat(self, store: JobStore, key: str, progress: Progress, finished: threading.Event) -> None:
        while not finished.wait(self.beat_s) and not self._stopping.is_set():
            try:
                store.beat(key, self.holder, self.clock(), progress.done, progress.total)
            except Exception as error:  # noqa: BLE001 - a missed beat is tried again at the next
                log.warning("run %s: beat not recorded (%s)", key, error)

