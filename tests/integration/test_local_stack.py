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


def test_make_run_serves_on_the_kafka_it_starts_and_a_produced_command_becomes_a_memory(
        tmp_path: Path) -> None:
    """What `make run` does (`lore infra up`, then `lore serve --stack`) on a LORE_HOME of its own: a
    command any producer puts on lore.commands (here `lore produce`) is applied, and health says the
    log is Kafka's."""
    import json
    import os
    import subprocess
    import sys

    import httpx

    from tests.support.kafka_flow import wait_until
    from tests.support.servers import private_stack

    ports = {name: free_port() for name in ("bolt", "http", "kafka", "controller")}
    home = tmp_path / "lore-home"
    stack = private_stack(home, neo4j_heap="512m", pagecache="128m", kafka_heap="256m", ports=ports)
    env = {**os.environ, "LORE_HOME": str(home), "LORE_LOCAL_BOLT_PORT": str(ports["bolt"]),
           "LORE_LOCAL_HTTP_PORT": str(ports["http"]), "LORE_LOCAL_KAFKA_PORT": str(ports["kafka"]),
           "LORE_LOCAL_KAFKA_CONTROLLER_PORT": str(ports["controller"]),
           "LORE_NEO4J_URI": f"bolt://127.0.0.1:{ports['bolt']}", "LORE_EMBEDDER": "none"}
    env.pop("LORE_KAFKA_BOOTSTRAP", None)
    api = free_port()
    line = {"type": "RecordMemory", "command_id": "produced-1", "user_id": "ada",
            "payload": {"content": "Ada keeps bees on her roof"}}
    (tmp_path / "commands.jsonl").write_text(json.dumps(line) + "\n")
    stack.up()
    serve = [sys.executable, "-m", "services.cli", "serve", "--stack", "--port", str(api)]
    server = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{api}"

        def up() -> bool:
            try:
                return httpx.get(f"{url}/v1/health", timeout=5).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, "lore serve --stack to answer", workers=[server])
        assert httpx.get(f"{url}/v1/health").json()["event_log"]["detail"] == "kafka log"
        subprocess.run([sys.executable, "-m", "services.cli", "produce", str(tmp_path / "commands.jsonl")],
                       env=env, check=True, capture_output=True)
        def remembered() -> list[str]:
            try:  # a server slow to answer is waited for, as long as it lives
                return [m["content"] for m in httpx.get(f"{url}/v1/users/ada/memories").json()["items"]]
            except httpx.TimeoutException:
                return []

        wait_until(lambda: remembered() == ["Ada keeps bees on her roof"], "the produced command applied",
                   workers=[server])
    finally:
        server.terminate()
        server.wait(timeout=60)
        stack.down()
