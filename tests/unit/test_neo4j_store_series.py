"""Which Neo4j series made a local store: a store is opened only by the series that made it."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra.local.servers import Neo4jServer, StoreOfAnotherSeries


def server(home: Path, series: str) -> Neo4jServer:
    return Neo4jServer(home=home, bind="127.0.0.1", bolt_port=1, http_port=2, heap="1g", pagecache="1g",
                       series=series)  # type: ignore[arg-type]


def test_a_new_store_is_marked_with_the_series_that_makes_it(tmp_path: Path) -> None:
    assert server(tmp_path, "2026").made_by is None
    server(tmp_path, "2026").prepare(Path("unused"))
    assert server(tmp_path, "5.26").made_by == "2026"
    server(tmp_path, "2026").prepare(Path("unused"))  # the same series opens it again


def test_an_unmarked_store_was_made_by_5_26_and_2026_refuses_it_with_the_way_to_move(tmp_path: Path) -> None:
    (tmp_path / "data" / "databases" / "neo4j").mkdir(parents=True)  # made before stores were marked
    assert server(tmp_path, "2026").made_by == "5.26"
    with pytest.raises(StoreOfAnotherSeries, match=r"made by Neo4j 5\.26.*lore rebuild"):
        server(tmp_path, "2026").prepare(Path("unused"))
    server(tmp_path, "5.26").prepare(Path("unused"))
    assert server(tmp_path, "2026").made_by == "5.26"
