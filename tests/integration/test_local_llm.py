"""The LLM path against a real model: llama.cpp's OpenAI-compatible server (the xllamacpp wheel)
with the sha256-pinned Qwen2.5-Coder-1.5B of infra/local/llm.py, started by this module, one
thread. A few calls only: each takes tens of seconds on this machine."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.local import llm as local_llm
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from tests.integration.test_memory_formation import (
    BERLIN,
    LISBON,
    end,
    rebuild_with_the_model_gone,
    talk,
    timeline,
)
from tests.support.servers import ServerEndpoints

pytest.importorskip("xllamacpp")


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    process, url = local_llm.start(log_file=tmp_path_factory.mktemp("llama") / "server.log")
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def test_a_real_model_extracts_a_move_an_editor_and_a_reminder_and_a_rebuild_needs_it_not(
    llama: str, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path
) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", llm="openai",
                        layers="offline", llm_base_url=llama, llm_model=local_llm.MODEL_NAME,
                        llm_timeout_s=900, wait_timeout_s=1800, extraction_poll_s=0.2)
    with TestClient(create_app(lambda: bootstrap(settings))) as client:
        talk(client, "first-chat", BERLIN)
        first = end(client, "first-chat")["extraction"]
        talk(client, "second-chat", LISBON)
        second = end(client, "second-chat")["extraction"]
        for done in (first, second):
            assert done["status"] == "done" and done["extractor"] == local_llm.MODEL_NAME, done
            assert done["prompt_tokens"] > 0 and done["completion_tokens"] > 0 and done["skipped"] is None
        assert timeline(client, "home_city") == [("Berlin", "2026-01-10", "2026-02-01"),
                                                 ("Lisbon", "2026-02-01", None)]
        editors = client.get("/v1/users/ada/memories", params={"attribute": "editor"}).json()["items"]
        assert [(m["kind"], m["value"]) for m in editors] == [("preference", "Neovim")]
        todos = client.get("/v1/users/ada/memories", params={"kind": "todo"}).json()["items"]
        assert any("passport" in t["content"] and (t["due_at"] or "").startswith("2026-03-20") for t in todos)
    live = fingerprint(neo4j)

    rebuild_with_the_model_gone(settings)
    assert fingerprint(neo4j) == live
