"""Usage statistics for the rerank: how often and how lately each memory was found.

They are not events (a read decides nothing), so a rebuild starts them from zero. Searches only
note what they returned; a background thread adds the counts up and writes them in one
transaction a second, so that a burst of searches costs one small write instead of one each.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from datetime import datetime

from neo4j import Driver

log = logging.getLogger(__name__)

RECORD_ACCESS = """
UNWIND $rows AS row
MATCH (m:Memory {memory_id: row.id})
SET m.access_count = coalesce(m.access_count, 0) + row.count,
    m.last_accessed_at = CASE WHEN m.last_accessed_at IS NULL OR m.last_accessed_at < datetime(row.at)
                              THEN datetime(row.at) ELSE m.last_accessed_at END
"""


class AccessRecorder:
    """Collects the memories searches returned and writes their counts every `interval_s`."""

    def __init__(self, driver: Driver, database: str = "neo4j", interval_s: float = 1.0) -> None:
        self.driver = driver
        self.database = database
        self.interval_s = interval_s
        self._counts: Counter[str] = Counter()
        self._last: dict[str, datetime] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="lore-access", daemon=True)
        self._thread.start()

    def note(self, memory_ids: list[str], at: datetime) -> None:
        with self._lock:
            for memory_id in memory_ids:
                self._counts[memory_id] += 1
                self._last[memory_id] = max(at, self._last.get(memory_id, at))

    def flush(self) -> None:
        with self._lock:
            counts, last = self._counts, self._last
            self._counts, self._last = Counter(), {}
        if not counts:
            return
        rows = [{"id": i, "count": n, "at": last[i].isoformat()} for i, n in counts.items()]
        try:
            self.driver.execute_query(RECORD_ACCESS, rows=rows, database_=self.database)
        except Exception:  # statistics only: losing a second of them must not disturb searching
            log.warning("could not record %d memory accesses", len(rows), exc_info=True)

    def close(self) -> None:
        """Write what is pending and stop; the driver must still be open."""
        if not self._closed:
            self._closed = True
            self._wake.set()
            self._thread.join()
            self.flush()

    def _run(self) -> None:
        while not self._wake.wait(self.interval_s):
            self.flush()
