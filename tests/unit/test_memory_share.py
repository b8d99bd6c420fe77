"""The local Neo4j's heap and page cache follow the machine's memory, within bounds."""

from __future__ import annotations

import os

import pytest

from infra.settings import Settings, share_of_memory

GIB = 2**30


def machine_with(monkeypatch: pytest.MonkeyPatch, gib: int) -> None:
    sizes = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": gib * GIB // 4096}
    monkeypatch.setattr(os, "sysconf", lambda name: sizes[name])


@pytest.mark.parametrize(("gib", "heap", "pagecache"), [
    (4, "1g", "1g"),      # a small machine keeps the old floor
    (24, "3g", "6g"),
    (512, "8g", "16g"),   # a big one stops at the ceiling
])
def test_the_defaults_are_shares_of_the_machine(monkeypatch: pytest.MonkeyPatch, gib: int, heap: str,
                                                pagecache: str) -> None:
    machine_with(monkeypatch, gib)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (settings.neo4j_heap, settings.neo4j_pagecache) == (heap, pagecache)


def test_a_size_given_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    machine_with(monkeypatch, 24)
    monkeypatch.setenv("LORE_NEO4J_PAGECACHE", "512m")
    assert Settings(_env_file=None).neo4j_pagecache == "512m"  # type: ignore[call-arg]


def test_an_unknown_machine_gets_the_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown(name: str) -> int:
        raise ValueError(name)
    monkeypatch.setattr(os, "sysconf", unknown)
    assert share_of_memory(4, 1, 16) == "1g"
