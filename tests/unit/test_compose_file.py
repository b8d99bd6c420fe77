"""docker-compose.yml against the Compose Specification's JSON schema (no Docker engine here to
try it; the schema is compose-go v2.16.2's schema/compose-spec.json, from the Go module proxy,
sha256 f266dcbb043229405d7cedd5aec918f9102c2b3d5e3850808fdd8edd564a43ff)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "tests" / "support" / "schemas" / "compose-spec.json"
SCHEMA_SHA256 = "f266dcbb043229405d7cedd5aec918f9102c2b3d5e3850808fdd8edd564a43ff"


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_compose_file_follows_the_compose_specification() -> None:
    assert hashlib.sha256(SCHEMA.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator(schema).validate(compose())


def test_the_schema_refuses_a_broken_compose_file() -> None:
    schema = json.loads(SCHEMA.read_text())
    broken = compose()
    broken["services"]["lore"]["depends_on"] = {"neo4j": {"condition": "when_it_feels_like_it"}}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(broken))


def pinned(server: str, name: str) -> str:
    pom = (ROOT / "infra" / "local" / "maven" / server / "pom.xml").read_text()
    return pom.split(f"<{name}>")[1].split("<")[0]


def test_the_compose_file_runs_what_the_local_stack_runs() -> None:
    services = compose()["services"]
    assert services["neo4j"]["image"] == f"neo4j:{pinned('neo4j-2026', 'neo4j.version')}-community"
    assert services["kafka"]["image"] == f"apache/kafka:{pinned('kafka', 'kafka.version')}"
    assert services["lore"]["build"] == "."
    assert {"LORE_NEO4J_URI", "LORE_KAFKA_BOOTSTRAP"} <= set(services["lore"]["environment"])


def merged(base: dict, override: dict) -> dict:
    """`docker compose -f base -f override`: mappings merge, the rest is replaced."""
    out = dict(base)
    for key, value in override.items():
        both = isinstance(value, dict) and isinstance(out.get(key), dict)
        out[key] = merged(out[key], value) if both else value
    return out


def test_the_secure_override_follows_the_specification_and_asks_for_both_passwords() -> None:
    schema = json.loads(SCHEMA.read_text())
    override = yaml.safe_load((ROOT / "docker-compose.secure.yml").read_text())
    jsonschema.Draft202012Validator(schema).validate(override)
    together = merged(compose(), override)
    jsonschema.Draft202012Validator(schema).validate(together)
    services = together["services"]
    assert services["neo4j"]["environment"]["NEO4J_AUTH"].startswith("neo4j/${LORE_NEO4J_PASSWORD:?")
    kafka = services["kafka"]["environment"]
    # Every listener a client reaches asks for SASL; only the controller's (inside) does not.
    protocols = dict(pair.split(":") for pair in kafka["KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"].split(","))
    assert protocols == {"INTERNAL": "SASL_PLAINTEXT", "CONTROLLER": "PLAINTEXT", "HOST": "SASL_PLAINTEXT"}
    for listener in ("INTERNAL", "HOST"):
        jaas = kafka[f"KAFKA_LISTENER_NAME_{listener}_PLAIN_SASL_JAAS_CONFIG"]
        assert 'username="lore"' in jaas and 'user_lore="${LORE_KAFKA_PASSWORD' in jaas
    lore = services["lore"]["environment"]
    assert lore["LORE_KAFKA_USERNAME"] == "lore" and "LORE_KAFKA_PASSWORD" in lore
    assert lore["LORE_NEO4J_PASSWORD"] == "${LORE_NEO4J_PASSWORD}"
