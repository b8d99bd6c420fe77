"""What the page changes: forget, restore, delete for good, correct, add, complete or reopen a
to-do, the person's settings, clear all. Each is the API's command, for the page's person only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from domain.access import Principal, Scope
from services.api.deps import IntakeDep, MemoryId
from services.api.ui import KINDS, PageLoreDep, PagePrincipal, PageUser, card, todos_part
from services.api.writes import REFUSALS, command
from services.intake import Intake
from services.markdown import correction

router = APIRouter(prefix="/ui", include_in_schema=False)


async def _act(intake: Intake, type_: str, person: str, fields: dict[str, Any]) -> str | None:
    """Carry out a command for the page; the memory it recorded or changed."""
    receipt = await intake.submit(command(type_, person, fields), wait=True)
    if receipt.status == "rejected":
        raise HTTPException(REFUSALS.get(receipt.code or "", 409), receipt.reason)
    return receipt.memory_id


def _writer(principal: Principal) -> None:
    if not principal.allows(Scope.WRITE):
        raise HTTPException(403, "this key may only read")


@router.post("/users/{user_id}/memories/{memory_id}/forget", response_class=HTMLResponse)
async def forget(request: Request, principal: PagePrincipal, lore: PageLoreDep, intake: IntakeDep,
                 user_id: PageUser, memory_id: MemoryId) -> HTMLResponse:
    _writer(principal)
    await _act(intake, "ForgetMemory", principal.person(user_id), {"memory_id": memory_id,
                                                                   "reason": "forgotten on the page"})
    return card(request, lore, principal, principal.person(user_id), memory_id)


@router.post("/users/{user_id}/memories/{memory_id}/restore", response_class=HTMLResponse)
async def restore(request: Request, principal: PagePrincipal, lore: PageLoreDep, intake: IntakeDep,
                  user_id: PageUser, memory_id: MemoryId) -> HTMLResponse:
    _writer(principal)
    await _act(intake, "RestoreMemory", principal.person(user_id), {"memory_id": memory_id})
    return card(request, lore, principal, principal.person(user_id), memory_id)


@router.post("/users/{user_id}/memories/{memory_id}/purge", response_class=HTMLResponse)
async def purge(principal: PagePrincipal, intake: IntakeDep, user_id: PageUser,
                memory_id: MemoryId) -> HTMLResponse:
    """Deleted for good: the card goes (a purge keeps nothing to show)."""
    _writer(principal)
    await _act(intake, "PurgeMemory", principal.person(user_id), {"memory_id": memory_id})
    return HTMLResponse(f'<p class="banner" id="memory-{memory_id}">Deleted for good.</p>')


@router.post("/users/{user_id}/memories/{memory_id}/correct", response_class=HTMLResponse)
async def correct(request: Request, principal: PagePrincipal, lore: PageLoreDep, intake: IntakeDep,
                  user_id: PageUser, memory_id: MemoryId,
                  content: Annotated[str, Form(min_length=1, max_length=10_000)],
                  value: Annotated[str | None, Form(max_length=1000)] = None) -> HTMLResponse:
    """New words for a memory: the card of the memory that holds them takes the old one's place;
    the old wording stays in its history."""
    _writer(principal)
    person = principal.person(user_id)
    found = lore.queries.memory(person, memory_id)
    if found is None:
        raise HTTPException(404, "no such memory")
    about = lore.queries.entities(person, [memory_id]).get(memory_id, [])
    fixed = correction(found, " ".join(content.split()), value or found.value, about)
    made = await _act(intake, "ReviseMemories", person, {"correct": (fixed,),
                                                         "source": "corrected on the page"})
    return card(request, lore, principal, person, made or memory_id)


@router.post("/users/{user_id}/todos/{memory_id}/{done}", response_class=HTMLResponse)
async def tick(request: Request, principal: PagePrincipal, lore: PageLoreDep, intake: IntakeDep,
               user_id: PageUser, memory_id: MemoryId, done: str) -> HTMLResponse:
    """Complete or reopen a to-do; the to-dos are drawn again."""
    _writer(principal)
    if done not in ("complete", "reopen"):
        raise HTTPException(404, "complete or reopen")
    await _act(intake, "CompleteTodo" if done == "complete" else "ReopenTodo", principal.person(user_id),
               {"memory_id": memory_id})
    return todos_part(request, lore, principal, user_id)


@router.post("/users/{user_id}/memories")
async def add(principal: PagePrincipal, intake: IntakeDep, user_id: PageUser,
              content: Annotated[str, Form(min_length=1, max_length=10_000)],
              kind: Annotated[str, Form()] = "fact", attribute: Annotated[str, Form(max_length=200)] = "",
              value: Annotated[str, Form(max_length=1000)] = "") -> Response:
    """A new memory; with the slot of one in force, it supersedes it (how a value is changed)."""
    _writer(principal)
    await _act(intake, "RecordMemory", principal.person(user_id), {
        "content": content, "kind": kind if kind in KINDS else "fact", "attribute": attribute or None,
        "value": value or None, "source": "the memory page"})
    return RedirectResponse(f"/ui/users/{user_id}", status_code=303)


@router.post("/users/{user_id}/settings")
async def configure(principal: PagePrincipal, intake: IntakeDep, user_id: PageUser,
                    memory: Annotated[bool, Form()] = False, extraction: Annotated[bool, Form()] = False,
                    citations: Annotated[bool, Form()] = False,
                    temporary: Annotated[bool, Form()] = False) -> Response:
    """The person's switches (an unticked box is sent as nothing: off)."""
    _writer(principal)
    await _act(intake, "ConfigureUser", principal.person(user_id), {
        "memory": memory, "extraction": extraction, "citations": citations, "temporary": temporary})
    return RedirectResponse(f"/ui/users/{user_id}", status_code=303)


@router.post("/users/{user_id}/erase")
async def erase(principal: PagePrincipal, intake: IntakeDep, user_id: PageUser,
                confirm: Annotated[str, Form()] = "") -> Response:
    """Clear all: the person's erasure, once they typed their id to confirm."""
    _writer(principal)
    if confirm != user_id:
        raise HTTPException(422, "type the person's id to confirm")
    await _act(intake, "EraseUser", principal.person(user_id), {})
    return RedirectResponse(f"/ui/users/{user_id}", status_code=303)
