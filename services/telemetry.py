"""What a process counts and times for `/metrics` (Prometheus): requests per route, search per
source, commands applied, dead letters. Counted in this process; the totals that every process
shares (extraction, consumer lag) are read at scrape time (services/api/routers/metrics.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from prometheus_client import CollectorRegistry, Counter, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
# Fine around 10-100 ms, where search's 50 ms goal sits, so that a quantile read from the buckets
# (histogram_quantile) is close to the one a client measures.
_FAST = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5,
         1.0, 2.5, 5.0, 10.0)

REQUEST_SECONDS = Histogram("lore_http_request_seconds", "HTTP requests by route, method and status.",
                            ["route", "method", "status"], buckets=_FAST, registry=REGISTRY)
SEARCH_SOURCE_SECONDS = Histogram("lore_search_source_seconds", "Time of each search step: embed (the "
                                  "query vector), vector, text, graph, and fuse (with the rerank).",
                                  ["source"], buckets=_FAST, registry=REGISTRY)
SEARCH_SECONDS = Histogram("lore_search_seconds", "Whole searches (all sources, fused, reranked).",
                           buckets=_FAST, registry=REGISTRY)
COMMANDS = Counter("lore_commands_total", "Commands handled by this process, by outcome (applied, "
                   "duplicate, rejected).", ["outcome"], registry=REGISTRY)
DEGRADED_ANSWERS = Counter("lore_degraded_answers_total", "Search and context answers that left a source "
                           "out, by route, source and code (an answer counts once per source it left out).",
                           ["route", "source", "code"], registry=REGISTRY)
DEAD_LETTERS = Counter("lore_dead_letters_total", "Commands this worker sent to the dead-letter topic, "
                       "by code.", ["code"], registry=REGISTRY)

P = ParamSpec("P")
R = TypeVar("R")


def timed(source: str, work: Callable[P, R]) -> Callable[P, R]:
    """`work`, observed as one step of a search."""
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with step(source):
            return work(*args, **kwargs)
    return run


@contextmanager
def step(source: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        SEARCH_SOURCE_SECONDS.labels(source.split("~")[0]).observe(time.perf_counter() - started)
