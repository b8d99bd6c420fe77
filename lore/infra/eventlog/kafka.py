"""The event log on a Kafka topic (`lore.events`, key = user_id, retention forever)."""

from __future__ import annotations

from kafka import KafkaAdminClient


class KafkaEventLog:
    name = "kafka"

    def __init__(self, bootstrap: str, topic: str = "lore.events") -> None:
        self.bootstrap = bootstrap
        self.topic = topic

    def ping(self) -> None:
        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=3000)
        try:
            admin.describe_cluster()
        finally:
            admin.close()

    def close(self) -> None:
        pass
