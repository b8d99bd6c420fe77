"""Long work answers at once (issue 35): a maintenance run (and a dry run), the erasure of a person
and a purge answer 202 with the run's id; GET on it gives progress, then the report. A run cut short
by its process is said to be interrupted, and what to do: a maintenance run is sent again with its
id and changes no one twice; an erasure is sent again by the next server that looks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from services.api import create_app, person_runs
from services.bootstrap import bootstrap
from tests.integration.test_maintenance import AS_OF, craft, statuses
from tests.support.chat_stub import chat_stub
from tests.support.kafka_flow import kafka_settings, wait_until
from tests.support.servers import ServerEndpoints


def run_state(client: TestClient, path: str) -> dict[str, Any]:
    answer = client.get(path)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def ended(client: TestClient, path: str) -> dict[str, Any]:
    wait_until(lambda: run_state(client, path)["state"] != "running", f"{path} to end")
    return run_state(client, path)


def test_a_maintenance_run_answers_at_once_and_is_followed_to_its_report(
        neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:
    # The run's compression asks a model that holds its answer until released: the run is still
    # going when the POST is answered, whatever the machine's speed.
    with chat_stub("", hold=1) as model:
        settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extractor="off",
                            layers="off", llm="openai", llm_base_url=model.url, compressor="llm",
                            questions="off")
        with TestClient(create_app(lambda: bootstrap(settings))) as client:
            craft(client, neo4j)
            dry = client.post("/v1/maintenance/runs", json={"as_of": AS_OF.isoformat(), "dry_run": True})
            assert dry.status_code == 202 and dry.json()["dry_run"] is True, dry.text
            path = dry.headers["Location"]
            assert path == f"/v1/maintenance/runs/{dry.json()['run_id']}"
            model.held.wait(60)  # the dry run plans the compression too: it waits in the model
            # Its progress is written every few seconds while it runs: ada and bob in all.
            wait_until(lambda: run_state(client, path)["progress"]["total"] == 2, "the run's progress")
            going = run_state(client, path)
            assert going["state"] == "running" and going["report"] is None
            model.release.set()
            done = ended(client, path)
            assert done["state"] == "done" and done["report"]["compressed"] == 3
            assert done["report"]["dry_run"] is True and done["progress"]["done"] == 2

            started = client.post("/v1/maintenance/runs", json={"as_of": AS_OF.isoformat(), "run_id": "n-1"})
            assert started.status_code == 202, started.text
            report = ended(client, "/v1/maintenance/runs/n-1")["report"]
            counts = ("users", "forgotten", "demoted", "compressed", "contradictions")
            assert [report[k] for k in counts] == [done["report"][k] for k in counts]  # as the dry run said
            assert client.get("/v1/maintenance/runs/no-such-run").status_code == 404


def test_a_maintenance_run_cut_short_is_said_interrupted_and_sent_again_changes_no_one_twice(
        neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extractor="off",
                        layers="off", questions="off")
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        craft(client, neo4j)
        first = client.post("/v1/maintenance/runs", params={"wait": "true"},
                            json={"as_of": AS_OF.isoformat(), "run_id": "night-1"})
        assert first.status_code == 200 and first.json()["state"] == "done", first.text
        after = statuses(neo4j, "ada")
        # As a process that died mid-run leaves it: still marked running, its beat a minute old.
        neo4j.execute_query("MATCH (j:Job {run_id: 'night-1'}) SET j.state = 'running', "
                            "j.updated_at = datetime() - duration('PT1M'), j.report = null")
        cut = run_state(client, "/v1/maintenance/runs/night-1")
        assert cut["state"] == "interrupted" and "this run_id" in cut["note"]
        again = client.post("/v1/maintenance/runs", params={"wait": "true"},
                            json={"as_of": AS_OF.isoformat(), "run_id": "night-1"})
        assert again.status_code == 200 and again.json()["state"] == "done"
        report = again.json()["report"]
        assert report == first.json()["report"] | {  # the graph's count of the run, as the first time
            "duration_s": report["duration_s"], "finished_at": report["finished_at"]}
        assert statuses(neo4j, "ada") == after  # no one changed twice


@pytest.mark.parametrize(("log", "cut_short"), [("sqlite", False), ("sqlite", True), ("kafka", False)])
def test_an_erasure_answers_at_once_and_is_followed_to_its_end(
        log: str, cut_short: bool, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path,
        kafka_topic: Callable[..., str]) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extractor="off",
                        layers="off", questions="off")
    if log == "kafka":  # the command goes onto lore.commands; the run follows it until a worker applied it
        settings = kafka_settings(servers.neo4j_uri, servers.kafka_bootstrap, tmp_path, kafka_topic,
                                  extractor="off", layers="off", questions="off")
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        for n in range(30):
            assert client.post("/v1/users/ada/memories", params={"wait": "true"},
                               json={"content": f"Ada's note {n}"}).status_code == 202
        if cut_short:
            # A process that took the erasure and died before it reached the log: its run's record,
            # no beat for a minute. The next server that looks sends it again.
            runs = client.app.state.runs
            lore = client.app.state.lore
            a_minute_ago = datetime.now(UTC) - timedelta(minutes=1)
            taken = ('{"type": "EraseUser", "command_id": "erase-1", "user_id": "ada", '
                     '"occurred_at": "2026-03-01T00:00:00Z", "payload": {}}')
            lore.job_records.create("ada", "erase-1", "erasure", "dead-process", a_minute_ago,
                                    {"command": taken})
            assert run_state(client, "/v1/users/ada/runs/erase-1")["state"] == "interrupted"
            assert client.portal.call(person_runs.resume, runs, lore.job_records, lore.outcomes,
                                      client.app.state.intake) == 1
        else:
            erased = client.delete("/v1/users/ada", params={"command_id": "erase-1"})
            assert erased.status_code == 202 and erased.json()["status"] == "accepted", erased.text
            assert erased.json()["run"] == erased.headers["Location"] == "/v1/users/ada/runs/erase-1"
        done = ended(client, "/v1/users/ada/runs/erase-1")
        assert (done["state"], done["kind"], done["outcome"]) == ("done", "erasure", "applied"), done
        assert client.get("/v1/users/ada/memories").json()["items"] == []
        assert client.get("/v1/users/ada/runs/no-such-run").status_code == 404
        assert client.get("/v1/users/bob/runs/erase-1").status_code == 404  # a run is its person's


def test_a_purge_answers_at_once_and_is_followed_to_its_end(neo4j: Driver, servers: ServerEndpoints,
                                                            tmp_path: Path) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extractor="off",
                        layers="off", questions="off")
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        made = client.post("/v1/users/ada/memories", params={"wait": "true"},
                           json={"content": "Ada's secret"})
        memory = made.json()["memory_id"]
        purged = client.delete(f"/v1/users/ada/memories/{memory}", params={"purge": "true"})
        assert purged.status_code == 202 and purged.json()["status"] == "accepted", purged.text
        done = ended(client, purged.json()["run"])
        assert (done["kind"], done["outcome"]) == ("purge", "applied"), done
        assert client.get(f"/v1/users/ada/memories/{memory}").status_code == 404
        # A refusal is the run's outcome, said with its code.
        again = client.delete(f"/v1/users/ada/memories/{memory}", params={"purge": "true"})
        refused = ended(client, again.json()["run"])
        assert (refused["outcome"], refused["code"]) == ("rejected", "memory_not_found"), refused
