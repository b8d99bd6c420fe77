"""Neo4j and Kafka together: up, down, status and wipe, as `lore infra` offers them."""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from infra.local.jars import ensure_jars
from infra.local.java import JavaTooOld, find_java
from infra.local.process import JavaProcess, port_is_free, tail
from infra.local.servers import CredentialsRefused, KafkaServer, Neo4jServer, StoreOfAnotherSeries
from infra.settings import Settings

log = logging.getLogger(__name__)

Server = Neo4jServer | KafkaServer


class StartError(RuntimeError):
    pass


@dataclass(frozen=True)
class ServerStatus:
    name: str
    pid: int | None
    answering: bool
    address: str
    home: Path


class LocalStack:
    def __init__(self, home: Path, jar_cache: Path, neo4j: Neo4jServer, kafka: KafkaServer,
                 start_timeout_s: float = 120.0, java: str | None = None) -> None:
        self.home = home
        self.jar_cache = jar_cache
        self.neo4j = neo4j
        self.kafka = kafka
        self.start_timeout_s = start_timeout_s
        self.java = java  # LORE_JAVA: tried first

    @classmethod
    def from_settings(cls, settings: Settings) -> LocalStack:
        home = settings.home.resolve()
        return cls(
            home=home,
            jar_cache=settings.jar_cache,
            neo4j=Neo4jServer(
                home=home / "neo4j", bind=settings.local_bind,
                bolt_port=settings.local_bolt_port, http_port=settings.local_http_port,
                heap=settings.neo4j_heap, pagecache=settings.neo4j_pagecache,
                guide_from=f"http://{settings.api_host}:{settings.api_port}",
                password=settings.neo4j_password or None, series=settings.neo4j_series,
            ),
            kafka=KafkaServer(
                home=home / "kafka", bind=settings.local_bind, port=settings.local_kafka_port,
                controller_port=settings.local_kafka_controller_port, heap=settings.kafka_heap,
                user=settings.kafka_username, password=settings.kafka_password or None,
            ),
            start_timeout_s=settings.local_start_timeout_s, java=settings.java,
        )

    @property
    def servers(self) -> list[Server]:
        return [self.neo4j, self.kafka]

    def _process(self, server: Server) -> JavaProcess:
        return JavaProcess(server.name, self.home / "run", server.console_log)

    def up(self, on_progress: Callable[[str], None] = lambda _: None) -> None:
        """Start whatever is not running, and return once both servers answer."""
        with ThreadPoolExecutor(max_workers=2) as pool:
            jars = dict(zip(
                ("neo4j", "kafka"),
                pool.map(lambda s: ensure_jars(s.pom, self.jar_cache), self.servers),
                strict=True,
            ))
        to_start = [s for s in self.servers if self._process(s).pid() is None]
        for server in to_start:
            taken = [p for p in server.ports if not port_is_free(server.bind, p)]
            if taken:
                raise StartError(
                    f"{server.name}: port {', '.join(map(str, taken))} on {server.bind} "
                    "is already in use by another program. Stop it, or choose other ports "
                    "(LORE_LOCAL_BOLT_PORT, LORE_LOCAL_HTTP_PORT, LORE_LOCAL_KAFKA_PORT, "
                    "LORE_LOCAL_KAFKA_CONTROLLER_PORT)."
                )
        starting = {s.name for s in to_start}
        try:  # a Java is looked for only for a server that is started: one running needs none
            if "neo4j" in starting:
                self.neo4j = replace(self.neo4j, java=find_java(self.neo4j.java_at_least, self.java))
            if "kafka" in starting:
                self.kafka = replace(self.kafka, java=find_java(self.kafka.java_at_least, self.java))
        except JavaTooOld as too_old:
            raise StartError(str(too_old)) from too_old
        for server in [s for s in self.servers if s.name in starting]:
            on_progress(f"starting {server.name}" + (f" with {server.java}" if server.java != "java" else ""))
            try:
                server.prepare(jars[server.name])
            except StoreOfAnotherSeries as other:
                raise StartError(str(other)) from other
            self._process(server).start(server.argv(jars[server.name]), cwd=server.home)
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(self._wait_until_answering, self.servers))
        for server in self.servers:
            on_progress(f"{server.name} is ready")

    def _wait_until_answering(self, server: Server) -> None:
        process = self._process(server)
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            try:
                if server.answers():
                    return
            except CredentialsRefused as refused:
                raise StartError(str(refused)) from refused
            if process.pid() is None:
                raise StartError(
                    f"{server.name} exited during start. Last lines of {server.log_file}:\n"
                    f"{tail(server.log_file)}\n--- console ---\n{tail(server.console_log, 15)}"
                )
            time.sleep(0.5)
        raise StartError(
            f"{server.name} did not answer within {self.start_timeout_s:.0f}s. "
            f"Last lines of {server.log_file}:\n{tail(server.log_file)}"
        )

    def down(self) -> list[str]:
        """Stop both servers; the names of those that were running."""
        return [s.name for s in self.servers if self._process(s).stop()]

    def status(self) -> list[ServerStatus]:
        return [
            ServerStatus(
                name=s.name,
                pid=(pid := self._process(s).pid()),
                answering=pid is not None and s.answers(),
                address=s.bolt_uri if isinstance(s, Neo4jServer) else s.bootstrap,
                home=s.home,
            )
            for s in self.servers
        ]

    def renew_neo4j_store(self, on_progress: Callable[[str], None] = lambda _: None) -> None:
        """Stop Neo4j, delete its data folder (store files and transaction logs) and start it on
        an empty one: records Neo4j freed but has not reused yet, an erased person's among them,
        go with the old files. Kafka keeps running."""
        on_progress("stopping neo4j")
        self._process(self.neo4j).stop()
        shutil.rmtree(self.neo4j.home / "data", ignore_errors=True)
        self.up(on_progress)

    def neo4j_pid(self) -> int | None:
        """The running Neo4j's process id (None when it is not running)."""
        return self._process(self.neo4j).pid()

    def start_neo4j(self, on_progress: Callable[[str], None] = lambda _: None) -> Path:
        """Start Neo4j alone (Kafka is left as it is); its jars' folder."""
        jars = ensure_jars(self.neo4j.pom, self.jar_cache)
        try:
            self.neo4j = replace(self.neo4j, java=find_java(self.neo4j.java_at_least, self.java))
        except JavaTooOld as too_old:
            raise StartError(str(too_old)) from too_old
        if self._process(self.neo4j).pid() is None:
            on_progress("starting neo4j")
            self.neo4j.prepare(jars)
            self._process(self.neo4j).start(self.neo4j.argv(jars), cwd=self.neo4j.home)
        self._wait_until_answering(self.neo4j)
        return jars

    def neo4j_tools(self) -> tuple[Neo4jServer, Path]:
        """The Neo4j server as configured (with the Java that runs it) and its jars' folder: what
        neo4j-admin runs with."""
        jars = ensure_jars(self.neo4j.pom, self.jar_cache)
        self.neo4j = replace(self.neo4j, java=find_java(self.neo4j.java_at_least, self.java))
        return self.neo4j, jars

    def stop_neo4j(self) -> bool:
        """Stop Neo4j; once its databases have closed their stores, the rest of the shutdown (the
        connectors' quiet periods, seconds) is cut short. True if it was running."""
        return self._process(self.neo4j).stop(done=self.neo4j.databases_closed)

    def replace_neo4j_database(self, staged: Path, database: str = "neo4j",
                               on_progress: Callable[[str], None] = lambda _: None) -> None:
        """Put the database that neo4j-admin imported into the data folder `staged` in place of
        the server's (its store and transaction logs), with one restart. Kafka keeps running."""
        data = self.neo4j.home / "data"
        new = [staged / kind / database for kind in ("databases", "transactions")]
        missing = [str(path) for path in new if not path.is_dir()]
        if missing:
            raise StartError(f"no imported database at {', '.join(missing)}")
        on_progress("stopping neo4j")
        self.stop_neo4j()
        for path in new:
            old = data / path.parent.name / database
            shutil.rmtree(old, ignore_errors=True)
            old.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, old)
        self.start_neo4j(on_progress)

    def wipe(self) -> None:
        """Stop the servers and delete their data and logs (the jar cache stays)."""
        self.down()
        for server in self.servers:
            shutil.rmtree(server.home, ignore_errors=True)

