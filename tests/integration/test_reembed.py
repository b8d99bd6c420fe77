"""`lore reembed --model M`: a store moves to another embedding model, as events; a rebuild (the
transactional one and the bulk fold) puts the same vectors back without the model; a stopped
run goes on where it was; a search never compares vectors of two models."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from typer.testing import CliRunner

from domain.commands import Command
from infra.embedding.jar_models import MODELS
from infra.embedding.local import LocalMiniLM
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from projections.graph.fold_fingerprint import fold_fingerprint
from projections.graph.projector import EmbedderChanged
from projections.search import CandidateQueries, Window
from services.api import create_app
from services.bootstrap import bootstrap, reembed_service
from services.bulk_rebuild import fold_log
from services.cli import app
from services.reembed import ReembedService
from tests.support.kafka_flow import env_for
from tests.support.servers import ServerEndpoints

E5 = MODELS["e5-small-v2"].model
MINILM = LocalMiniLM().model


def models_in(neo4j: Driver) -> dict[str, int]:
    records, _, _ = neo4j.execute_query(
        "MATCH (n) WHERE n.embedding IS NOT NULL RETURN n.embedding_model AS m, count(*) AS n")
    return {r["m"]: r["n"] for r in records}


def fill(settings: Settings) -> None:
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        for user, notes in (("ada", ["Ada drinks green tea every morning.", "Ada's sister lives in Porto.",
                                     "Ada repaired the garden fence in May."]),
                            ("bob", ["Bob plays chess with his niece on Sundays."])):
            for note in notes:
                assert client.post(f"/v1/users/{user}/memories", params={"wait": "true"},
                                   json={"content": note}).status_code == 202
        assert client.post("/v1/users/ada/episodes", params={"wait": "true"}, json={
            "session_id": "s1", "messages": [
                {"role": "user", "content": "I finally booked the train to Vienna."},
                {"role": "assistant", "content": "Lovely! When do you leave?"},
                {"role": "user", "content": "On the second of June."}]}).status_code == 202


@pytest.fixture()
def settings(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Settings:
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="local", extractor="off",
                    layers="off", event_log="sqlite")


def test_reembed_moves_every_vector_as_events_and_a_rebuild_puts_them_back(
        neo4j: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(settings)
    assert models_in(neo4j) == {MINILM: 7}
    for key, value in env_for(settings).items():
        monkeypatch.setenv(key, value)
    planned = CliRunner().invoke(app, ["reembed", "--model", "e5-small-v2", "--dry-run"])
    assert planned.exit_code == 0 and "7 items would get a vector" in planned.output
    assert models_in(neo4j) == {MINILM: 7}  # a dry run changes nothing
    moved = CliRunner().invoke(app, ["reembed", "--model", "e5-small-v2"])
    assert moved.exit_code == 0, moved.output
    assert "7 vectors" in moved.output and "LORE_EMBEDDER=e5-small-v2" in moved.output
    assert models_in(neo4j) == {E5: 7}
    again = CliRunner().invoke(app, ["reembed", "--model", "e5-small-v2"])
    assert again.exit_code == 0 and "nothing to do" in again.output

    # The store is now e5's: Lore with e5 writes and finds by meaning; with MiniLM it refuses,
    # naming the way back.
    e5 = settings.model_copy(update={"embedder": "e5-small-v2"})
    lore = bootstrap(e5)
    try:
        lore.commands.ensure_schema()
        hits = lore.search.search("ada", "what beverage does she have at breakfast?", Window(None, None),
                                  limit=3, sources=("vector",), types=("memory",))
        assert hits[0].fields["content"] == "Ada drinks green tea every morning."
    finally:
        lore.close()
    lore = bootstrap(settings)
    try:
        with pytest.raises(EmbedderChanged, match="lore reembed --model"):
            lore.commands.ensure_schema()
    finally:
        lore.close()

    # The log holds the vectors: a rebuild that runs no model gives the same graph, and so does
    # the bulk fold.
    live = fingerprint(neo4j)
    rebuilt = bootstrap(settings.model_copy(update={"embedder": "none"}))
    try:
        rebuilt.projector.rebuild(rebuilt.event_log)
    finally:
        rebuilt.close()
    assert fingerprint(neo4j) == live and models_in(neo4j) == {E5: 7}
    graph, *_ = fold_log(settings)
    assert fold_fingerprint(graph) == live


class Stops:
    """Sends the first `n` commands, then fails as a crash would."""

    def __init__(self, send: object, n: int) -> None:
        self.send, self.left = send, n

    def __call__(self, commands: Sequence[Command]) -> None:
        if self.left == 0:
            raise RuntimeError("stopped")
        self.left -= 1
        self.send(commands)  # type: ignore[operator]


def test_a_stopped_run_goes_on_where_it_was_and_search_never_mixes_models(
        neo4j: Driver, settings: Settings) -> None:
    fill(settings)
    lore = bootstrap(settings.model_copy(update={"embedder": "e5-small-v2"}), embedder=None)
    try:
        whole = reembed_service(lore, bootstrap_embedder := _e5(settings))
        stopping = ReembedService(whole.reads, bootstrap_embedder, Stops(whole.send, 1))
        stopping.per_command = 2
        with pytest.raises(RuntimeError, match="stopped"):
            stopping.run()
        assert models_in(neo4j) == {E5: 2, MINILM: 5}

        # Half moved: each model's query meets only its own model's vectors.
        queries = CandidateQueries(neo4j)
        for model, embedder in ((MINILM, LocalMiniLM()), (E5, bootstrap_embedder)):
            found = queries.vector("memory", "ada", embedder.embed(["green tea"])[0], Window(None, None), 10,
                                   owned=3, total=4, model=model)
            moved = {c.id for c in found}
            stored, _, _ = neo4j.execute_query(
                "MATCH (m:Memory {user_id: 'ada'}) WHERE m.embedding_model = $model RETURN m.memory_id AS id",
                model=model)
            assert moved == {r["id"] for r in stored}

        # A process started on either model meanwhile (a worker restarted) still applies commands.
        for name in ("local", "e5-small-v2"):
            either = bootstrap(settings.model_copy(update={"embedder": name}))
            try:
                either.commands.ensure_schema()
            finally:
                either.close()

        report = whole.run()
        assert report.vectors == 5 and models_in(neo4j) == {E5: 7}
    finally:
        lore.close()


def _e5(settings: Settings):  # type: ignore[no-untyped-def]
    from infra.embedding import open_embedder

    return open_embedder(settings.model_copy(update={"embedder": "e5-small-v2"}))
