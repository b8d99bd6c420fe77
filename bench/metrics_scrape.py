"""What Lore's own /metrics says while a benchmark runs: scraped in the background, as Prometheus
would, and read back as latency quantiles per route and per search source.

The quantiles are estimated from the histogram buckets the way Prometheus' histogram_quantile()
does (linear inside a bucket), over the difference between the scrape before and after the timed
work, so warm-up requests do not count.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field

import httpx
from prometheus_client.parser import text_string_to_metric_families

# (metric, labels that say which series) -> {upper bound: cumulative count}
Buckets = dict[tuple[str, tuple[tuple[str, str], ...]], dict[float, float]]


def buckets(text: str) -> Buckets:
    found: Buckets = defaultdict(dict)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if not sample.name.endswith("_bucket"):
                continue
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
            found[(family.name, labels)][float(sample.labels["le"])] = sample.value
    return found


def quantile(q: float, cumulative: dict[float, float]) -> float | None:
    """histogram_quantile(q): None without observations."""
    bounds = sorted(cumulative)
    total = cumulative[bounds[-1]] if bounds else 0.0
    if total <= 0:
        return None
    rank, lower, below = q * total, 0.0, 0.0
    for bound in bounds:
        count = cumulative[bound]
        if count >= rank:
            if bound == float("inf"):
                return lower
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 0.0)
        lower, below = bound, count
    return lower


def summed(one: Buckets, other: Buckets) -> Buckets:
    """Two servers' observations as one (cumulative counts add, bucket by bucket)."""
    return {key: {le: one.get(key, {}).get(le, 0.0) + other.get(key, {}).get(le, 0.0)
                  for le in one.get(key, {}).keys() | other.get(key, {}).keys()}
            for key in one.keys() | other.keys()}


def difference(after: Buckets, before: Buckets) -> Buckets:
    return {key: {le: n - before.get(key, {}).get(le, 0.0) for le, n in series.items()}
            for key, series in after.items()}


@dataclass
class Scraper:
    """GETs `{url}/metrics` every `every_s` seconds in a thread, from start() to stop()."""

    url: str
    every_s: float = 1.0
    scrapes: int = 0
    failures: int = 0
    first: Buckets = field(default_factory=dict)
    last: Buckets = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _scrape(self) -> Buckets | None:
        try:
            response = httpx.get(f"{self.url}/metrics", timeout=10)
            response.raise_for_status()
        except httpx.HTTPError:
            self.failures += 1
            return None
        self.scrapes += 1
        return buckets(response.text)

    def start(self) -> None:
        self.first = self._scrape() or {}

        def loop() -> None:
            while not self._stop.wait(self.every_s):
                if (found := self._scrape()) is not None:
                    self.last = found
        self._thread = threading.Thread(target=loop, name="metrics-scraper", daemon=True)
        self._thread.start()

    def stop(self) -> Buckets:
        """The buckets observed between start() and now."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if (found := self._scrape()) is not None:
            self.last = found
        return difference(self.last, self.first)


def rows(observed: Buckets) -> list[tuple[str, int, float | None, float | None, float | None]]:
    """(series, count, p50 ms, p95 ms, p99 ms) for search requests, whole searches and each source."""
    out = []
    for (metric, labels), series in sorted(observed.items()):
        named = dict(labels)
        if metric == "lore_http_request_seconds" and not named.get("route", "").endswith("/search"):
            continue
        if metric not in {"lore_http_request_seconds", "lore_search_seconds", "lore_search_source_seconds"}:
            continue
        count = int(max(series.values(), default=0))
        if count == 0:
            continue
        label = {"lore_http_request_seconds": f"HTTP {named.get('method')} {named.get('route')} "
                                              f"{named.get('status')}",
                 "lore_search_seconds": "search (all sources, fused)",
                 "lore_search_source_seconds": f"step: {named.get('source')}"}[metric]
        p50, p95, p99 = (None if (v := quantile(q, series)) is None else v * 1000 for q in (0.5, 0.95, 0.99))
        out.append((label, count, p50, p95, p99))
    return out
