"""GET /v1/keys/me: what the key a request carries may do: its tenant and scope. An MCP server or
an app checks a key with it before acting on a person's behalf."""

from __future__ import annotations

from fastapi import APIRouter

from domain.access import Scope
from lore.schemas import KeyView
from services.api.auth import PrincipalDep, needs

router = APIRouter(tags=["keys"])


@router.get("/keys/me", response_model=KeyView)
@needs(Scope.READ)
def who_am_i(principal: PrincipalDep) -> KeyView:
    return KeyView(tenant=principal.tenant, scope=principal.scope.name.lower(),  # type: ignore[arg-type]
                   key_id=principal.key_id,
                   user_id=principal.own_id(principal.only) if principal.only is not None else None)
