"""How soon Lore knows a Neo4j is away, and that a busy one is not: the driver as
services/bootstrap.py makes it (LORE_NEO4J_CONNECT_TIMEOUT_S, LORE_NEO4J_ACQUIRE_TIMEOUT_S,
LORE_NEO4J_RETRY_S) against the driver's defaults.

    python -m bench.graph_away                 # --load 16 --seconds 60

Starts a Neo4j of its own (temporary folder, free ports, a 512 MB heap to make its collector
work), then
1. busy: `--load` threads run heavy Cypher through one Lore driver (a read that keeps a core
   busy, a write of 20,000 nodes, a read that fills the heap, in turn) while a probe opens a new
   connection every 100 ms (what LORE_NEO4J_ACQUIRE_TIMEOUT_S bounds) and asks `RETURN 1` over
   the load's pool. It prints how long each took (median, p99, max), and every query that failed.
2. away: Neo4j frozen (SIGSTOP) and then killed (SIGKILL): how long a read takes to fail,
   over a new connection and over one from the pool, under the defaults and Lore's settings.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from neo4j import Driver, GraphDatabase
from rich.console import Console
from rich.table import Table

from infra.local import LocalStack
from infra.local.process import free_port
from infra.local.servers import KafkaServer, Neo4jServer
from infra.settings import Settings
from services.bootstrap import neo4j_driver

console = Console(width=150)

LOAD = [
    "UNWIND range(1, 3000000) AS x WITH x WHERE x % 7 = 0 RETURN count(*) AS n",
    "UNWIND range(1, 20000) AS x CREATE (:BenchLoad {x: x, pad: 'padding padding padding'})",
    "UNWIND range(1, 20) AS r WITH r, [x IN range(1, 20000) | toString(x)] AS big RETURN r, size(big)",
    "MATCH (n:BenchLoad) WITH n LIMIT 20000 DELETE n",
]
GIVE_UP_S = 75.0  # a read that has not failed by then is counted as hanging


def own_neo4j(home: Path) -> LocalStack:
    return LocalStack(
        home=home, jar_cache=Settings().jar_cache,
        neo4j=Neo4jServer(home=home / "neo4j", bind="127.0.0.1", bolt_port=free_port(),
                          http_port=free_port(), heap="512m", pagecache="128m"),
        kafka=KafkaServer(home=home / "kafka", bind="127.0.0.1", port=free_port(),
                          controller_port=free_port(), heap="256m"),
        start_timeout_s=300)


def percentiles(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:.1f} / {p99 * 1000:.1f} / {ordered[-1] * 1000:.1f} ms"


def busy(settings: Settings, threads: int, seconds: float) -> None:
    lore = neo4j_driver(settings)
    failures: Counter[str] = Counter()
    done: Counter[str] = Counter()
    stop = threading.Event()

    def load(n: int) -> None:
        i = n
        while not stop.is_set():
            try:
                lore.execute_query(LOAD[i % len(LOAD)], database_="neo4j")
                done["load"] += 1
            except Exception as error:  # noqa: BLE001 - counted: what the bench reports
                failures[f"load: {type(error).__name__}: {str(error)[:80]}"] += 1
            i += 1

    workers = [threading.Thread(target=load, args=(n,), daemon=True) for n in range(threads)]
    for worker in workers:
        worker.start()
    time.sleep(3)  # the load is under way
    connects: list[float] = []
    pooled: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            with neo4j_driver(settings) as driver:
                driver.verify_connectivity()  # TCP, Bolt handshake, login: what the timeout bounds
            connects.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001
            failures[f"new connection: {type(error).__name__}: {str(error)[:80]}"] += 1
        started = time.perf_counter()
        try:
            lore.execute_query("RETURN 1", database_="neo4j")
            pooled.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001
            failures[f"pooled: {type(error).__name__}: {str(error)[:80]}"] += 1
        time.sleep(0.1)
    stop.set()
    for worker in workers:
        worker.join()
    lore.close()
    table = Table(title=f"busy Neo4j: {threads} threads of heavy Cypher for {seconds:.0f} s "
                  f"({done['load']} finished)")
    for column in ("what", "samples", "median / p99 / max", "Lore's bound"):
        table.add_column(column)
    bound = f"{settings.neo4j_acquire_timeout_s:.1f} s (LORE_NEO4J_ACQUIRE_TIMEOUT_S)"
    table.add_row("a new connection (TCP, handshake, login)", str(len(connects)), percentiles(connects),
                  bound)
    table.add_row("RETURN 1 over the load's pool", str(len(pooled)), percentiles(pooled), "none (a query)")
    console.print(table)
    probe = sum(n for what, n in failures.items() if not what.startswith("load"))
    console.print(f"the probe's connections and queries that failed: {probe} (what must stay 0)")
    for what, n in failures.most_common():
        # The load's own heavy queries may be refused by Neo4j (its transaction memory limit on a
        # 512 MB heap): that is how busy it is, not a connection Lore gave up on.
        console.print(f"  {n} × {what}")


def time_to_fail(driver: Driver) -> tuple[float | None, str]:
    """Seconds a read took to fail (None: it had not after GIVE_UP_S), and how it failed."""
    outcome: dict[str, tuple[float, str]] = {}

    def read() -> None:
        started = time.monotonic()
        try:
            driver.execute_query("RETURN 1", database_="neo4j")
            outcome["r"] = (time.monotonic() - started, "answered")
        except Exception as error:  # noqa: BLE001 - how it failed is what is measured
            outcome["r"] = (time.monotonic() - started, type(error).__name__)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(GIVE_UP_S)
    return outcome.get("r", (None, "still waiting"))  # type: ignore[return-value]


def away(stack: LocalStack, settings: Settings) -> None:
    pid = stack._process(stack.neo4j).pid()
    assert pid is not None
    drivers = {"driver defaults": lambda: GraphDatabase.driver(settings.neo4j_uri, auth=None),
               "Lore's settings": lambda: neo4j_driver(settings)}
    table = Table(title="a read of a Neo4j that is away: seconds until it fails")
    for column in ("Neo4j", "connection", "driver", "seconds", "error"):
        table.add_column(column)
    for state, sig in (("frozen (SIGSTOP)", signal.SIGSTOP), ("killed (SIGKILL)", signal.SIGKILL)):
        ready = {(name, pooled): make() for name, make in drivers.items() for pooled in (False, True)}
        for (_, pooled), driver in ready.items():
            if pooled:
                driver.execute_query("RETURN 1", database_="neo4j")
        time.sleep(3)  # pooled connections idle past the liveness check's threshold, as in life
        os.kill(pid, sig)
        try:
            for (name, pooled), driver in ready.items():
                seconds, error = time_to_fail(driver)
                shown = "hangs" if seconds is None else f"{seconds:.2f}"
                table.add_row(state, "pooled" if pooled else "new", name, shown, error)
                console.log(state, name, "pooled" if pooled else "new", shown, error)
        finally:
            if sig == signal.SIGSTOP:
                os.kill(pid, signal.SIGCONT)
            for driver in ready.values():
                driver.close()
    console.print(table)


def main() -> None:
    logging.getLogger("neo4j").setLevel(logging.ERROR)  # each retry is a warning: noise here
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load", type=int, default=16, help="threads of heavy Cypher")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the busy phase lasts")
    parser.add_argument("--only", choices=("busy", "away"), help="run one phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lore-bench-away-") as home:
        stack = own_neo4j(Path(home))
        console.log("starting a Neo4j of its own")
        stack.start_neo4j()
        try:
            settings = Settings(neo4j_uri=stack.neo4j.bolt_uri, home=Path(home))
            console.log(f"TCP connect within {settings.neo4j_connect_timeout_s} s, a connection within "
                        f"{settings.neo4j_acquire_timeout_s} s, retries for {settings.neo4j_retry_s} s")
            if args.only != "away":
                busy(settings, args.load, args.seconds)
            if args.only != "busy":
                away(stack, settings)
        finally:
            stack.down()


if __name__ == "__main__":
    main()
