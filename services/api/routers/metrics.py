"""GET /metrics: what extraction has done and cost, in Prometheus' text format.

Counted from the graph when scraped (the projection of the log), so every process of a deployment
reports the same totals and a restart loses none; what only this process knows (people waiting
for their budget, extractions it is retrying) comes from its extraction process.
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.concurrency import run_in_threadpool

from services.api.deps import LoreDep
from services.bootstrap import Lore

router = APIRouter(tags=["health"])


class ExtractionCollector(Collector):
    def __init__(self, lore: Lore) -> None:
        self.lore = lore

    def collect(self) -> Iterator[Metric]:
        usage = self.lore.extractions.usage()
        extractions = GaugeMetricFamily("lore_extractions", "Extractions by status (due: waiting to be "
                                        "answered; done: answered).", labels=["status"])
        tokens = CounterMetricFamily("lore_extraction_tokens", "Model tokens extractions spent.",
                                     labels=["type"])
        for state in ("due", "done"):
            extractions.add_metric([state], usage.get(state, {}).get("extractions", 0))
        for kind in ("prompt", "completion"):
            tokens.add_metric([kind], sum(u.get(f"{kind}_tokens", 0) for u in usage.values()))
        yield extractions
        yield tokens
        process = self.lore.extraction
        if process is not None and process.running:
            waiting = GaugeMetricFamily("lore_extraction_people_waiting_for_budget",
                                        "People whose extractions wait for their daily token budget.")
            waiting.add_metric([], len(process.waiting_for_budget))
            retrying = GaugeMetricFamily("lore_extraction_retrying",
                                         "Extractions this process failed and tries again after a pause.")
            retrying.add_metric([], len(process.retry))
            yield waiting
            yield retrying


def exposition(lore: Lore) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ExtractionCollector(lore))
    return generate_latest(registry)


@router.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(lore: LoreDep) -> Response:
    return Response(await run_in_threadpool(exposition, lore), media_type=CONTENT_TYPE_LATEST)
