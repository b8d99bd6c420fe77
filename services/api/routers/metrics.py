"""GET /metrics, in Prometheus' text format: requests per route, search per source, commands
handled and dead letters (this process, services/telemetry.py); lags; what extraction has done
and cost.

Counted from the graph when scraped (the projection of the log), so every process of a deployment
reports the same totals and a restart loses none; what only this process knows (people waiting
for their budget, extractions it is retrying) comes from its extraction process.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.concurrency import run_in_threadpool

from infra.eventlog.kafka import group_lag
from infra.eventlog.shards import shard_partitions
from services.api.deps import ShardsDep
from services.shards import GraphShards
from services.telemetry import REGISTRY
from services.worker import worker_group

log = logging.getLogger(__name__)

router = APIRouter(tags=["health"])


class ExtractionCollector(Collector):
    def __init__(self, shards: GraphShards) -> None:
        self.shards = shards
        self.lore = shards.home

    def collect(self) -> Iterator[Metric]:
        usage: dict[str, dict[str, int]] = {}
        for shard in self.shards:
            for state, counts in shard.extractions.usage().items():
                into = usage.setdefault(state, {})
                for name, n in counts.items():
                    into[name] = into.get(name, 0) + n
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


class LagCollector(Collector):
    """How far behind the work is: the graph behind the event log, and (Kafka) the workers behind
    lore.commands."""

    def __init__(self, shards: GraphShards) -> None:
        self.shards = shards

    def _owned(self, shard: int) -> list[int] | None:
        """The partitions shard `shard`'s graph follows (None: all, there is one graph)."""
        if len(self.shards) == 1:
            return None
        return shard_partitions(shard, len(self.shards), self.shards.partitions)

    def collect(self) -> Iterator[Metric]:
        projection = GaugeMetricFamily("lore_projection_lag_entries", "Log entries the graph has not "
                                       "applied yet (every shard's, with LORE_NEO4J_SHARDS).")
        try:
            projection.add_metric([], sum(lore.projector.lag(lore.event_log, self._owned(i))
                                          for i, lore in enumerate(self.shards)))
            yield projection
        except Exception as error:  # noqa: BLE001 - a scrape reports what it can
            log.debug("projection lag unknown: %s", error)
        settings = self.shards.home.settings
        if settings.uses_kafka_log and settings.kafka_bootstrap:
            consumer = GaugeMetricFamily("lore_consumer_lag_commands", "Commands on lore.commands the "
                                         "workers' group (each shard's, with LORE_NEO4J_SHARDS) has not "
                                         "committed past, by partition.", labels=["partition"])
            lags: dict[int, int] = {}
            try:
                for i in range(len(self.shards)):
                    group = worker_group(settings, i if len(self.shards) > 1 else None)
                    found = group_lag(settings.kafka_access, settings.commands_topic, group)
                    owned = self._owned(i)
                    lags |= {p: n for p, n in found.items() if owned is None or p in owned}
            except Exception as error:  # noqa: BLE001
                log.debug("consumer lag unknown: %s", error)
                return
            for partition, lag in sorted(lags.items()):
                consumer.add_metric([str(partition)], lag)
            yield consumer


def exposition(shards: GraphShards) -> bytes:
    """This process's counters and timings, then what is read from the graph and Kafka."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ExtractionCollector(shards))
    registry.register(LagCollector(shards))
    return generate_latest(REGISTRY) + generate_latest(registry)


@router.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(shards: ShardsDep) -> Response:
    return Response(await run_in_threadpool(exposition, shards), media_type=CONTENT_TYPE_LATEST)
