"""How a person's nearest nodes are found: a scan of their own vectors, or the vector index
filtered by person, by how many they are and what share of the index they make."""

from __future__ import annotations

from projections.search import vector_plan

DEFAULTS = {"exact_below": 5000, "scan_at_most": 250, "index_share": 0.03}


def test_a_small_share_of_a_filtering_index_is_searched_in_it() -> None:
    assert vector_plan(1_000, 100_000, True, **DEFAULTS) == "filtered"
    assert vector_plan(300, 1_000_000, True, **DEFAULTS) == "filtered"


def test_a_large_share_is_scanned_however_many_nodes() -> None:
    # 600 turns of 6,000: the filtered index walks about as many of theirs as a scan reads.
    assert vector_plan(600, 6_000, True, **DEFAULTS) == "exact"
    assert vector_plan(4_000, 4_000, True, **DEFAULTS) == "exact"


def test_a_few_nodes_are_scanned_even_in_a_large_store() -> None:
    assert vector_plan(40, 1_000_000, True, **DEFAULTS) == "exact"
    assert vector_plan(250, 1_000_000, True, **DEFAULTS) == "exact"


def test_an_index_that_cannot_filter_is_used_only_past_the_scan_limit() -> None:
    assert vector_plan(1_000, 100_000, False, **DEFAULTS) == "exact"
    assert vector_plan(10_000, 1_000_000, False, **DEFAULTS) == "index"
    assert vector_plan(10_000, 20_000, True, **DEFAULTS) == "filtered"


def test_an_empty_store_is_no_division_by_zero() -> None:
    assert vector_plan(0, 0, True, **DEFAULTS) == "exact"
