"""The change stream (GET /v1/users/{id}/changes) read with the client's SSE reader across a real
restart of `lore serve`: opened with a page link of ada's (her own key), it sends ada's changes
and nobody else's, in log order; the changes made while it was cut (on another server of the same
store) and after the restart arrive once reconnected with Last-Event-ID: none lost, none twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from infra.local.process import free_port
from infra.settings import Settings
from lore.client import LoreClient
from lore.schemas import Change
from tests.support.api_server import api_key
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def settings(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Settings:
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys")


class Served:
    """`lore serve` in a process of its own, on `port`, stopped as a restart stops it (SIGTERM)."""

    def __init__(self, settings: Settings, port: int) -> None:
        env = {**os.environ, "LORE_HOME": str(settings.home), "LORE_NEO4J_URI": settings.neo4j_uri,
               "LORE_EMBEDDER": "none", "LORE_AUTH": "keys", "LORE_EVENT_LOG": "sqlite",
               "LORE_EXTRACTOR": "off", "LORE_LAYERS": "off"}
        env.pop("LORE_KAFKA_BOOTSTRAP", None)
        self.url = f"http://127.0.0.1:{port}"
        self.log = (settings.home / f"serve-{port}.log").open("ab")
        self.process = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)],
                                        env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        wait_until(self.answers, "lore serve to answer", workers=[self.process])

    def answers(self) -> bool:
        try:
            return httpx.get(f"{self.url}/v1/health", timeout=2).status_code in (200, 401, 503)
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(60)
        self.log.close()


@pytest.fixture()
def serving(settings: Settings) -> Iterator[list[Served]]:
    started: list[Served] = []
    yield started
    for served in started:
        if served.process.poll() is None:
            served.stop()


def test_the_stream_goes_on_across_a_restart_none_lost_none_twice(settings: Settings,
                                                                    serving: list[Served]) -> None:
    port = free_port()
    serving.append(first := Served(settings, port))
    app = LoreClient(first.url, api_key=api_key(settings, "acme"))
    link = app.page_link("ada", ttl_s=3600, scope="read")
    received: list[Change] = []
    expected = 5

    def follow() -> None:
        with LoreClient(first.url, api_key=link.token) as ada:
            for change in ada.changes("ada", from_start=True, reconnect_for_s=300):
                received.append(change)
                if len(received) >= expected + 2:  # more than expected: read on, to catch a repeat
                    return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    made = [app.remember("ada", f"Ada's note {n}", kind="fact").memory_id for n in (1, 2)]
    app.remember("bo", "Bo's secret plan", kind="fact")
    wait_until(lambda: len(received) >= 2, "the first two changes")

    first.stop()  # the stream is cut; it tries again every couple of seconds
    serving.append(other := Served(settings, free_port()))  # meanwhile, another server of the store
    with LoreClient(other.url, api_key=api_key(settings, "acme")) as elsewhere:
        made += [elsewhere.remember("ada", f"Ada's note {n}", kind="fact").memory_id for n in (3, 4)]
        elsewhere.remember("bo", "Bo's other plan", kind="fact")
    other.stop()
    serving.append(again := Served(settings, port))  # the restart, where the stream knew it
    with LoreClient(again.url, api_key=api_key(settings, "acme")) as restarted:
        made.append(restarted.remember("ada", "Ada's note 5", kind="fact").memory_id)
        wait_until(lambda: len(received) >= expected, "the changes made while the stream was cut, and after")
        restarted.remember("ada", "Ada's note 6", kind="fact")  # one more, so a repeat would show before it
        wait_until(lambda: len(received) >= expected + 1, "the change after")
    assert [c.type for c in received] == ["memory.recorded"] * (expected + 1)
    assert [c.memory_id for c in received[:expected]] == made  # in log order, none lost, none twice
    assert received[expected].content == "Ada's note 6"
    assert {c.user_id for c in received} == {"ada"} and not any("Bo" in (c.content or "") for c in received)
    ids = [c.id for c in received]
    assert len(set(ids)) == len(ids)
    app.close()
