"""`lore infra` behaviour that a user meets: a taken port is a clear error, not a hang."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from infra.local import LocalStack, StartError
from infra.local.process import free_port
from infra.local.servers import KafkaServer, Neo4jServer
from infra.settings import Settings


def test_a_taken_port_fails_fast_and_names_the_port(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        stack = LocalStack(
            home=tmp_path,
            jar_cache=Settings().jar_cache,
            neo4j=Neo4jServer(tmp_path / "neo4j", "127.0.0.1", taken, free_port(), "512m", "64m"),
            kafka=KafkaServer(tmp_path / "kafka", "127.0.0.1", free_port(), free_port(), "256m"),
        )
        started = time.monotonic()
        with pytest.raises(StartError, match=f"port {taken}.*already in use"):
            stack.up()
        assert time.monotonic() - started < 30
    assert [s.pid for s in stack.status()] == [None, None]
