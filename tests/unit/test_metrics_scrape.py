"""Reading latency quantiles back from /metrics' histograms, as the search benchmark does."""

from bench.metrics_scrape import buckets, difference, quantile, rows, summed

TEXT = """# HELP lore_search_source_seconds step
# TYPE lore_search_source_seconds histogram
lore_search_source_seconds_bucket{le="0.01",source="vector"} 0.0
lore_search_source_seconds_bucket{le="0.02",source="vector"} 10.0
lore_search_source_seconds_bucket{le="+Inf",source="vector"} 10.0
lore_search_source_seconds_count{source="vector"} 10.0
lore_search_source_seconds_sum{source="vector"} 0.15
"""


def test_quantile_interpolates_inside_the_bucket_like_histogram_quantile() -> None:
    assert quantile(0.5, {0.01: 0, 0.02: 10, float("inf"): 10}) == 0.015
    assert abs(quantile(0.95, {0.01: 5, 0.02: 10, float("inf"): 10}) - 0.019) < 1e-12  # type: ignore[operator]


def test_quantile_of_nothing_observed_is_none_and_beyond_the_last_bound_is_that_bound() -> None:
    assert quantile(0.5, {0.01: 0, float("inf"): 0}) is None
    assert quantile(0.99, {0.01: 1, float("inf"): 10}) == 0.01


def test_rows_read_the_buckets_observed_between_two_scrapes() -> None:
    before = buckets(TEXT.replace(" 10.0", " 4.0"))
    observed = difference(buckets(TEXT), before)
    [(label, count, p50, _, _)] = rows(observed)
    assert (label, count) == ("step: vector", 6)
    assert p50 is not None and 10 < p50 < 20


def test_two_servers_observations_add_bucket_by_bucket() -> None:
    one = buckets(TEXT)
    other = buckets(TEXT.replace('le="0.01",source="vector"} 0.0', 'le="0.01",source="vector"} 4.0'))
    [(_, count, p50, _, _)] = rows(summed(one, other))
    assert count == 20
    assert p50 is not None and 10 < p50 < 20
    # A series only one server saw is kept as it was.
    text = buckets(TEXT.replace('source="vector"', 'source="text"'))
    assert sorted(label for label, *_ in rows(summed(one, text))) == ["step: text", "step: vector"]
