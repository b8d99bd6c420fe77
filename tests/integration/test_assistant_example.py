"""examples/assistant.py, the whole loop against a real model: llama.cpp's OpenAI-compatible
server (the pinned Qwen2.5-Coder-1.5B of infra/local/llm.py, as test_local_llm.py starts it) and a
real Lore. The person says where they moved; once the session is over, Lore's context block for
the next conversation knows it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from infra.local import llm as local_llm
from infra.settings import Settings
from lore.client import LoreClient
from tests.support.api_server import running_api
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints

pytest.importorskip("xllamacpp")
from tests.integration.test_local_llm import llama  # noqa: E402, F401  (the model's server, once a module)

ROOT = Path(__file__).resolve().parents[2]
SAID = ("Morning! I moved to Lisbon last month.", "Any idea for a weekend trip?")


def loaded(server: str) -> bool:
    """llama.cpp's server answers 503 on /health while it loads the model."""
    try:
        return httpx.get(server.removesuffix("/v1") + "/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def test_the_example_assistant_runs_the_loop_with_a_real_model(
        llama: str, neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> None:  # noqa: F811
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", extractor="rules",
                        layers="offline")
    wait_until(lambda: loaded(llama), "the model to load")
    with running_api(settings) as url:
        ran = subprocess.run(
            [sys.executable, "examples/assistant.py", "--url", url, "--user", "ada", "--session", "s1",
             "--llm-url", llama, "--model", local_llm.MODEL_NAME,
             *SAID],
            cwd=ROOT, capture_output=True, text=True, timeout=1800,
            env={k: v for k, v in os.environ.items() if k not in ("LORE_API_KEY", "OPENAI_API_KEY")})
        assert ran.returncode == 0, ran.stderr
        replies = ran.stdout.split("--- session s1 ended")[0]
        # Each message as said, then the model's reply (whatever it writes, a "> " of its own included).
        for said, then in zip(SAID, [*SAID[1:], None], strict=True):
            after = replies.split(f"> {said}\n", 1)
            assert len(after) == 2, ran.stdout
            reply = after[1] if then is None else after[1].split(f"> {then}\n", 1)[0]
            assert reply.strip(), ran.stdout
        assert "Lisbon" in ran.stdout.split("for the next conversation:")[1], ran.stdout
        with LoreClient(url) as lore:
            turns = [r for r in lore.export("ada") if r["type"] == "episode"]
            assert sum(len(e["messages"]) for e in turns) == 4  # two exchanges, each recorded
            assert any("Lisbon" in m.content for m in lore.iter_memories("ada"))
