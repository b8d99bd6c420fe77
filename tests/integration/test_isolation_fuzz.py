"""Isolation under fuzzing: schemathesis generates requests for every operation of the OpenAPI
document and sends them with tenant acme's key to a real Lore (uvicorn, real Neo4j), where
tenant globex keeps a person of the same name. No answer is a 5xx, none shows globex's words,
and globex's person is exactly as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from neo4j import Driver

from domain.access import Scope
from infra.settings import Settings
from lore.client import LoreClient
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from tests.support.api_server import api_key, running_api
from tests.support.servers import ServerEndpoints

MARKER = "quillwortglobex"


@pytest.fixture(scope="module")
def lore(servers: ServerEndpoints, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(servers.neo4j_uri, auth=None) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
    home = tmp_path_factory.mktemp("fuzz")
    # A change stream ends after a second (LORE_CHANGES_MAX_S), so that each call of one returns with
    # what it sent: it keeps itself open with a comment every 15 s, which no read timeout cuts.
    config = Settings(neo4j_uri=servers.neo4j_uri, home=home, embedder="none", auth="keys",
                      rate_limit="100000/minute", changes_max_s=1.0)
    with running_api(config) as url:
        globex, acme = api_key(config, "globex"), api_key(config, "acme", Scope.ADMIN)
        with LoreClient(url, api_key=globex) as client:
            client.remember("ada", f"Ada's secret word is {MARKER}", kind="preference",
                            attribute="secret_word", value=MARKER)
        with GraphDatabase.driver(servers.neo4j_uri, auth=None) as driver:
            before = fingerprint(driver, user_id="globex/ada")
        yield {"url": url, "acme": acme, "before": before}


# The document the server publishes, made without a server (the app's own OpenAPI).
schema = schemathesis.openapi.from_dict(create_app().openapi())


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_with_one_tenants_key_reaches_anothers_person(case: schemathesis.Case,
                                                                 lore: dict[str, str]) -> None:
    acme = {"Authorization": f"Bearer {lore['acme']}"}
    response = case.call(base_url=lore["url"], headers=acme, timeout=60)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
    assert MARKER not in response.text, (case.method, case.formatted_path)


def test_the_other_tenants_person_is_untouched_after_the_fuzzing(
    neo4j_driver: Driver, lore: dict[str, str]
) -> None:
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (m:Memory {user_id: 'globex/ada'}) RETURN m.content AS c, m.status AS s")
    assert [(r["c"], r["s"]) for r in records] == [(f"Ada's secret word is {MARKER}", "active")]
    assert fingerprint(neo4j_driver, user_id="globex/ada") == lore["before"]
