"""End-to-end ingestion through Kafka: produce commands to lore.commands, a worker applies them.

    python -m bench.ingest                         # the issue's sizes
    python -m bench.ingest --commands 3000 --paced 300 --embed-commands 100   # smoke (CI)

For each embedder setting it prints
  - throughput: commands/s from the first produce to the last command visible in the graph,
    for a burst of --commands structured memories (slot values and facts with entities);
  - latency: p50/p95/p99 from produce to applied, for --paced commands sent at --rate per second
    (at most half the burst's rate: the figure is the path's latency, not a queue's).
The worker runs in this process (the same FastStream subscriber as `lore worker`), so that the
moment each command is applied can be read off the handler. Runs on a Neo4j and a
Kafka of its own (bench/stack.py), or on --neo4j-uri (wiped) and --kafka-bootstrap (topics of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kafka import KafkaProducer
from rich.console import Console
from rich.table import Table

from bench import stack
from bench.core import CachedEmbedder
from bench.history import history
from domain.commands import Command, RecordMemory
from infra.embedding.local import LocalMiniLM
from infra.settings import Settings
from services.bootstrap import Lore, bootstrap
from services.commands import Outcome
from services.wire import to_message
from services.worker import command_broker, prepare_topics

console = Console(width=150)


@dataclass
class Row:
    embedder: str
    commands: int
    seconds: float
    latencies: list[float]
    rate: float


def structured(n: int, users: int, seed: int) -> list[Command]:
    """n RecordMemory commands: slot values (some late) and facts about entities."""
    found = [c for c in history(users, int(n * 1.8) + 100, seed=seed) if isinstance(c, RecordMemory)]
    assert len(found) >= n
    return found[:n]


class Timed:
    """Stands between the worker and the handler, noting when each command reached the graph."""

    def __init__(self, lore: Lore) -> None:
        self.inner = lore.commands.handle
        self.applied_at: dict[str, float] = {}
        lore.commands.handle = self  # type: ignore[method-assign]

    def __call__(self, commands: Sequence[Command], partitions: Any = None) -> list[Outcome]:
        outcomes = self.inner(commands, partitions)
        now = time.time()
        for outcome in outcomes:
            self.applied_at[outcome.command_id] = now
        return outcomes


def send(settings: Settings, commands: Sequence[Command], rate: float | None) -> dict[str, float]:
    """Produce the commands (at `rate` per second, or as fast as possible); when each was sent.
    The producer runs in a process of its own, as a service's producers would: in this one it
    would take the interpreter from the worker it measures."""
    config = settings.kafka_access.kafka_python(acks="all", linger_ms=2, enable_idempotence=True)
    records = [(c.command_id, c.user_id.encode(), to_message(c)) for c in commands]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(produce, config, settings.commands_topic, records, rate).result()


def produce(config: dict[str, Any], topic: str, records: Sequence[tuple[str, bytes, bytes]],
            rate: float | None) -> dict[str, float]:
    producer = KafkaProducer(**config)
    sent: dict[str, float] = {}
    started = time.time()
    for i, (command_id, key, value) in enumerate(records):
        if rate:
            delay = started + i / rate - time.time()
            if delay > 0:
                time.sleep(delay)
        now = time.time()
        sent[command_id] = now
        producer.send(topic, key=key, value=value, timestamp_ms=int(now * 1000))
    producer.flush()
    producer.close()
    return sent


async def until_applied(timed: Timed, ids: Sequence[str], timeout_s: float) -> None:
    """Waits, looking at each id until it is applied once: a scan of every id each time would take
    the interpreter from the worker it waits on."""
    deadline = time.monotonic() + timeout_s
    done = 0
    while True:
        while done < len(ids) and ids[done] in timed.applied_at:
            done += 1
        if done == len(ids):
            return
        if time.monotonic() > deadline:
            missing = sum(i not in timed.applied_at for i in ids)
            raise SystemExit(f"{missing} commands were not applied within {timeout_s:.0f}s")
        await asyncio.sleep(0.05)


async def measure(label: str, embedder: Any, args: argparse.Namespace, burst: list[Command],
                  paced: list[Command], workdir: Path) -> Row:
    run = uuid.uuid4().hex[:8]
    settings = Settings(
        neo4j_uri=args.servers.neo4j_uri, kafka_bootstrap=args.servers.kafka_bootstrap,
        home=workdir / run, event_log="kafka", commands_topic=f"bench-{run}.commands",
        events_topic=f"bench-{run}.events", dead_letter_topic=f"bench-{run}.dlq",
        worker_group=f"bench-{run}", worker_batch=args.batch,
    )
    lore = bootstrap(settings, embedder=embedder)
    lore.projector.wipe()
    partitions = prepare_topics(settings)
    timed = Timed(lore)
    broker, _ = command_broker(settings, lore.commands, partitions=partitions)
    await broker.start()
    try:
        warm = structured(50, 50, seed=99)
        await asyncio.to_thread(send, settings, warm, None)
        await until_applied(timed, [c.command_id for c in warm], 120)

        console.log(f"{label}: burst of {len(burst):,} commands")
        sent = await asyncio.to_thread(send, settings, burst, None)
        await until_applied(timed, [c.command_id for c in burst], 1800)
        seconds = max(timed.applied_at[c.command_id] for c in burst) - min(sent.values())

        # Below capacity (at most half the burst's rate), so that latency is the path's, not a queue's.
        rate = min(args.rate, 0.5 * len(burst) / seconds)
        console.log(f"{label}: {len(paced):,} commands at {rate:,.0f}/s for latency")
        sent = await asyncio.to_thread(send, settings, paced, rate)
        await until_applied(timed, [c.command_id for c in paced], 600)
        latencies = [timed.applied_at[c] - t for c, t in sent.items()]
    finally:
        await broker.stop()
        lore.close()
    return Row(label, len(burst), seconds, latencies, rate)


def pct(values: list[float], p: float) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


async def main_async(args: argparse.Namespace) -> list[Row]:
    workdir = args.servers.home
    burst = structured(args.commands, args.users, seed=1)
    paced = structured(args.paced, args.users, seed=2)
    rows = [await measure("none (no vectors)", None, args, burst, paced, workdir)]
    model = LocalMiniLM()
    cached = CachedEmbedder(model)
    console.log("precomputing vectors for every text")
    cached.embed(list({c.content for c in burst + paced if isinstance(c, RecordMemory)}))
    rows.append(await measure(f"{model.model}, precomputed", cached, args, burst, paced, workdir))
    few = args.embed_commands
    computed_burst = structured(few, args.users, seed=3)
    computed_paced = structured(max(few // 4, 20), args.users, seed=4)
    rows.append(await measure(f"{model.model}, computed", model, args, computed_burst, computed_paced,
                              workdir))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=100_000, help="burst size for throughput")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--paced", type=int, default=5000, help="commands sent at --rate for latency")
    parser.add_argument("--rate", type=float, default=500.0, help="commands per second for latency")
    parser.add_argument("--embed-commands", type=int, default=2000,
                        help="burst size of the run that computes embeddings (~170 texts/s on 2 cores)")
    parser.add_argument("--batch", type=int, default=2000, help="most commands a worker handles at once")
    stack.add_arguments(parser, kafka=True)
    args = parser.parse_args()
    with stack.bench_servers(args, "ingest", kafka=True) as servers:
        args.servers = servers
        rows = asyncio.run(main_async(args))
    table = Table(title=f"Kafka -> Lore -> Neo4j, {args.users:,} users, {datetime.now():%Y-%m-%d %H:%M}")
    for column in ("embedder", "burst", "seconds", "commands/s", "paced at", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "embedder" else "right")
    for row in rows:
        table.add_row(row.embedder, f"{row.commands:,}", f"{row.seconds:.1f}",
                      f"{row.commands / row.seconds:,.0f}", f"{row.rate:,.0f}/s",
                      *(f"{pct(row.latencies, p) * 1000:,.0f}" for p in (50, 95, 99)))
    console.print(table)


if __name__ == "__main__":
    main()
