"""Tenants, people and API keys: ids that cannot cross tenants, keys kept only as hashes, scopes
that include the ones below them, and the tenant named on the wire."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.access import (
    DEFAULT_TENANT,
    OPERATOR,
    Principal,
    Scope,
    issue_key,
    person_id,
    read_token,
    split_person,
)
from domain.commands import RecordMemory
from services.wire import BadCommand, parse_command, to_message

T = datetime(2026, 3, 1, tzinfo=UTC)


def test_a_tenants_person_is_kept_behind_the_tenants_name_and_the_default_tenants_bare() -> None:
    assert person_id("acme", "ada") == "acme/ada" and split_person("acme/ada") == ("acme", "ada")
    assert person_id(DEFAULT_TENANT, "ada") == "ada" and split_person("ada") == (DEFAULT_TENANT, "ada")
    assert person_id("acme", "ada") != person_id("globex", "ada")
    for bad in ("Acme", "", "a/b", "-x", "x" * 64):
        with pytest.raises(ValueError):
            person_id(bad, "ada")


def test_a_key_is_kept_as_a_hash_and_opens_only_with_its_secret() -> None:
    token, key = issue_key("acme", Scope.READ, T, "bot")
    key_id, secret = read_token(token) or ("", "")
    assert key_id == key.key_id and secret not in key.secret_hash and token not in repr(key)
    assert key.opens_with(secret) and not key.opens_with(secret[:-1] + "x")
    other, _ = issue_key("acme", Scope.READ, T)
    assert other != token
    for malformed in ("", "nonsense", "lore_short_x", "bearer " + token, f"lore_{key_id}_"):
        assert read_token(malformed) is None or read_token(malformed) != (key_id, secret)


def test_scopes_include_the_ones_below_and_only_the_default_admin_is_the_operator() -> None:
    writer = Principal("acme", Scope.WRITE)
    assert writer.allows(Scope.READ) and writer.allows(Scope.WRITE) and not writer.allows(Scope.ADMIN)
    assert not Principal("acme", Scope.ADMIN).operator and OPERATOR.operator
    assert not Principal(DEFAULT_TENANT, Scope.WRITE).operator
    assert Scope.named("Admin") is Scope.ADMIN
    with pytest.raises(ValueError):
        Scope.named("root")


def test_a_tenants_command_travels_with_its_tenant_and_comes_back_the_same() -> None:
    command = RecordMemory(command_id="c1", user_id="acme/ada", occurred_at=T, content="likes tea")
    message = to_message(command)
    assert b'"tenant": "acme"' in message and b'"user_id": "ada"' in message
    assert parse_command(message, max_bytes=10_000, received_at=T) == command
    plain = RecordMemory(command_id="c2", user_id="ada", occurred_at=T, content="likes tea")
    assert b"tenant" not in to_message(plain)
    assert parse_command(to_message(plain), max_bytes=10_000, received_at=T) == plain


def test_a_producer_cannot_name_a_tenant_in_the_user_id_or_an_invalid_tenant() -> None:
    for bad in (b'{"type": "RecordMemory", "command_id": "c", "user_id": "acme/ada", '
                b'"payload": {"content": "x"}}',
                b'{"type": "RecordMemory", "command_id": "c", "user_id": "ada", "tenant": "ACME", '
                b'"payload": {"content": "x"}}'):
        with pytest.raises(BadCommand):
            parse_command(bad, max_bytes=10_000, received_at=T)
