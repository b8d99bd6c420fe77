"""How Lore's three Kafka clients are told to log in, and the passwords `--secure` makes."""

import os
import stat
from pathlib import Path

import pytest
from dotenv import dotenv_values

from infra.kafka_access import KafkaAccess
from infra.local.credentials import ensure_passwords
from infra.settings import Settings


def test_an_open_broker_needs_only_its_address() -> None:
    access = Settings(_env_file=None, kafka_bootstrap="k:9092").kafka_access
    assert access.confluent() == {"bootstrap.servers": "k:9092", "security.protocol": "plaintext"}
    assert access.kafka_python() == {"bootstrap_servers": "k:9092", "security_protocol": "PLAINTEXT"}
    assert access.faststream() is None


def test_a_password_turns_sasl_on_for_every_client() -> None:
    access = Settings(_env_file=None, kafka_bootstrap="k:9092", kafka_password="pw-123456").kafka_access
    assert access.confluent(acks="all") == {
        "bootstrap.servers": "k:9092", "security.protocol": "sasl_plaintext", "sasl.mechanism": "PLAIN",
        "sasl.username": "lore", "sasl.password": "pw-123456", "acks": "all"}
    assert access.kafka_python()["sasl_plain_password"] == "pw-123456"
    assert access.kafka_python()["security_protocol"] == "SASL_PLAINTEXT"
    security = access.faststream()
    assert type(security).__name__ == "SASLPlaintext" and security.username == "lore"


def test_scram_over_tls_for_a_managed_cluster() -> None:
    access = Settings(_env_file=None, kafka_bootstrap="k:9093", kafka_password="pw-123456",
                      kafka_security_protocol="SASL_SSL", kafka_sasl_mechanism="SCRAM-SHA-512",
                      kafka_username="svc").kafka_access
    assert access.confluent()["sasl.mechanism"] == "SCRAM-SHA-512"
    assert access.confluent()["security.protocol"] == "sasl_ssl"
    security = access.faststream()
    assert type(security).__name__ == "SASLScram512" and security.use_ssl


def test_sasl_without_a_password_is_refused_and_a_password_never_shows() -> None:
    with pytest.raises(ValueError, match="LORE_KAFKA_PASSWORD"):
        KafkaAccess("k:9092", "SASL_PLAINTEXT")
    assert "pw-123456" not in repr(KafkaAccess("k:9092", "SASL_PLAINTEXT", "PLAIN", "lore", "pw-123456"))


def test_secure_writes_random_passwords_once_readable_by_the_owner_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LORE_NEO4J_PASSWORD", "LORE_KAFKA_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text("LORE_API_PORT=8100\n")
    assert ensure_passwords(env) == ["LORE_NEO4J_PASSWORD", "LORE_KAFKA_PASSWORD"]
    first = dotenv_values(env)
    assert first["LORE_API_PORT"] == "8100"
    assert len(first["LORE_NEO4J_PASSWORD"] or "") >= 24
    assert first["LORE_NEO4J_PASSWORD"] != first["LORE_KAFKA_PASSWORD"]
    assert stat.S_IMODE(os.stat(env).st_mode) == 0o600
    assert ensure_passwords(env) == [] and dotenv_values(env) == first


def test_secure_keeps_a_password_the_environment_gives(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LORE_NEO4J_PASSWORD", "chosen-by-me")
    monkeypatch.delenv("LORE_KAFKA_PASSWORD", raising=False)
    assert ensure_passwords(tmp_path / ".env") == ["LORE_KAFKA_PASSWORD"]
    assert "LORE_NEO4J_PASSWORD" not in dotenv_values(tmp_path / ".env")
