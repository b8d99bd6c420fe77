"""API keys and tenants over the real Neo4j: no key, no answer; a key's scope bounds what it does;
and a key of one tenant never reads, searches, lists, exports, changes or erases a person of
another — also when both tenants name a person alike, and under generated ids and texts."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from neo4j import Driver

from domain.access import Scope, issue_key
from infra.apikeys.kafka import KafkaApiKeyStore
from infra.apikeys.sqlite import SqliteApiKeyStore
from infra.settings import Settings
from projections.graph.fingerprint import fingerprint
from services.api import create_app
from services.bootstrap import bootstrap
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints

MARKER = "quillwort"


@pytest.fixture()
def settings(servers: ServerEndpoints, tmp_path: Path) -> Settings:
    return Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys",
                    rate_limit="1000/second")


def key(settings: Settings, tenant: str, scope: Scope = Scope.WRITE) -> dict[str, str]:
    token, made = issue_key(tenant, scope, datetime.now(UTC))
    store = SqliteApiKeyStore(settings.home / "api-keys.sqlite3")
    store.add(made)
    store.close()
    return {"Authorization": f"Bearer {token}"}


def remember(client: TestClient, headers: dict[str, str], content: str, user: str = "ada") -> dict:
    response = client.post(f"/v1/users/{user}/memories", params={"wait": "true"}, headers=headers,
                           json={"content": content})
    assert response.status_code == 202, response.text
    return response.json()


def test_without_a_valid_key_nothing_is_answered_and_health_still_is(client: TestClient,
                                                                      settings: Settings) -> None:
    assert client.get("/v1/users/ada/memories").status_code == 401
    nonsense = {"Authorization": "Bearer nonsense"}
    assert client.get("/v1/users/ada/memories", headers=nonsense).status_code == 401
    forged = key(settings, "acme")["Authorization"][:-4] + "AAAA"  # a real key id, a wrong secret
    assert client.get("/v1/users/ada/memories", headers={"Authorization": forged}).status_code == 401
    assert client.get("/v1/health").status_code in (200, 503)  # no person's data: open


def test_a_keys_scope_bounds_what_it_may_do(client: TestClient, settings: Settings) -> None:
    reader, writer = key(settings, "acme", Scope.READ), key(settings, "acme", Scope.WRITE)
    assert client.post("/v1/users/ada/memories", headers=reader, json={"content": "x"}).status_code == 403
    remember(client, writer, "likes tea")
    assert client.post("/v1/users/ada/search", headers=reader, json={"query": "tea"}).status_code == 200
    assert client.put("/v1/users/ada/settings", headers=reader,
                      json={"episode_retention_days": 3}).status_code == 403
    assert client.put("/v1/users/ada/settings", headers=writer,
                      json={"episode_retention_days": 3}).status_code == 202
    # Runs over everyone are the operator's, not a tenant's admin's.
    tenant_admin, operator = key(settings, "acme", Scope.ADMIN), key(settings, "default", Scope.ADMIN)
    assert client.get("/v1/maintenance/runs", headers=tenant_admin).status_code == 403
    assert client.get("/v1/maintenance/runs", headers=operator).status_code == 200


def test_two_tenants_with_a_person_of_the_same_name_never_meet(client: TestClient, settings: Settings,
                                                                neo4j: Driver) -> None:
    acme, globex = key(settings, "acme"), key(settings, "globex")
    mine = remember(client, acme, f"grows {MARKER} on the balcony")
    before = fingerprint(neo4j, user_id="acme/ada")

    # globex's "ada" is another person: nothing of acme's ada is seen or touched.
    assert client.get("/v1/users/ada/memories", headers=globex).json()["items"] == []
    assert client.post("/v1/users/ada/search", headers=globex, json={"query": MARKER}).json()["hits"] == []
    context = client.post("/v1/users/ada/context", headers=globex, json={"message": f"what about {MARKER}?"})
    assert context.status_code == 200 and MARKER not in context.json()["text"]
    assert context.json()["cited"]["memories"] == []
    exported = client.get("/v1/users/ada/export", headers=globex).text
    assert MARKER not in exported and len(exported.splitlines()) == 1
    assert client.get(f"/v1/users/ada/memories/{mine['memory_id']}", headers=globex).status_code == 404
    gone = client.delete(f"/v1/users/ada/memories/{mine['memory_id']}", params={"wait": "true"},
                         headers=globex)
    assert gone.status_code == 404
    assert client.delete("/v1/users/ada", params={"wait": "true"}, headers=globex).status_code in (202, 404)
    assert fingerprint(neo4j, user_id="acme/ada") == before

    theirs = remember(client, globex, "collects stamps")
    assert [m["content"] for m in client.get("/v1/users/ada/memories", headers=acme).json()["items"]] == [
        f"grows {MARKER} on the balcony"]
    assert [m["content"] for m in client.get("/v1/users/ada/memories", headers=globex).json()["items"]] == [
        "collects stamps"]
    assert theirs["memory_id"] != mine["memory_id"]
    # In the graph, each lives under their tenant; the default tenant's ids stay bare.
    records, _, _ = neo4j.execute_query("MATCH (m:Memory) RETURN m.user_id AS u ORDER BY u")
    assert [r["u"] for r in records] == ["acme/ada", "globex/ada"]


def test_a_key_is_limited_to_its_rate(neo4j: Driver, settings: Settings) -> None:
    limited = settings.model_copy(update={"rate_limit": "3/minute"})
    with TestClient(create_app(lambda: bootstrap(limited))) as client:
        headers = key(limited, "acme", Scope.READ)
        codes = [client.get("/v1/users/ada/memories", headers=headers).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        # Another key has its own allowance.
        another = key(limited, "acme", Scope.READ)
        assert client.get("/v1/users/ada/memories", headers=another).status_code == 200


ids = st.from_regex(r"[A-Za-z0-9_.:@\-]{1,30}", fullmatch=True)
texts = st.text(min_size=1, max_size=200)


def test_generated_requests_of_one_tenant_never_reach_anothers_people(client: TestClient, settings: Settings,
                                                                       neo4j: Driver) -> None:
    acme, globex = key(settings, "acme"), key(settings, "globex")
    for user in ("ada", "bob"):
        remember(client, acme, f"{user} grows {MARKER}", user=user)
    before = fingerprint(neo4j, user_id="acme/ada"), fingerprint(neo4j, user_id="acme/bob")

    @hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(user=ids, other=ids, text=texts, verb=st.sampled_from(["remember", "search", "list", "forget",
                                                                 "export", "erase", "one", "timeline"]))
    def globex_tries(user: str, other: str, text: str, verb: str) -> None:
        base = f"/v1/users/{user}"
        response = {
            "remember": lambda: client.post(f"{base}/memories", headers=globex, json={"content": text}),
            "search": lambda: client.post(f"{base}/search", headers=globex, json={"query": text}),
            "list": lambda: client.get(f"{base}/memories", headers=globex, params={"kind": "fact"}),
            "forget": lambda: client.delete(f"{base}/memories/{other}", headers=globex),
            "export": lambda: client.get(f"{base}/export", headers=globex),
            "erase": lambda: client.delete(base, headers=globex),
            "one": lambda: client.get(f"{base}/memories/{other}", headers=globex),
            "timeline": lambda: client.get(f"{base}/timeline", headers=globex, params={"attribute": text}),
        }[verb]()
        assert response.status_code < 500, (verb, user, response.text)
        assert MARKER not in response.text

    globex_tries()
    assert (fingerprint(neo4j, user_id="acme/ada"), fingerprint(neo4j, user_id="acme/bob")) == before


def test_a_key_made_or_revoked_on_one_server_counts_on_another_through_kafka(
    servers: ServerEndpoints,
) -> None:
    topic = f"lore.api-keys.{uuid.uuid4().hex[:8]}"
    one = KafkaApiKeyStore(servers.kafka_bootstrap, topic)
    other = KafkaApiKeyStore(servers.kafka_bootstrap, topic)
    try:
        _, made = issue_key("acme", Scope.READ, datetime.now(UTC))
        one.add(made)
        wait_until(lambda: other.find(made.key_id) == made, "the key to reach the other server")
        assert one.revoke(made.key_id) and not one.revoke("nothing")
        wait_until(lambda: other.find(made.key_id) is None, "the revocation to reach the other server")
    finally:
        one.close()
        other.close()


def test_the_page_shows_a_tenant_its_own_people_only(client: TestClient, settings: Settings) -> None:
    acme = key(settings, "acme")
    remember(client, acme, f"grows {MARKER} on the balcony")
    assert client.get("/ui/users/ada", follow_redirects=False).status_code == 303  # no key: sign in
    globex = key(settings, "globex")["Authorization"].removeprefix("Bearer ")
    client.cookies.set("lore_key", globex)
    page = client.get("/ui/users/ada")
    assert page.status_code == 200 and MARKER not in page.text
    for sneaky in ("/ui/users/acme%2Fada", "/ui/users/..%2Facme%2Fada", "/ui/?user_id=acme/ada"):
        answer = client.get(sneaky)
        assert answer.status_code in (404, 422) and MARKER not in answer.text, sneaky
    mine = acme["Authorization"].removeprefix("Bearer ")
    client.cookies.set("lore_key", mine)
    assert MARKER in client.get("/ui/users/ada").text
