"""A truthful contract (issue 35): schemathesis 4.32, with every check it has (`-c all`) and its
examples, coverage and fuzzing phases, over every operation of the OpenAPI document a real Lore
publishes (uvicorn, real Neo4j, API keys on, an operator's key), finds no deviation: every status
an operation answers is documented, every body it takes and gives fits its schema, what breaks a
schema is refused, what fits it is taken, 405s carry `Allow`, and no request goes unauthenticated.

Bounded: a fixed seed and MAX_EXAMPLES cases an operation in the fuzzing phase (the coverage
phase derives its own from each schema); a few minutes on a 2-core machine. The one rule JSON
Schema cannot state (a memory's window ends after it starts, against a default of now) is kept by
tests/support/contract_hooks.py. Its summary is printed. A change stream runs for a second
(LORE_CHANGES_MAX_S) and ends, so that each of schemathesis' reads of one returns."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from neo4j import Driver

from domain.access import Scope
from infra.settings import Settings
from tests.support.api_server import api_key, running_api
from tests.support.servers import ServerEndpoints

SEED = 35
MAX_EXAMPLES = 25
ROOT = Path(__file__).resolve().parents[2]


def test_schemathesis_with_every_check_finds_no_deviation(neo4j: Driver, servers: ServerEndpoints,
                                                         tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys",
                        rate_limit="1000000/minute", changes_max_s=1.0)
    with running_api(settings) as url:
        operator = api_key(settings, "default", Scope.ADMIN)
        done = subprocess.run(
            [str(Path(sys.executable).parent / "schemathesis"), "run", f"{url}/openapi.json",
             "--header", f"Authorization: Bearer {operator}", "--checks", "all",
             "--phases", "examples,coverage,fuzzing", "--max-examples", str(MAX_EXAMPLES),
             "--seed", str(SEED), "--workers", "1", "--request-timeout", "120",
             "--report", "junit", "--report-dir", str(tmp_path / "report")],
            cwd=ROOT, capture_output=True, text=True, timeout=3600,
            env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.contract_hooks", "PYTHONPATH": str(ROOT),
                 "NO_COLOR": "1"})
    summary = done.stdout[done.stdout.find("= SUMMARY ="):] if "= SUMMARY =" in done.stdout else done.stdout
    with capsys.disabled():
        print(f"\nschemathesis {url}/openapi.json, seed {SEED}, {MAX_EXAMPLES} examples an operation:")
        print(summary.strip())
    assert done.returncode == 0, done.stdout[-20_000:] + done.stderr[-5_000:]
    assert "Tested: " in summary and "passed" in summary
