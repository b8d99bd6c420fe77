"""How each local server is configured, launched and asked whether it answers."""

from __future__ import annotations

import base64
import logging
import uuid
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# The JVM flags that Neo4j's own launcher passes; without them Netty and the page cache
# warn or fail on Java 17.
_NEO4J_JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
]


@dataclass(frozen=True)
class Neo4jServer:
    home: Path
    bind: str
    bolt_port: int
    http_port: int
    heap: str
    pagecache: str
    # Lore's API, whose guide Neo4j Browser opens on connecting (None: no guide).
    guide_from: str | None = None

    name = "neo4j"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "neo4j.log"

    @property
    def console_log(self) -> Path:
        return self.home / "logs" / "console.log"

    @property
    def ports(self) -> list[int]:
        return [self.bolt_port, self.http_port]

    @property
    def bolt_uri(self) -> str:
        return f"bolt://{self.bind}:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://{self.bind}:{self.http_port}/browser/"

    def prepare(self, jars: Path) -> None:
        for sub in ("conf", "data", "logs", "plugins", "import", "run"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        conf = {
            "server.directories.data": self.home / "data",
            "server.directories.logs": self.home / "logs",
            "server.directories.plugins": self.home / "plugins",
            "server.directories.import": self.home / "import",
            "server.directories.run": self.home / "run",
            "server.default_listen_address": self.bind,
            "server.default_advertised_address": self.bind,
            "server.bolt.listen_address": f"{self.bind}:{self.bolt_port}",
            "server.http.listen_address": f"{self.bind}:{self.http_port}",
            "server.https.enabled": "false",
            "server.memory.pagecache.size": self.pagecache,
            "dbms.security.auth_enabled": "false",
            "dbms.usage_report.enabled": "false",
            "db.tx_log.rotation.retention_policy": "2 files",
        }
        if self.guide_from:
            # Browser fetches guides and styles only from hosts it is told to trust.
            conf["browser.remote_content_hostname_whitelist"] = "127.0.0.1,localhost"  # (Neo4j 5.26's name)
            conf["browser.post_connect_cmd"] = f"play {self.guide_from}/browser-guide"
        text = "".join(f"{k}={v}\n" for k, v in conf.items())
        (self.home / "conf" / "neo4j.conf").write_text(text)

    def argv(self, jars: Path) -> list[str]:
        return [
            "java", f"-Xms{self.heap}", f"-Xmx{self.heap}", *_NEO4J_JVM_FLAGS,
            "-cp", f"{jars}/*", "org.neo4j.server.CommunityEntryPoint",
            f"--home-dir={self.home}", f"--config-dir={self.home / 'conf'}",
        ]

    def answers(self) -> bool:
        """A Bolt handshake and a query that the database is online."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import Neo4jError, ServiceUnavailable

        try:
            with GraphDatabase.driver(self.bolt_uri, auth=None, connection_timeout=2) as driver:
                driver.verify_connectivity()
                records, _, _ = driver.execute_query("RETURN 1 AS ok", database_="neo4j")
                return bool(records and records[0]["ok"] == 1)
        except (ServiceUnavailable, Neo4jError, OSError):
            return False


def cluster_id() -> str:
    """A new KRaft cluster id, as `kafka-storage random-uuid` makes one: never starting with "-",
    which the storage tool would read as an option (one id in 64 would)."""
    while (found := base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")).startswith("-"):
        pass
    return found


@dataclass(frozen=True)
class KafkaServer:
    home: Path
    bind: str
    port: int
    controller_port: int
    heap: str

    name = "kafka"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "server.log"

    @property
    def console_log(self) -> Path:
        return self.home / "logs" / "console.log"

    @property
    def ports(self) -> list[int]:
        return [self.port, self.controller_port]

    @property
    def bootstrap(self) -> str:
        return f"{self.bind}:{self.port}"

    @property
    def _properties(self) -> Path:
        return self.home / "conf" / "server.properties"

    @property
    def _log4j(self) -> Path:
        return self.home / "conf" / "log4j.properties"

    def prepare(self, jars: Path) -> None:
        for sub in ("conf", "data", "logs"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        props = {
            "process.roles": "broker,controller",
            "node.id": "1",
            "controller.quorum.voters": f"1@{self.bind}:{self.controller_port}",
            "listeners": f"PLAINTEXT://{self.bind}:{self.port},CONTROLLER://{self.bind}:{self.controller_port}",
            "advertised.listeners": f"PLAINTEXT://{self.bind}:{self.port}",
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
            "log.dirs": self.home / "data",
            "num.partitions": "8",
            "offsets.topic.replication.factor": "1",
            "offsets.topic.num.partitions": "8",
            "transaction.state.log.replication.factor": "1",
            "transaction.state.log.min.isr": "1",
            "group.initial.rebalance.delay.ms": "0",
            "message.max.bytes": "2097152",
        }
        self._properties.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        self._log4j.write_text(
            "log4j.rootLogger=INFO, file\n"
            "log4j.logger.kafka.request.logger=WARN\n"
            "log4j.logger.state.change.logger=WARN\n"
            "log4j.appender.file=org.apache.log4j.FileAppender\n"
            f"log4j.appender.file.File={self.log_file}\n"
            "log4j.appender.file.layout=org.apache.log4j.PatternLayout\n"
            "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n\n"
        )
        if not (self.home / "data" / "meta.properties").exists():
            self._format(jars)

    def _format(self, jars: Path) -> None:
        import subprocess

        proc = subprocess.run(
            [*self._java(jars), "kafka.tools.StorageTool", "format",
             "-t", cluster_id(), "-c", str(self._properties)],
            capture_output=True, text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"formatting Kafka's storage failed:\n{proc.stdout}{proc.stderr}")

    def _java(self, jars: Path) -> list[str]:
        return [
            "java", f"-Xmx{self.heap}", f"-Xms{self.heap}",
            f"-Dlog4j.configuration=file:{self._log4j}",
            f"-Dkafka.logs.dir={self.home / 'logs'}",
            "-cp", f"{jars}/*",
        ]

    def argv(self, jars: Path) -> list[str]:
        return [*self._java(jars), "kafka.Kafka", str(self._properties)]

    def answers(self) -> bool:
        """A Kafka metadata request that names this broker."""
        from kafka import KafkaAdminClient
        from kafka.errors import KafkaConfigurationError, KafkaError

        # Refused connections are the expected answer while the broker starts: not worth a log line.
        kafka_log = logging.getLogger("kafka")
        level = kafka_log.level
        kafka_log.setLevel(logging.CRITICAL)
        try:
            admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=3000)
        except KafkaConfigurationError:
            raise
        except (KafkaError, OSError, ValueError):
            return False
        finally:
            kafka_log.setLevel(level)
        try:
            cluster = admin.describe_cluster()
            return bool(cluster.get("brokers")) and cluster.get("controller_id") is not None
        except (KafkaError, OSError, ValueError):
            return False
        finally:
            admin.close()
