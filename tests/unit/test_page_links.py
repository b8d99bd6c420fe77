"""Page links (domain/page_links.py): a signed grant for one person that opens until it expires,
and not when altered, expired, signed with a secret rotated since, or longer than a day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.access import NotThisPerson, Scope
from domain.page_links import PageGrant, PageLinkRefused, is_page_link, read_page_link, sign_page_link

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
SECRET = b"s" * 32
GRANT = PageGrant("acme", "ada", Scope.WRITE, NOW + timedelta(hours=1))


def refusal(token: str, secret: bytes = SECRET, now: datetime = NOW) -> str:
    with pytest.raises(PageLinkRefused) as refused:
        read_page_link(token, secret, now)
    return refused.value.reason


def test_a_link_opens_its_person_only_until_it_expires() -> None:
    token = sign_page_link(SECRET, GRANT, NOW)
    assert is_page_link(token) and not is_page_link("lore_0000_key")
    grant = read_page_link(token, SECRET, NOW + timedelta(minutes=59))
    assert grant == GRANT
    principal = grant.principal()
    assert principal.person("ada") == "acme/ada" and not principal.operator
    with pytest.raises(NotThisPerson):
        principal.person("bo")  # the same tenant's other person
    assert refusal(token, now=NOW + timedelta(hours=1)) == "expired"


def test_an_altered_forged_or_revoked_link_does_not_open() -> None:
    token = sign_page_link(SECRET, GRANT, NOW)
    body, signature = token.split(".")
    other = sign_page_link(SECRET, PageGrant("acme", "bo", Scope.WRITE, GRANT.expires_at), NOW)
    assert refusal(f"{other.split('.')[0]}.{signature}") == "invalid"  # bo's claims, ada's signature
    flipped = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    assert refusal(f"{body}.{flipped}") == "invalid"
    assert refusal(body) == "invalid" and refusal("lorepage_not-base64!.x") == "invalid"
    assert refusal(token, secret=b"t" * 32) == "revoked"  # the secret was rotated since


def test_a_link_lasts_a_day_at_most_and_never_allows_more_than_writing() -> None:
    with pytest.raises(ValueError, match="at most"):
        sign_page_link(SECRET, PageGrant("acme", "ada", Scope.READ, NOW + timedelta(days=1, seconds=1)), NOW)
    with pytest.raises(ValueError, match="writing"):
        sign_page_link(SECRET, PageGrant("acme", "ada", Scope.ADMIN, NOW + timedelta(hours=1)), NOW)
    read = sign_page_link(SECRET, PageGrant("acme", "ada", Scope.READ, NOW + timedelta(days=1)), NOW)
    assert read_page_link(read, SECRET, NOW).principal().allows(Scope.READ)
    assert not read_page_link(read, SECRET, NOW).principal().allows(Scope.WRITE)
