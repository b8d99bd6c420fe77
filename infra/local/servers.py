"""How each local server is configured, launched and asked whether it answers."""

from __future__ import annotations

import base64
import fcntl
import logging
import os
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from infra.kafka_access import KafkaAccess

log = logging.getLogger(__name__)


class StoreOfAnotherSeries(RuntimeError):
    """Neo4j's data folder was made by another release line than the one asked for."""


class CredentialsRefused(RuntimeError):
    """A secured server refuses the password Lore was given: waiting longer will not help."""


def check_secret(secret: str, what: str) -> str:
    """Passwords land in configuration files (Kafka's JAAS line): no quotes, backslashes or
    semicolons, which would end or escape it."""
    if len(secret) < 8 or any(c in secret for c in "\"'\\;\n"):
        raise ValueError(f"{what} must be at least 8 characters, without quotes, backslashes or semicolons")
    return secret

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
    # The password of the user `neo4j` (None: no authentication, for loopback only).
    password: str | None = None
    # The release line: the 5.26 LTS (Java 17), or 2026 (Java 21, Cypher 25's SEARCH clause).
    series: Literal["5.26", "2026"] = "2026"
    # The Java that runs it (LocalStack finds one new enough: infra/local/java.py).
    java: str = "java"

    name = "neo4j"

    @property
    def pom(self) -> str:
        return "neo4j" if self.series == "5.26" else "neo4j-2026"

    @property
    def java_at_least(self) -> int:
        return 17 if self.series == "5.26" else 21

    @property
    def _series_file(self) -> Path:
        return self.home / "data" / "lore-series"

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

    @property
    def made_by(self) -> str | None:
        """The series that made the store here; None when there is no store yet."""
        if self._series_file.exists():
            return self._series_file.read_text().strip()
        # Stores were marked from the day a second series came: an unmarked one is older, so 5.26's.
        return "5.26" if (self.home / "data" / "databases").exists() else None

    def prepare(self, jars: Path) -> None:
        made_by = self.made_by
        if made_by is not None and made_by != self.series:
            raise StoreOfAnotherSeries(
                f"{self.home / 'data'} was made by Neo4j {made_by}, and LORE_NEO4J_SERIES is {self.series}. "
                "The event log is the truth: move the old store aside and rebuild the graph from it "
                f"(`lore infra down`, `mv {self.home / 'data'} {self.home / ('data-' + made_by)}`, "
                "`lore infra up`, `lore rebuild`), or set LORE_NEO4J_SERIES back.")
        for sub in ("conf", "data", "logs", "plugins", "import", "run"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        self._series_file.write_text(self.series)
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
            # What the HTTP discovery answers Browser with (else the default port, 7687).
            "server.bolt.advertised_address": f"{self.bind}:{self.bolt_port}",
            "server.http.advertised_address": f"{self.bind}:{self.http_port}",
            "server.https.enabled": "false",
            "server.memory.pagecache.size": self.pagecache,
            "dbms.security.auth_enabled": "true" if self.password else "false",
            "dbms.usage_report.enabled": "false",
            "db.tx_log.rotation.retention_policy": "2 files",
            # Browser fetches `:play` guides and `:style` files only from hosts it is told to trust:
            # this machine's, where Lore serves both (Neo4j 5.26's name for the setting).
            "browser.remote_content_hostname_whitelist": "127.0.0.1,localhost",
        }
        if self.guide_from:
            conf["browser.post_connect_cmd"] = f"play {self.guide_from}/browser-guide"
        text = "".join(f"{k}={v}\n" for k, v in conf.items())
        (self.home / "conf" / "neo4j.conf").write_text(text)
        if self.password and not (self.home / "data" / "databases").exists():
            self._set_initial_password(jars)

    def _set_initial_password(self, jars: Path) -> None:
        """neo4j-admin's set-initial-password: takes effect only on a store never started."""
        proc = subprocess.run(
            [self.java, "-cp", f"{jars}/*", "org.neo4j.cli.AdminTool", "dbms", "set-initial-password",
             check_secret(self.password or "", "LORE_NEO4J_PASSWORD")],
            env={**os.environ, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.home / "conf")},
            capture_output=True, text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"setting Neo4j's password failed:\n{proc.stdout}{proc.stderr}")

    def databases_closed(self) -> bool:
        """Whether every database has closed its store (each holds a lock on its folder while it
        is open): in a shutdown, what follows is only the connectors' and the web server's."""
        return all(_lock_free(lock) for lock in (self.home / "data" / "databases").glob("*/database_lock"))

    @property
    def auth(self) -> tuple[str, str] | None:
        return ("neo4j", self.password) if self.password else None

    def argv(self, jars: Path) -> list[str]:
        entry = "CommunityEntryPoint" if self.series == "5.26" else "Neo4jCommunity"
        return [
            self.java, f"-Xms{self.heap}", f"-Xmx{self.heap}", *_NEO4J_JVM_FLAGS,
            "-cp", f"{jars}/*", f"org.neo4j.server.{entry}",
            f"--home-dir={self.home}", f"--config-dir={self.home / 'conf'}",
        ]

    def answers(self) -> bool:
        """A Bolt handshake and a query that the database is online."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

        try:
            with GraphDatabase.driver(self.bolt_uri, auth=self.auth, connection_timeout=2) as driver:
                driver.verify_connectivity()
                records, _, _ = driver.execute_query("RETURN 1 AS ok", database_="neo4j")
                return bool(records and records[0]["ok"] == 1)
        except AuthError as refused:
            if self.password and self._adopt_password():
                return False  # answers with the new password at the next look
            raise CredentialsRefused(
                f"Neo4j at {self.bolt_uri} refuses the password in LORE_NEO4J_PASSWORD "
                "(a store keeps the password it was first given)") from refused
        except (ServiceUnavailable, Neo4jError, OSError):
            return False

    def _adopt_password(self) -> bool:
        """A store that ran without authentication still has the user neo4j with its initial
        password, which must be changed before anything else: change it to ours."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, Neo4jError

        try:
            with GraphDatabase.driver(self.bolt_uri, auth=("neo4j", "neo4j"), connection_timeout=2) as driver:
                driver.execute_query("ALTER CURRENT USER SET PASSWORD FROM 'neo4j' TO $new",
                                     new=check_secret(self.password or "", "LORE_NEO4J_PASSWORD"),
                                     database_="system")
            log.info("Neo4j: the store that ran without a password now has LORE_NEO4J_PASSWORD")
            return True
        except (AuthError, Neo4jError):
            return False


def _lock_free(path: Path) -> bool:
    """Java locks a file with fcntl (a POSIX record lock): free when this process can take it."""
    try:
        with path.open("rb+") as file:
            fcntl.lockf(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.lockf(file, fcntl.LOCK_UN)
    except OSError:
        return False
    return True


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
    # SASL/PLAIN credentials every client must give (None: no authentication, for loopback only).
    user: str = "lore"
    password: str | None = None
    java: str = "java"

    name = "kafka"
    pom = "kafka"
    java_at_least = 17

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
    def access(self) -> KafkaAccess:
        """How a client reaches this broker."""
        if self.password:
            return KafkaAccess(self.bootstrap, "SASL_PLAINTEXT", "PLAIN", self.user, self.password)
        return KafkaAccess(self.bootstrap)

    @property
    def _properties(self) -> Path:
        return self.home / "conf" / "server.properties"

    @property
    def _log4j(self) -> Path:
        return self.home / "conf" / "log4j2.properties"

    def prepare(self, jars: Path) -> None:
        for sub in ("conf", "data", "logs"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        # Clients come in on CLIENTS: plain, or SASL/PLAIN with one user when a password is set.
        # The controller's port stays plain; it binds the same address and answers only KRaft.
        protocol = "SASL_PLAINTEXT" if self.password else "PLAINTEXT"
        props = {
            "process.roles": "broker,controller",
            "node.id": "1",
            "controller.quorum.voters": f"1@{self.bind}:{self.controller_port}",
            "listeners": f"CLIENTS://{self.bind}:{self.port},CONTROLLER://{self.bind}:{self.controller_port}",
            "advertised.listeners": f"CLIENTS://{self.bind}:{self.port}",
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "CLIENTS",
            "listener.security.protocol.map": f"CONTROLLER:PLAINTEXT,CLIENTS:{protocol}",
            "log.dirs": self.home / "data",
            "num.partitions": "8",
            "offsets.topic.replication.factor": "1",
            "offsets.topic.num.partitions": "8",
            "transaction.state.log.replication.factor": "1",
            "transaction.state.log.min.isr": "1",
            "group.initial.rebalance.delay.ms": "0",
            "message.max.bytes": "2097152",
            # The cleaner (it compacts the key topic) takes one buffer of this size at start; Kafka's
            # 128 MiB default fails to allocate in the small heaps a test or a laptop gives it.
            "log.cleaner.dedupe.buffer.size": str(16 * 1024 * 1024),
        }
        if self.password:
            secret = check_secret(self.password, "LORE_KAFKA_PASSWORD")
            props |= {
                "sasl.enabled.mechanisms": "PLAIN",
                "sasl.mechanism.inter.broker.protocol": "PLAIN",
                "listener.name.clients.plain.sasl.jaas.config":
                    "org.apache.kafka.common.security.plain.PlainLoginModule required "
                    f'username="{self.user}" password="{secret}" user_{self.user}="{secret}";',
            }
        self._properties.touch(mode=0o600)
        self._properties.chmod(0o600)  # it may hold the password
        self._properties.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        self._log4j.write_text(
            "appender.file.type=File\n"
            "appender.file.name=file\n"
            f"appender.file.fileName={self.log_file}\n"
            "appender.file.layout.type=PatternLayout\n"
            "appender.file.layout.pattern=[%d] %p %m (%c)%n\n"
            "rootLogger.level=INFO\n"
            "rootLogger.appenderRef.file.ref=file\n"
            "logger.request.name=kafka.request.logger\n"
            "logger.request.level=WARN\n"
            "logger.state.name=state.change.logger\n"
            "logger.state.level=WARN\n"
        )
        if not (self.home / "data" / "meta.properties").exists():
            self._format(jars)

    def _format(self, jars: Path) -> None:
        proc = subprocess.run(
            [*self._java(jars), "kafka.tools.StorageTool", "format",
             "-t", cluster_id(), "-c", str(self._properties)],
            capture_output=True, text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"formatting Kafka's storage failed:\n{proc.stdout}{proc.stderr}")

    def _java(self, jars: Path) -> list[str]:
        return [
            self.java, f"-Xmx{self.heap}", f"-Xms{self.heap}",
            f"-Dlog4j2.configurationFile=file:{self._log4j}",
            f"-Dkafka.logs.dir={self.home / 'logs'}",
            "-cp", f"{jars}/*",
        ]

    def argv(self, jars: Path) -> list[str]:
        return [*self._java(jars), "kafka.Kafka", str(self._properties)]

    def answers(self) -> bool:
        """A Kafka cluster description that names this broker and its controller."""
        from confluent_kafka import KafkaError, KafkaException
        from confluent_kafka.admin import AdminClient

        errors: list[KafkaError] = []
        # log_level 0: refused connections are the expected answer while the broker starts.
        admin = AdminClient(self.access.confluent(log_level=0, error_cb=errors.append))
        try:
            cluster = admin.describe_cluster(request_timeout=3).result()
            return bool(cluster.nodes) and cluster.controller is not None
        except KafkaException:
            admin.poll(0)  # hands the client's errors to error_cb
            if any(e.code() == KafkaError._AUTHENTICATION for e in errors):
                raise CredentialsRefused(f"Kafka at {self.bootstrap} refuses the user {self.user!r} with the "
                                         "password in LORE_KAFKA_PASSWORD") from None
            return False
