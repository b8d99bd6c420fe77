"""A link that opens one person's page, and nothing else: signed, expiring, revocable.

An app hands its end user a link to their own memories without handing them the app's key. The
token names the tenant, the person (as the tenant knows them), what it allows (read or write) and
when it stops, signed with HMAC-SHA256 under a secret of the deployment's. Nothing is stored per
link: a link is valid while its signature holds, its time has not passed and the secret it was
signed with is the current one; rotating the secret revokes every link given so far. The token
also names which secret signed it (a digest of it), so that a revoked link says so.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from domain.access import Principal, Scope, person_id, valid_tenant

PREFIX = "lorepage_"
MAX_LIFETIME = timedelta(days=1)
_CONTEXT = b"lore page link\x00"


@dataclass(frozen=True)
class PageGrant:
    tenant: str
    user_id: str  # as the tenant knows them
    scope: Scope
    expires_at: datetime

    @property
    def person(self) -> str:
        return person_id(self.tenant, self.user_id)

    def principal(self) -> Principal:
        return Principal(self.tenant, self.scope, None, only=self.person, expires_at=self.expires_at)


class PageLinkRefused(Exception):
    """Why a page link does not open: `reason` is invalid, expired or revoked."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def is_page_link(token: str) -> bool:
    return token.startswith(PREFIX)


def secret_id(secret: bytes) -> str:
    return hashlib.sha256(_CONTEXT + secret).hexdigest()[:12]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signature(secret: bytes, body: str) -> str:
    return _b64(hmac.new(secret, _CONTEXT + body.encode(), hashlib.sha256).digest())


def sign_page_link(secret: bytes, grant: PageGrant, now: datetime) -> str:
    if grant.expires_at - now > MAX_LIFETIME:
        raise ValueError(f"a page link opens for at most {MAX_LIFETIME}")
    if grant.scope > Scope.WRITE:
        raise ValueError("a page link allows at most writing")
    body = _b64(json.dumps({"t": grant.tenant, "u": grant.user_id, "s": grant.scope.name.lower(),
                            "e": int(grant.expires_at.timestamp()), "k": secret_id(secret)},
                           separators=(",", ":")).encode())
    return f"{PREFIX}{body}.{_signature(secret, body)}"


def read_page_link(token: str, secret: bytes, now: datetime) -> PageGrant:
    """The grant a link carries; PageLinkRefused when it is forged, altered, expired or revoked."""
    invalid = PageLinkRefused("invalid", "this page link is not valid (altered, or never made here)")
    body, dot, signature = token.removeprefix(PREFIX).partition(".")
    if not token.startswith(PREFIX) or not dot:
        raise invalid
    try:
        claims = json.loads(_unb64(body))
    except ValueError:
        raise invalid from None
    if not isinstance(claims, dict):
        raise invalid
    if claims.get("k") != secret_id(secret):
        raise PageLinkRefused("revoked", "this page link was revoked (the signing secret was rotated): "
                              "ask for a new one")
    if not hmac.compare_digest(signature, _signature(secret, body)):
        raise invalid
    try:
        grant = PageGrant(str(claims["t"]), str(claims["u"]), Scope.named(str(claims["s"])),
                          datetime.fromtimestamp(int(claims["e"]), UTC))
    except (KeyError, ValueError, TypeError):
        raise invalid from None
    if not valid_tenant(grant.tenant) or grant.scope > Scope.WRITE:
        raise invalid
    if now >= grant.expires_at:
        raise PageLinkRefused("expired", f"this page link expired at {grant.expires_at:%Y-%m-%d %H:%M} UTC: "
                              "ask for a new one")
    return grant
