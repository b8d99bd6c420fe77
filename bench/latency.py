"""Search latency at a million memories: p50/p95/p99 of POST /search over HTTP, end to end, and
of each candidate source alone.

    python -m bench.latency                              # 1,000 users x 1,000 memories + one with 100,000
    python -m bench.latency --users 20 --per-user 200 --big 2000 --queries 100   # smoke (CI)

The store is built by projecting MemoryRecorded events straight into Neo4j (the rebuild path).
Vectors are the local model's (all-MiniLM-L6-v2 int8): computing a million of them takes about
1.6 hours on 2 cores, so --distinct texts are embedded and each memory takes one of them, with
a little noise so that no two vectors coincide (which would flatter the HNSW graph). Latency is
measured with queries the local model embeds on the server, as a client's would be.
Needs Neo4j at LORE_NEO4J_URI (`lore infra up`); it wipes that database.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import httpx
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bench.metrics_scrape import Buckets, Scraper, rows
from domain.events import Embedding, MemoryRecorded
from domain.model import MemoryKind, derived_id
from domain.stored import StoredEvent
from infra.embedding.local import LocalMiniLM
from infra.local.process import free_port
from infra.settings import Settings
from projections.graph import ensure_schema
from projections.search import CandidateQueries, Window
from services.bootstrap import bootstrap

console = Console(width=150)
START = datetime(2024, 1, 1, tzinfo=UTC)
TOPICS = ["Kafka", "Neo4j", "Python", "Rust", "climbing", "jazz", "sourdough", "chess", "gardening",
          "photography", "marathons", "Spanish", "woodworking", "sailing", "astronomy", "pottery"]
PEOPLE = ["Ada", "Grace", "Linus", "Margaret", "Alan", "Barbara", "Ken", "Frances", "Edsger", "Radia"]
PLACES = ["Lisbon", "Berlin", "Osaka", "Toronto", "Nairobi", "Oslo", "Lima", "Hanoi", "Austin", "Porto"]
FOODS = ["green tea", "espresso", "ramen", "tacos", "oat milk", "dark chocolate", "kimchi", "falafel"]
TEMPLATES = [
    ("preference", "Prefers {food} when working on {topic}"),
    ("fact", "Talked with {person} about {topic} in {place}"),
    ("event", "Went to a {topic} meetup in {place} with {person}"),
    ("goal", "Wants to get better at {topic} before visiting {place}"),
    ("lesson", "Learned that {topic} goes better after {food}"),
    ("fact", "{person} recommended a book about {topic}"),
    ("person", "{person} lives in {place} and loves {food}"),
    ("todo", "Book a {topic} class in {place} for {person}"),
]
QUESTIONS = ["what do I like to drink while coding?", "who did I talk to about {topic}?",
             "what happened in {place}?", "{person}", "my goals for {topic}", "book recommendations",
             "what did {person} suggest?", "trips to {place}", "{topic} {food}"]


def texts(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    found: dict[str, str] = {}
    while len(found) < n:
        kind, template = rng.choice(TEMPLATES)
        text = template.format(topic=rng.choice(TOPICS), person=rng.choice(PEOPLE), place=rng.choice(PLACES),
                               food=rng.choice(FOODS)) + f" (note {rng.randrange(10_000)})"
        found.setdefault(text, kind)
    return [(kind, text) for text, kind in found.items()]


def questions(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(QUESTIONS).format(topic=rng.choice(TOPICS), person=rng.choice(PEOPLE),
                                         place=rng.choice(PLACES), food=rng.choice(FOODS)) for _ in range(n)]


def memories(users: int, per_user: int, big: int, pool: list[tuple[str, str]], vectors: np.ndarray,
             seed: int) -> Iterator[MemoryRecorded]:
    rng = np.random.default_rng(seed)
    owners = [(f"user-{u:04d}", per_user) for u in range(users)] + ([("big-user", big)] if big else [])
    for user, count in owners:
        picks = rng.integers(0, len(pool), size=count)
        noisy = vectors[picks] + rng.normal(0, 0.02, size=(count, vectors.shape[1])).astype(np.float32)
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        for i, (pick, vector) in enumerate(zip(picks, noisy, strict=True)):
            kind, text = pool[pick]
            at = START + timedelta(minutes=int(i * 7))
            command = f"bench-{user}-{i}"
            yield MemoryRecorded(
                event_id=derived_id("event", user, command, "1"), user_id=user, command_id=command,
                occurred_at=at, recorded_at=at, memory_id=derived_id("memory", user, command),
                kind=MemoryKind(kind), content=text, valid_from=at, importance=0.5,
                embedding=Embedding.of(LocalMiniLM.model, vector.tolist()),
            )


def load(settings: Settings, args: argparse.Namespace, model: LocalMiniLM) -> None:
    pool = texts(args.distinct, seed=1)
    console.log(f"embedding {len(pool):,} distinct texts")
    vectors = np.array(model.embed([t for _, t in pool]), dtype=np.float32)
    lore = bootstrap(settings, embedder=model)
    lore.projector.wipe()
    ensure_schema(lore.driver, model.dimensions, settings.neo4j_database)
    total = args.users * args.per_user + args.big
    batch: list[StoredEvent] = []
    with Progress(TextColumn("projecting memories"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console) as progress:
        task = progress.add_task("load", total=total)
        events = memories(args.users, args.per_user, args.big, pool, vectors, seed=2)
        for position, event in enumerate(events):
            batch.append(StoredEvent(0, position, event))
            if len(batch) == 5000:
                lore.projector.apply(batch)
                progress.advance(task, len(batch))
                batch = []
        if batch:
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


def serve(settings: Settings) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "LORE_NEO4J_URI": settings.neo4j_uri, "LORE_HOME": str(settings.home),
           "LORE_EVENT_LOG": "sqlite"}
    env.pop("LORE_KAFKA_BOOTSTRAP", None)
    server = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/v1/health", timeout=1).status_code == 200:
                return server, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit("lore serve did not come up")


def graph_alone(queries: CandidateQueries, user: str, query: str, window: Window) -> object:
    """The entities the query names, then the memories about them (no seeds from other sources)."""
    return queries.graph("memory", user, queries.named_entities(user, query), [], window, 30)


def sources_alone(queries: CandidateQueries, model: LocalMiniLM, asked: list[str], users: list[str],
                  per_user: int, big: int) -> list[tuple[str, list[float]]]:
    """Each candidate query by itself, as the search service runs it (30 candidates a source)."""
    window = Window(valid_at=datetime.now(UTC), known_at=None)
    vectors = model.embed(asked)
    groups = [(f"{per_user:,}-memory users", users)]
    if big:
        groups.append((f"the {big:,}-memory user", ["big-user"] * len(asked)))
    rows = []
    for label, who in groups:
        counts = {u: queries.counts(u) for u in set(who)}
        asks = list(zip(who, asked, vectors, strict=True))
        rows.append((f"vector alone, {label}", timed([partial(
            queries.vector, "memory", u, v, window, 30, counts[u].memory, counts[u].all_memory)
            for u, _, v in asks])))
        rows.append((f"BM25 alone, {label}", timed([
            partial(queries.text, "memory", u, q, window, 30) for u, q, _ in asks])))
        rows.append((f"graph alone, {label}", timed([
            partial(graph_alone, queries, u, q, window) for u, q, _ in asks])))
    rows.append(("query embedding (local model)", timed([partial(model.embed, [q]) for q in asked])))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--per-user", type=int, default=1000)
    parser.add_argument("--big", type=int, default=100_000, help="memories of the one large user")
    parser.add_argument("--distinct", type=int, default=20_000, help="distinct texts embedded")
    parser.add_argument("--queries", type=int, default=1000, help="timed queries per row")
    parser.add_argument("--skip-load", action="store_true", help="reuse the graph already there")
    args = parser.parse_args()
    # One home for every run, so that --skip-load serves the graph with the event log it follows.
    home = Path(tempfile.gettempdir()) / "lore-bench-latency"
    home.mkdir(exist_ok=True)
    settings = Settings(home=home, kafka_bootstrap=None)
    model = LocalMiniLM()
    if not args.skip_load:
        load(settings, args, model)
    rng = random.Random(3)
    asked = questions(args.queries, seed=4)
    users = [f"user-{rng.randrange(args.users):04d}" for _ in asked]
    rows: list[tuple[str, list[float]]] = []

    server, url = serve(settings)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            def post(user: str, query: str) -> Callable[[], object]:
                def call() -> object:
                    response = client.post(f"/v1/users/{user}/search", json={"query": query, "limit": 10})
                    response.raise_for_status()
                    return response
                return call
            timed([post(u, q) for u, q in zip(users[:50], asked[:50], strict=True)])  # warm up
            scraper = Scraper(url)
            scraper.start()
            rows.append((f"HTTP /search, {args.per_user:,}-memory users", timed(
                [post(u, q) for u, q in zip(users, asked, strict=True)])))
            if args.big:
                rows.append((f"HTTP /search, the {args.big:,}-memory user", timed(
                    [post("big-user", q) for q in asked])))
            observed = scraper.stop()
    finally:
        server.terminate()
        server.wait(30)

    lore = bootstrap(settings, embedder=model)
    rows += sources_alone(lore.search.queries, model, asked, users, args.per_user, args.big)
    lore.close()

    total = args.users * args.per_user + args.big
    table = Table(title=f"Search latency, {total:,} memories, {args.users + bool(args.big):,} users, "
                        f"{args.queries:,} queries a row, local Neo4j on this machine")
    for column in ("what", "p50 ms", "p95 ms", "p99 ms", "mean ms"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for label, values in rows:
        table.add_row(label, f"{pct(values, 50):.1f}", f"{pct(values, 95):.1f}", f"{pct(values, 99):.1f}",
                      f"{1000 * statistics.fmean(values):.1f}")
    console.print(table)
    console.print(metrics_table(observed, scraper))


def metrics_table(observed: Buckets, scraper: Scraper) -> Table:
    table = Table(title=f"The same HTTP searches as Lore's /metrics reported them ({scraper.scrapes} "
                        f"scrapes, {scraper.failures} failed; quantiles estimated from the histogram "
                        "buckets, as histogram_quantile does)")
    for column in ("series", "count", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "series" else "right")
    for label, count, *quantiles in rows(observed):
        table.add_row(label, f"{count:,}", *("-" if v is None else f"{v:.1f}" for v in quantiles))
    return table


if __name__ == "__main__":
    main()
