"""Servers of a benchmark's own: a benchmark wipes the graph it loads, so it never runs on the store
that `make run` serves (`./.lore`, ports 7687 and 9092) unless told to.

By default each benchmark starts a Neo4j (and a Kafka, when it needs one) of its own, under
`.lore-bench/<name>` on free ports, and deletes it at the end (`--keep-stack` keeps it running for
a later `--skip-load` or `--reuse`, on the same ports; such a run keeps it too). `--neo4j-uri`
names a Neo4j of yours instead: a store that holds anything is refused, naming `--wipe-store`, the
flag that allows it.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from neo4j import GraphDatabase

from infra.local import LocalStack
from infra.local.process import free_port
from infra.settings import Settings

log = logging.getLogger(__name__)

HOMES = Path(".lore-bench")


@dataclass(frozen=True)
class BenchServers:
    neo4j_uri: str
    kafka_bootstrap: str | None
    stack: LocalStack | None  # None: servers the caller named
    home: Path  # where the benchmark keeps its own files (event log, ...): goes with the servers

    def settings(self, **fields: object) -> Settings:
        """Lore's settings on these servers (the event log embedded unless `fields` say otherwise)."""
        return Settings(**{"neo4j_uri": self.neo4j_uri, "kafka_bootstrap": None, **fields})  # type: ignore[arg-type]


def add_arguments(parser: argparse.ArgumentParser, kafka: bool = False) -> None:
    group = parser.add_argument_group("servers (by default the benchmark's own, never `make run`'s)")
    group.add_argument("--neo4j-uri", default=None,
                       help="use this Neo4j instead of starting one; it is wiped, so one that holds data "
                       "is refused unless --wipe-store")
    if kafka:
        group.add_argument("--kafka-bootstrap", default=None,
                           help="use this Kafka (the benchmark makes topics of its own there)")
    group.add_argument("--wipe-store", action="store_true",
                       help="allow --neo4j-uri to name a Neo4j that holds data: it is deleted")
    group.add_argument("--keep-stack", action="store_true",
                       help="leave the benchmark's own servers running, with their data, for a later run "
                       "(e.g. --skip-load or --reuse, which keep it too); `lore infra wipe` with "
                       "LORE_HOME=.lore-bench/NAME removes them")


@contextmanager
def bench_servers(args: argparse.Namespace, name: str, kafka: bool = False,
                  reuse: bool = False) -> Iterator[BenchServers]:
    """The Neo4j (and Kafka) the benchmark `name` may wipe, for the length of the block. `reuse`:
    the benchmark measures what an earlier run of its own loaded (--skip-load), wiping nothing,
    and leaves its own servers running for the next."""
    if args.neo4j_uri:
        refuse_a_store_with_data(args.neo4j_uri, args.wipe_store or reuse)
        bootstrap = getattr(args, "kafka_bootstrap", None)
        if kafka and not bootstrap:
            raise SystemExit("--neo4j-uri needs --kafka-bootstrap too (or name neither: the benchmark "
                             "then starts both servers of its own)")
        # Kept between runs, like the store it follows (a later --skip-load reads the same log).
        home = (HOMES / f"{name}-on-{args.neo4j_uri.rsplit(':', 1)[-1]}").resolve()
        home.mkdir(parents=True, exist_ok=True)
        yield BenchServers(args.neo4j_uri, bootstrap, None, home)
        return
    # A run on what an earlier run kept keeps it too: the store took minutes to record.
    with own_stack(name, kafka=kafka, keep=args.keep_stack or reuse) as own:
        yield own


def refuse_a_store_with_data(uri: str, wipe: bool) -> None:
    settings = Settings()
    auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_password else None
    with GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF") as driver:
        records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) > 0 AS held LIMIT 1")
    if records[0]["held"] and not wipe:
        raise SystemExit(
            f"{uri} holds data, and this benchmark deletes everything in it. Leave out --neo4j-uri to run "
            "on servers of the benchmark's own, or add --wipe-store to delete that store's data.")


@contextmanager
def own_stack(name: str, kafka: bool, keep: bool) -> Iterator[BenchServers]:
    """Neo4j (and Kafka) under `.lore-bench/<name>` on ports of their own, kept in that folder so
    that a stack kept running (`keep`) is found again on the same ports."""
    home = (HOMES / name).resolve()
    home.mkdir(parents=True, exist_ok=True)
    ports_file = home / "ports.json"
    ports = json.loads(ports_file.read_text()) if ports_file.exists() else {
        "local_bolt_port": free_port(), "local_http_port": free_port(),
        "local_kafka_port": free_port(), "local_kafka_controller_port": free_port()}
    ports_file.write_text(json.dumps(ports))
    # Never passwords of the user's own stack (.env): these servers are the benchmark's.
    settings = Settings(home=home, neo4j_password="", kafka_password="", **ports)
    stack = LocalStack.from_settings(settings)
    log.info("the benchmark's own servers: %s", home)
    try:
        if kafka:
            stack.up()
        else:
            stack.start_neo4j()
        (home / "lore").mkdir(exist_ok=True)
        kafka_bootstrap = stack.kafka.bootstrap if kafka else None
        yield BenchServers(stack.neo4j.bolt_uri, kafka_bootstrap, stack, home / "lore")
    finally:
        if not keep:
            stack.wipe()
            shutil.rmtree(home, ignore_errors=True)
