"""Search latency by the size of a person's memory, with concurrent clients, in a store of a
million memories: p50/p95/p99 of POST /search over HTTP, end to end, and throughput.

    python -m bench.latency          # people of 100, 1,000, 10,000, 50,000 and 100,000 memories in 1,000,000
    python -m bench.latency --sizes 100,1000 --total 3000 --distinct 500 --queries 40   # smoke (CI)

The store holds a few people of each size (--sizes) and people of 1,000 memories besides, up to
--total. Memories are natural sentences: the turns of the LoCoMo conversations (people telling
each other about their lives), and the questions are LoCoMo's questions. It is built by
projecting MemoryRecorded events straight into Neo4j (the rebuild path). Vectors are the
embedder's (--embedder): computing a million takes hours on 2 cores, so the
--distinct sentences are embedded and each memory takes one of them with a little noise, so that
no two vectors coincide (which would flatter the HNSW graph). Queries are embedded by the server,
as a client's would be.

For each size and each number of concurrent clients (--clients), --queries searches go to people
of that size, each client sending its next as soon as the last is answered; the table gives the
latency each client saw and the searches answered a second. Each such cell has a server of its
own, warmed up with questions it is then not asked (a server keeps the vectors of queries it
embedded, and a cell that asked again what another had asked would not pay for embedding them).
Then each candidate source alone.
Runs on a Neo4j of its own (bench/stack.py; `--keep-stack` keeps it for `--skip-load`), or on
--neo4j-uri, which it wipes. The `lore serve` it starts embeds with the store's model (--embedder),
and one that says it is degraded stops the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import httpx
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bench import stack
from bench.core import chunks
from bench.metrics_scrape import Buckets, Scraper, rows, summed
from bench.retrieval import data_folder
from domain.events import Embedding, MemoryRecorded
from domain.model import MemoryKind, derived_id
from domain.stored import StoredEvent
from infra.embedding import open_embedder
from infra.embedding.port import Embedder, embed_queries
from infra.local.process import free_port
from infra.settings import Settings
from projections.graph import ensure_schema
from projections.search import CandidateQueries, Window
from services.bootstrap import bootstrap

console = Console(width=150)
START = datetime(2024, 1, 1, tzinfo=UTC)
FILLER = 1_000  # memories of each person who fills the store up to --total
WARM_UP = 50  # searches each server answers before it is measured


def locomo() -> list[dict]:
    return json.loads((data_folder() / "locomo" / "locomo10.json").read_text())


def sentences(conversations: list[dict]) -> list[str]:
    """Every turn said in the conversations, once (greetings of a few words left out)."""
    said = (turn["text"] for c in conversations for key, turns in c["conversation"].items()
            if key.startswith("session_") and isinstance(turns, list) for turn in turns)
    return list(dict.fromkeys(t.strip() for t in said if len(t.split()) >= 6))


def questions(conversations: list[dict], n: int, seed: int) -> list[str]:
    """`n` of the conversations' questions, none twice while there are enough (LoCoMo has 1,974)."""
    asked = list(dict.fromkeys(qa["question"] for c in conversations for qa in c["qa"]))
    rng = random.Random(seed)
    drawn = rng.sample(asked, min(n, len(asked)))
    return drawn + [rng.choice(asked) for _ in range(n - len(drawn))]


@dataclass(frozen=True)
class Person:
    user_id: str
    memories: int


def people(sizes: list[int], total: int) -> list[Person]:
    """A few people of each size (more of the small ones, up to 20), then people of FILLER up to
    `total`."""
    out = [Person(f"p{size}-{i:02d}", size)
           for size in sizes for i in range(max(1, min(20, total // (5 * size))))]
    filler = max(0, total - sum(p.memories for p in out)) // FILLER
    return out + [Person(f"user-{i:04d}", FILLER) for i in range(filler)]


def memories(owners: list[Person], pool: list[str], vectors: np.ndarray,
             seed: int, model: str) -> Iterator[MemoryRecorded]:
    rng = np.random.default_rng(seed)
    for person in owners:
        user, count = person.user_id, person.memories
        picks = rng.integers(0, len(pool), size=count)
        noisy = vectors[picks] + rng.normal(0, 0.02, size=(count, vectors.shape[1])).astype(np.float32)
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        for i, (pick, vector) in enumerate(zip(picks, noisy, strict=True)):
            at = START + timedelta(minutes=int(i * 7))
            command = f"bench-{user}-{i}"
            yield MemoryRecorded(
                event_id=derived_id("event", user, command, "1"), user_id=user, command_id=command,
                occurred_at=at, recorded_at=at, memory_id=derived_id("memory", user, command),
                kind=MemoryKind.FACT, content=pool[pick], valid_from=at, importance=0.5,
                embedding=Embedding.of(model, vector.tolist()),
            )


def load(settings: Settings, owners: list[Person], pool: list[str], model: Embedder) -> None:
    console.log(f"embedding {len(pool):,} distinct sentences")
    vectors = np.array(model.embed(pool), dtype=np.float32)
    lore = bootstrap(settings, embedder=model)
    lore.projector.wipe()
    ensure_schema(lore.driver, model.dimensions, settings.neo4j_database)
    with Progress(TextColumn("projecting memories"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console) as progress:
        task = progress.add_task("load", total=sum(p.memories for p in owners))
        stored = (StoredEvent(0, position, event)
                  for position, event in enumerate(memories(owners, pool, vectors, 2, model.model)))
        for batch in chunks(stored, 5000):
            lore.projector.apply(batch)
            progress.advance(task, len(batch))
    lore.driver.execute_query("CALL db.awaitIndexes(3600)")
    lore.close()


def pct(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000


def timed(calls: list[Callable[[], object]]) -> list[float]:
    out = []
    for call in calls:
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user and system) a process has used so far, from /proc; None where unknown."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Cell:
    size: int
    clients: int
    latencies: list[float]
    wall_s: float
    cpu_ms: dict[str, float | None] = field(default_factory=dict)  # per search, by process

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.wall_s


def concurrently(url: str, asks: list[tuple[str, str]], clients: int, size: int = 0,
                 pids: dict[str, int | None] | None = None) -> Cell:
    """`clients` threads, each with its own connection, taking the next search as soon as theirs
    is answered: the latency each saw, the searches answered per second of the whole, and the CPU
    each of `pids` spent per search meanwhile."""
    latencies: list[float] = []
    lock = threading.Lock()
    pending = iter(asks)

    def client() -> None:
        with httpx.Client(base_url=url, timeout=60) as http:
            while True:
                with lock:
                    ask = next(pending, None)
                if ask is None:
                    return
                user, query = ask
                started = time.perf_counter()
                http.post(f"/v1/users/{user}/search", json={"query": query, "limit": 10}).raise_for_status()
                took = time.perf_counter() - started
                with lock:
                    latencies.append(took)

    pids = pids or {}
    cpu = {name: cpu_seconds(pid) for name, pid in pids.items()}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        for done in [pool.submit(client) for _ in range(clients)]:
            done.result()
    wall = time.perf_counter() - started
    spent = {name: None if (before is None or (after := cpu_seconds(pids[name])) is None)
             else 1000 * (after - before) / max(len(latencies), 1) for name, before in cpu.items()}
    return Cell(size, clients, latencies, wall, spent)


def serve(settings: Settings) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "LORE_NEO4J_URI": settings.neo4j_uri, "LORE_HOME": str(settings.home),
           "LORE_EVENT_LOG": "sqlite", "LORE_RATE_LIMIT": "1000000/second",
           "LORE_EMBEDDER": settings.embedder}
    env.pop("LORE_KAFKA_BOOTSTRAP", None)
    server = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            health = httpx.get(f"{url}/v1/health", timeout=1)
        except httpx.HTTPError:
            time.sleep(0.2)
            continue
        reasons = health.json().get("reasons") or []
        if health.status_code == 200 and not reasons:
            return server, url
        if reasons:  # e.g. a server on another model than the store's: it would measure less
            server.kill()
            raise SystemExit(f"lore serve is degraded: {reasons}")
        time.sleep(0.2)
    server.kill()
    raise SystemExit("lore serve did not come up")


def graph_alone(queries: CandidateQueries, user: str, query: str, window: Window) -> object:
    """The entities the query names, then the memories about them (no seeds from other sources)."""
    return queries.graph("memory", user, query, [], window, 30)


def sources_alone(queries: CandidateQueries, model: Embedder, asked: list[str],
                  by_size: dict[int, list[str]]) -> list[tuple[str, list[float]]]:
    """Each candidate query by itself, as the search service runs it (30 candidates a source), one
    client."""
    window = Window(valid_at=datetime.now(UTC), known_at=None)
    vectors = embed_queries(model, asked)
    out = []
    for size, who in by_size.items():
        counts = {u: queries.counts(u) for u in set(who)}
        asks = list(zip(who, asked, vectors, strict=True))
        out.append((f"vector alone, {size:,} memories", timed([partial(
            queries.vector, "memory", u, v, window, 30, counts[u].memory, counts[u].all_memory, model.model)
            for u, _, v in asks])))
        out.append((f"BM25 alone, {size:,} memories", timed([
            partial(queries.text, "memory", u, q, window, 30) for u, q, _ in asks])))
        out.append((f"graph alone, {size:,} memories", timed([
            partial(graph_alone, queries, u, q, window) for u, q, _ in asks])))
    out.append((f"query embedding ({model.model})",
                timed([partial(embed_queries, model, [q]) for q in asked])))
    return out


def ints(text: str) -> list[int]:
    return [int(part.replace("_", "")) for part in text.split(",") if part]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=ints, default=[100, 1_000, 10_000, 50_000, 100_000],
                        help="memories of the people measured, comma-separated")
    parser.add_argument("--total", type=int, default=1_000_000,
                        help="memories in the store; people of 1,000 fill it beyond the measured ones")
    parser.add_argument("--clients", type=ints, default=[1, 4, 16],
                        help="concurrent clients, comma-separated")
    parser.add_argument("--distinct", type=int, default=6_000, help="distinct sentences embedded (LoCoMo has "
                        "about 5,000 of six words or more; fewer are taken when asked)")
    parser.add_argument("--queries", type=int, default=400, help="searches per size and number of clients")
    parser.add_argument("--skip-load", action="store_true", help="reuse the graph already there")
    parser.add_argument("--embedder", default=None, help="the embedder of the store and the server "
                        "(default: LORE_EMBEDDER, else Lore's default)")
    parser.add_argument("--load-only", action="store_true",
                        help="build the store and stop (then measure with --skip-load, on a quiet machine)")
    stack.add_arguments(parser)
    args = parser.parse_args()
    if args.load_only:
        args.keep_stack = True  # measured later, with --skip-load
    with stack.bench_servers(args, "latency", reuse=args.skip_load) as servers:
        run(args, servers)


def run(args: argparse.Namespace, servers: stack.BenchServers) -> None:
    # The stack's home: --skip-load serves the graph with the event log it follows.
    chosen = {"embedder": args.embedder} if args.embedder else {}
    settings = servers.settings(home=servers.home, **chosen)
    model = open_embedder(settings)
    assert model is not None, "the latency benchmark needs an embedder"
    conversations = locomo()
    owners = people(args.sizes, args.total)
    if not args.skip_load:
        load(settings, owners, sentences(conversations)[:args.distinct], model)
    if args.load_only:
        return
    rng = random.Random(3)
    cells: list[Cell] = []
    observed: Buckets = {}
    scrapes = failures = 0
    for size in args.sizes:
        sized = [p.user_id for p in owners if p.memories == size]
        for clients in args.clients:
            # Each cell on a server of its own, asked what it was not asked while warming up: the
            # server keeps the vectors of the queries it embedded, and a question asked again would
            # cost no embedding (the cells once shared one server and one question list, so every
            # cell after the first measured searches without their embedding).
            drawn = questions(conversations, WARM_UP + args.queries, seed=4 + len(cells))
            warm, asked = drawn[:WARM_UP], drawn[WARM_UP:]
            who = [rng.choice(sized) for _ in range(WARM_UP + args.queries)]
            server, url = serve(settings)
            # The CPU each search costs: the API process's and Neo4j's (known when the stack is the
            # benchmark's own).
            pids = {"API": server.pid, "Neo4j": servers.stack.neo4j_pid() if servers.stack else None}
            try:
                concurrently(url, list(zip(who[:WARM_UP], warm, strict=True)), 4)
                scraper = Scraper(url)
                scraper.start()
                cell = concurrently(url, list(zip(who[WARM_UP:], asked, strict=True)), clients, size, pids)
                observed = summed(observed, scraper.stop())
                scrapes, failures = scrapes + scraper.scrapes, failures + scraper.failures
            finally:
                server.terminate()
                server.wait(30)
            cells.append(cell)
            console.log(f"{size:>7,} memories, {clients:>2} clients: "
                        f"p95 {pct(cell.latencies, 95):.1f} ms, {cell.throughput:.1f} searches/s")

    asked = questions(conversations, args.queries, seed=4)
    by_size = {size: [rng.choice([p.user_id for p in owners if p.memories == size]) for _ in asked]
               for size in args.sizes}
    lore = bootstrap(settings, embedder=model)
    alone = sources_alone(lore.search.queries, model, asked, by_size)
    lore.close()

    total = sum(p.memories for p in owners)
    console.print(cells_table(cells, total, len(owners), args.queries))
    console.print(alone_table(alone))
    console.print(metrics_table(observed, scrapes, failures))



def cells_table(cells: list[Cell], total: int, owners: int, queries: int) -> Table:
    table = Table(title=f"HTTP POST /search by the person's size and concurrent clients: {total:,} memories, "
                        f"{owners:,} people, {queries:,} searches a row, local Neo4j on this machine")
    for column in ("person's memories", "clients", "p50 ms", "p95 ms", "p99 ms", "searches/s",
                   "CPU ms/search: API", "Neo4j"):
        table.add_column(column, justify="right")
    for cell in cells:
        quantiles = (f"{pct(cell.latencies, p):.1f}" for p in (50, 95, 99))
        cpu = ("-" if (ms := cell.cpu_ms.get(name)) is None else f"{ms:.1f}" for name in ("API", "Neo4j"))
        table.add_row(f"{cell.size:,}", str(cell.clients), *quantiles, f"{cell.throughput:.1f}", *cpu)
    return table


def alone_table(alone: list[tuple[str, list[float]]]) -> Table:
    table = Table(title="Each candidate source alone, in process, one client")
    for column in ("what", "p50 ms", "p95 ms", "p99 ms", "mean ms"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for label, values in alone:
        table.add_row(label, f"{pct(values, 50):.1f}", f"{pct(values, 95):.1f}", f"{pct(values, 99):.1f}",
                      f"{1000 * statistics.fmean(values):.1f}")
    return table


def metrics_table(observed: Buckets, scrapes: int, failures: int) -> Table:
    table = Table(title=f"The same HTTP searches as Lore's /metrics reported them ({scrapes} "
                        f"scrapes, {failures} failed; quantiles estimated from the histogram "
                        "buckets, as histogram_quantile does)")
    for column in ("series", "count", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "series" else "right")
    for label, count, *quantiles in rows(observed):
        table.add_row(label, f"{count:,}", *("-" if v is None else f"{v:.1f}" for v in quantiles))
    return table


if __name__ == "__main__":
    main()
