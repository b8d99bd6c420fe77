"""Who a request comes from, and whether they may: API keys, scopes, a rate limit per key.

Every route under /v1 depends on `authorize`. The scope a route needs is its method's (GET:
read, others: write) unless the route says otherwise with `needs(...)` (search is a POST that
only reads; settings and maintenance need admin). The person a route names is the tenant's:
`PersonDep` turns the path's `user_id` into the id Lore keeps them under (domain/access.py), so
no key can name a person of another tenant.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import Depends, HTTPException, Path, Request
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from domain.access import OPERATOR, Principal, Scope, read_token
from domain.commands import IDENTIFIER_PATTERN
from domain.page_links import PageLinkRefused, is_page_link, read_page_link
from infra.apikeys import ApiKeyStore
from infra.page_secret import PageSecret

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])
KEY_COOKIE = "lore_key"
_METHOD_SCOPE = {"GET": Scope.READ, "HEAD": Scope.READ, "OPTIONS": Scope.READ}


def needs(scope: Scope) -> Callable[[F], F]:
    """Mark a route as needing `scope` whatever its method."""
    def mark(endpoint: F) -> F:
        endpoint.__lore_scope__ = scope  # type: ignore[attr-defined]
        return endpoint
    return mark


class PageLinkProblem(HTTPException):
    """A page link that does not open (invalid, expired, revoked): the page says which."""

    def __init__(self, refused: PageLinkRefused) -> None:
        super().__init__(401, str(refused), headers={"WWW-Authenticate": "Bearer"})
        self.reason = refused.reason

    @classmethod
    def invalid(cls) -> PageLinkProblem:
        return cls(PageLinkRefused("invalid", "this page link is not valid (altered, or never made here)"))


class Gate:
    """Checks keys against the store (and page links against their secret) and counts each key's
    requests."""

    def __init__(self, keys: ApiKeyStore | None, rate_limit: str, page_secret: PageSecret | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.keys = keys  # None: auth is off, every request is the operator's
        self.page_secret = page_secret
        self.clock = clock
        self._limit = parse(rate_limit)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def page_link(self, token: str) -> Principal:
        if self.page_secret is None:
            raise PageLinkProblem(PageLinkRefused("invalid", "page links are not served here"))
        try:
            grant = read_page_link(token, self.page_secret.current(), self.clock())
        except PageLinkRefused as refused:
            raise PageLinkProblem(refused) from refused
        if not self._limiter.hit(self._limit, f"page:{grant.person}"):
            raise HTTPException(429, f"too many requests for this page: at most {self._limit}",
                                headers={"Retry-After": "1"})
        return grant.principal()

    def principal(self, token: str | None) -> Principal:
        if token and is_page_link(token):
            return self.page_link(token)  # one person's, whether keys are on or not
        if self.keys is None:
            return OPERATOR
        if not token:
            raise HTTPException(401, "an API key is needed: send it as `Authorization: Bearer <key>` "
                                     "(make one with `lore keys create --tenant NAME`)",
                                headers={"WWW-Authenticate": "Bearer"})
        parts = read_token(token)
        key = self.keys.find(parts[0]) if parts else None
        if parts is None or key is None or not key.opens_with(parts[1]):
            raise HTTPException(401, "this API key is not valid (revoked, or never made here)",
                                headers={"WWW-Authenticate": "Bearer"})
        if not self._limiter.hit(self._limit, key.key_id):
            raise HTTPException(429, f"too many requests for this key: at most {self._limit} "
                                "(LORE_RATE_LIMIT)", headers={"Retry-After": "1"})
        return Principal(key.tenant, key.scope, key.key_id)


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value:
        return value.strip()
    # The page (/ui) keeps the key in an HttpOnly, same-site cookie set by its login form.
    return request.headers.get("x-api-key") or request.cookies.get(KEY_COOKIE)


def authorize(request: Request) -> Principal:
    """The request's principal, once its key and scope are checked (401, 403, 429)."""
    gate: Gate = request.app.state.gate
    principal = gate.principal(_token(request))
    route = request.scope.get("route")
    endpoint = getattr(route, "endpoint", None)
    needed = getattr(endpoint, "__lore_scope__", None) or _METHOD_SCOPE.get(request.method, Scope.WRITE)
    if not principal.allows(needed):
        raise HTTPException(403, f"this key's scope is {principal.scope.name.lower()}; this needs "
                                 f"{needed.name.lower()}")
    request.state.principal = principal
    return principal


PrincipalDep = Annotated[Principal, Depends(authorize)]


def _person(principal: PrincipalDep,
            user_id: Annotated[str, Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN,
                                         description="The person whose memory it is.")]) -> str:
    return principal.person(user_id)


PersonDep = Annotated[str, Depends(_person)]
