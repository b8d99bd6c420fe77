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
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def test_an_admin_key_streams_its_tenants_people_and_no_one_elses(settings: Settings) -> None:
    """GET /v1/changes: every person of the admin key's tenant, each change with its user_id; a
    write key may not, and a person's link opens their own stream only."""
    from domain.access import Scope
    from lore.client import LoreError
    from tests.support.api_server import running_api

    with running_api(settings) as url:
        acme = LoreClient(url, api_key=api_key(settings, "acme"))
        globex = LoreClient(url, api_key=api_key(settings, "globex"))
        acme.remember("ada", "Ada's note", kind="fact")
        globex.remember("ada", "Globex's Ada note", kind="fact")
        acme.remember("bo", "Bo's note", kind="fact")
        forgotten = acme.remember("bo", "Bo's second note", kind="fact").memory_id or ""
        acme.forget("bo", forgotten)
        received: list[Change] = []
        with LoreClient(url, api_key=api_key(settings, "acme", Scope.ADMIN)) as admin:
            for change in admin.all_changes(from_start=True):
                received.append(change)
                if len(received) == 4:
                    break
        assert [(c.user_id, c.type, c.content) for c in received] == [
            ("ada", "memory.recorded", "Ada's note"), ("bo", "memory.recorded", "Bo's note"),
            ("bo", "memory.recorded", "Bo's second note"), ("bo", "memory.forgotten", None)]
        with pytest.raises(LoreError) as refused:
            next(iter(acme.all_changes()))
        assert refused.value.status == 403
        link = acme.page_link("ada", ttl_s=60, scope="read")
        with LoreClient(url, api_key=link.token) as ada, pytest.raises(LoreError) as not_hers:
            next(iter(ada.changes("bo")))
        assert not_hers.value.status == 403 and not_hers.value.code == "not_this_person"
        acme.close()
        globex.close()


def test_on_kafka_the_stream_reads_its_people_across_partitions_and_resumes_after_an_id(
        servers: ServerEndpoints, neo4j: Driver, tmp_path: Path, kafka_topic: Any) -> None:
    """The same on the Kafka log (four partitions): the operator's stream has everyone of the
    default tenant, each person's changes in their order; ada's own (her page link) only hers; and
    a stream opened after one of her ids goes on with exactly what followed it."""
    from tests.support.api_server import running_api

    kafka = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", event_log="kafka",
                     kafka_bootstrap=servers.kafka_bootstrap,
                     commands_topic=kafka_topic("commands", partitions=4),
                     events_topic=kafka_topic("events", partitions=4), dead_letter_topic=kafka_topic("dlq"),
                     worker_group=f"changes-{uuid.uuid4().hex[:8]}", auth="none")
    with running_api(kafka) as url, LoreClient(url) as operator:
        said = {who: [operator.remember(who, f"{who} note {n}", kind="fact").memory_id for n in range(3)]
                for who in ("ada", "bo", "cy")}

        def first(stream: Iterator[Change], count: int) -> list[Change]:
            taken: list[Change] = []
            for change in stream:
                taken.append(change)
                if len(taken) == count:
                    return taken
            return taken

        everyone = first(operator.all_changes(from_start=True), 9)
        for who, ids in said.items():
            assert [c.memory_id for c in everyone if c.user_id == who] == ids
        link = operator.page_link("ada", ttl_s=600, scope="read")
        with LoreClient(url, api_key=link.token) as ada:
            hers = first(ada.changes("ada", from_start=True), 3)
            assert [c.memory_id for c in hers] == said["ada"]
            operator.remember("bo", "bo note 3", kind="fact")
            later = operator.remember("ada", "ada note 3", kind="fact").memory_id
            resumed = first(ada.changes("ada", last_event_id=hers[0].id), 3)
            assert [c.memory_id for c in resumed] == [*said["ada"][1:], later]


def test_a_stream_ends_after_its_lifetime_and_goes_on_from_its_last_id(settings: Settings) -> None:
    """LORE_CHANGES_MAX_S bounds a stream: read whole, it ends by itself with what it had, the last
    id it sent goes on with exactly what came after (nothing lost, nothing twice); an EventSource
    does this reconnect on its own."""
    from tests.support.api_server import running_api

    short = settings.model_copy(update={"changes_max_s": 1.0})
    with running_api(short) as url, LoreClient(url, api_key=api_key(short, "acme")) as app:
        first = app.remember("ada", "Ada's first note", kind="fact").memory_id
        headers = {"Authorization": f"Bearer {api_key(short, 'acme')}"}

        def read_whole(**extra: Any) -> tuple[list[str], str]:
            body = httpx.get(f"{url}/v1/users/ada/changes", headers={**headers, **extra.pop("headers", {})},
                             params=extra, timeout=60).text  # returns only because the stream ends
            ids = [line[4:] for line in body.splitlines() if line.startswith("id: ")]
            return [line[6:] for line in body.splitlines() if line.startswith("data: ")], ids[-1]

        data, last = read_whole(**{"from": "start"})
        assert [Change.model_validate_json(d).memory_id for d in data] == [first]
        second = app.remember("ada", "Ada's second note", kind="fact").memory_id
        data, last = read_whole(headers={"Last-Event-ID": last})
        assert [Change.model_validate_json(d).memory_id for d in data] == [second]
        data, _ = read_whole(headers={"Last-Event-ID": last})
        assert data == []
