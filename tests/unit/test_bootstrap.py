"""Wiring: what `bootstrap` starts, `close` stops — no thread pool or thread outlives it."""

from __future__ import annotations

from pathlib import Path

from infra.settings import Settings
from services.bootstrap import bootstrap


def test_closing_lore_stops_every_pool_and_thread_it_started(tmp_path: Path) -> None:
    # No server is reached: Neo4j is contacted on first use only, the log is a local file.
    lore = bootstrap(Settings(home=tmp_path, embedder="none", neo4j_uri="bolt://127.0.0.1:1"))
    pools = [lore.search._pool, lore.projector._writers]
    assert lore.use._thread.is_alive()
    lore.close()
    assert all(pool._shutdown for pool in pools)
    assert not lore.use._thread.is_alive()
    lore.close()  # twice is harmless
