"""How to reach Kafka: the bootstrap address and, on a secured broker, SASL credentials (and TLS).

Lore talks to Kafka through three clients (librdkafka for fast appends and publishing,
kafka-python for reads and administration, aiokafka under FastStream for the worker); each spells
the same settings its own way, and this is the one place that knows how.
"""

from __future__ import annotations

import logging
import ssl
from dataclasses import dataclass
from typing import Any, Literal

log = logging.getLogger(__name__)


class _ClearPasswordOnce(logging.Filter):
    """kafka-python and aiokafka warn on every connection that SASL/PLAIN without TLS sends the
    password in the clear; Lore says it once per process instead (KafkaAccess.warn_if_clear)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Sending username and password in the clear")


for _name in ("kafka.net.sasl.plain", "kafka.sasl.plain", "aiokafka.conn"):
    logging.getLogger(_name).addFilter(_ClearPasswordOnce())
_warned: set[str] = set()

Protocol = Literal["PLAINTEXT", "SASL_PLAINTEXT", "SASL_SSL", "SSL"]
Mechanism = Literal["PLAIN", "SCRAM-SHA-512", "SCRAM-SHA-256"]


@dataclass(frozen=True)
class KafkaAccess:
    bootstrap: str
    security_protocol: Protocol = "PLAINTEXT"
    sasl_mechanism: Mechanism = "PLAIN"
    username: str = ""
    password: str = ""
    # PEM file of the authority that signed the broker's certificate (TLS); None: the system's.
    ssl_cafile: str | None = None

    def __post_init__(self) -> None:
        if self.uses_sasl and not (self.username and self.password):
            raise ValueError(f"Kafka's {self.security_protocol} needs a user name and a password "
                             "(LORE_KAFKA_USERNAME, LORE_KAFKA_PASSWORD)")
        self.warn_if_clear()

    def warn_if_clear(self) -> None:
        host = self.bootstrap.rsplit(":", 1)[0]
        if (self.security_protocol == "SASL_PLAINTEXT" and self.sasl_mechanism == "PLAIN"
                and host not in ("127.0.0.1", "localhost", "::1", "[::1]") and self.bootstrap not in _warned):
            _warned.add(self.bootstrap)
            log.warning("Kafka at %s: SASL/PLAIN without TLS sends the password in the clear; use "
                        "SASL_SSL off this machine", self.bootstrap)

    def __repr__(self) -> str:  # never the password, in a log line or a traceback
        return f"KafkaAccess({self.bootstrap!r}, {self.security_protocol}, user={self.username!r})"

    @classmethod
    def of(cls, where: KafkaAccess | str) -> KafkaAccess:
        """`where` as it is, or a plain bootstrap address of an unsecured broker."""
        return where if isinstance(where, KafkaAccess) else cls(where)

    @property
    def uses_sasl(self) -> bool:
        return self.security_protocol.startswith("SASL")

    @property
    def uses_tls(self) -> bool:
        return self.security_protocol in ("SASL_SSL", "SSL")

    def confluent(self, **extra: Any) -> dict[str, Any]:
        """librdkafka's configuration (confluent-kafka's Producer, Consumer, AdminClient)."""
        config: dict[str, Any] = {"bootstrap.servers": self.bootstrap,
                                  "security.protocol": self.security_protocol.lower()}
        if self.uses_sasl:
            config |= {"sasl.mechanism": self.sasl_mechanism, "sasl.username": self.username,
                       "sasl.password": self.password}
        if self.ssl_cafile:
            config["ssl.ca.location"] = self.ssl_cafile
        return config | extra

    def kafka_python(self, **extra: Any) -> dict[str, Any]:
        """kafka-python's keyword arguments (KafkaConsumer, KafkaProducer, KafkaAdminClient)."""
        config: dict[str, Any] = {"bootstrap_servers": self.bootstrap,
                                  "security_protocol": self.security_protocol}
        if self.uses_sasl:
            config |= {"sasl_mechanism": self.sasl_mechanism, "sasl_plain_username": self.username,
                       "sasl_plain_password": self.password}
        if self.ssl_cafile:
            config["ssl_cafile"] = self.ssl_cafile
        return config | extra

    def faststream(self) -> Any:
        """FastStream's security object for its KafkaBroker (None: an unsecured broker)."""
        from faststream.security import BaseSecurity, SASLPlaintext, SASLScram256, SASLScram512

        context = ssl.create_default_context(cafile=self.ssl_cafile) if self.uses_tls else None
        if not self.uses_sasl:
            return BaseSecurity(ssl_context=context, use_ssl=True) if context else None
        kind = {"SCRAM-SHA-512": SASLScram512, "SCRAM-SHA-256": SASLScram256,
                "PLAIN": SASLPlaintext}[self.sasl_mechanism]
        return kind(self.username, self.password, ssl_context=context, use_ssl=self.uses_tls)
