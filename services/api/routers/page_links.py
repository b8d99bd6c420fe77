"""POST /v1/users/{user_id}/page-token: a signed, expiring link that opens one person's page."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request, status

from domain.access import Scope, split_person
from domain.page_links import PageGrant, sign_page_link
from lore.schemas import PageTokenOut, PageTokenRequest
from services.api.auth import Gate, PrincipalDep
from services.api.deps import UserId

router = APIRouter(tags=["people"])


@router.post("/users/{user_id}/page-token", response_model=PageTokenOut,
             summary="A link to the person's own page", responses={
                 200: {"description": "The link, signed; nothing about it is stored."},
                 403: {"description": "A read key, or a page link (a link cannot make links)."},
                 422: {"description": "Invalid input (ttl_s over a day); the message names the field."}})
def page_token(user_id: UserId, body: PageTokenRequest, principal: PrincipalDep,
               request: Request) -> PageTokenOut:
    """For an app to hand its end user their memories: the page opened with the link shows and
    changes this person only — none of the tenant's other people, no key of the app's — until
    `ttl_s` passes (at most a day). `lore page-links rotate` (or a new LORE_PAGE_SECRET) revokes
    every link given so far. The link is also a bearer token for the person's own routes of this API
    (their change stream, for one)."""
    if principal.only is not None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "a page link cannot make page links")
    scope = Scope.named(body.scope)
    if not principal.allows(scope):
        raise HTTPException(status.HTTP_403_FORBIDDEN, f"this key's scope is {principal.scope.name.lower()}")
    gate: Gate = request.app.state.gate
    if gate.page_secret is None:  # every gate the app makes has one
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "page links are not served here")
    now = gate.clock()
    tenant, own = split_person(user_id)
    grant = PageGrant(tenant, own, scope, now + timedelta(seconds=body.ttl_s))
    token = sign_page_link(gate.page_secret.current(), grant, now)
    return PageTokenOut(user_id=own, token=token, url=f"/ui/open?token={quote(token, safe='')}",
                        scope=body.scope, expires_at=grant.expires_at)
