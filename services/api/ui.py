"""/ui: the person's page. Server-rendered (Jinja2) with htmx for the parts that change (the list,
a card, the timeline), no CDN: htmx is served from this package. Behind the same keys as the API:
the login form keeps the key in an HttpOnly, same-site cookie, and every action goes through the
same commands as the API, for the key's tenant's people only."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from domain.access import Principal, Scope, split_person
from domain.commands import IDENTIFIER_PATTERN
from domain.model import MemoryKind
from projections.search import Window
from projections.views import MemoryView
from services.api.auth import KEY_COOKIE, authorize
from services.api.deps import IntakeDep, MemoryId, ShardsDep, person_lore
from services.api.timeline_picture import WIDTH, picture
from services.api.writes import command
from services.bootstrap import Lore
from services.intake import Intake

HERE = FilePath(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
router = APIRouter(prefix="/ui", include_in_schema=False)
static = StaticFiles(directory=HERE / "static")
KINDS = tuple(kind.value for kind in MemoryKind)


def _ago(moment: datetime | None, now: datetime) -> str:
    if moment is None:
        return ""
    seconds = (now - moment).total_seconds()
    future = seconds < 0
    seconds = abs(seconds)
    for size, unit in ((86400 * 365, "year"), (86400 * 30, "month"), (86400, "day"), (3600, "hour"),
                       (60, "minute")):
        if seconds >= size:
            n = int(seconds // size)
            text = f"{n} {unit}{'s' if n > 1 else ''}"
            return f"in {text}" if future else f"{text} ago"
    return "just now"


templates.env.globals["ago"] = _ago


def _principal(request: Request) -> Principal:
    try:
        return authorize(request)
    except HTTPException as refused:
        if refused.status_code == 401:
            raise Login() from refused
        raise


class Login(Exception):
    """No valid key: the page shows its login form."""


PagePrincipal = Annotated[Principal, Depends(_principal)]
# The tenant's own id: no slash, so a page can never name another tenant's person.
PageUser = Annotated[str, Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]


def _page_lore(request: Request, principal: PagePrincipal, user_id: PageUser, shards: ShardsDep) -> Lore:
    """The Lore of the shard that holds the person the page shows."""
    return person_lore(request, shards, principal.person(user_id))


PageLoreDep = Annotated[Lore, Depends(_page_lore)]


def login_redirect(request: Request, exc: Exception) -> Response:
    return RedirectResponse("/ui/login", status_code=303)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, error: str | None = None) -> HTMLResponse:
    return templates.TemplateResponse(request, "login.html", {"error": error})


@router.post("/login")
def login(request: Request, key: Annotated[str, Form(max_length=200)]) -> Response:
    try:
        request.app.state.gate.principal(key)
    except HTTPException:
        return RedirectResponse("/ui/login?error=That+key+is+not+valid", status_code=303)
    answer = RedirectResponse("/ui/", status_code=303)
    answer.set_cookie(KEY_COOKIE, key, httponly=True, samesite="strict",
                      secure=request.url.scheme == "https", max_age=12 * 3600)
    return answer


@router.post("/logout")
def logout() -> Response:
    answer = RedirectResponse("/ui/login", status_code=303)
    answer.delete_cookie(KEY_COOKIE)
    return answer


@router.get("/", response_class=HTMLResponse)
def people(request: Request, principal: PagePrincipal,
           user_id: Annotated[str | None, Query(max_length=200, pattern=IDENTIFIER_PATTERN)] = None,
           ) -> Response:
    if user_id:
        return RedirectResponse(f"/ui/users/{user_id}", status_code=303)
    return templates.TemplateResponse(request, "people.html", {"principal": principal})


def _as_of(value: str | None) -> datetime | None:
    if not value:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _listing(lore: Any, person: str, q: str, kind: str, as_of: datetime | None, now: datetime,
             show: str, known_at: datetime | None) -> list[MemoryView]:
    if q:
        window = Window(valid_at=as_of or now, known_at=known_at, include_history=show == "all",
                        kinds=(kind,) if kind else ())
        hits = lore.search.search(person, q, window, 30, types=("memory",))
        return list(lore.queries.memories_by_id(person, [h.id for h in hits]))
    # "In force": what was true at the moment looked at (superseded since, but not forgotten).
    valid_at = as_of or (None if show == "all" else now)
    memories: list[MemoryView] = lore.queries.memories(person, valid_at=valid_at, known_at=known_at,
                                                       kind=kind or None, limit=200)
    if show == "all":
        forgotten = lore.queries.memories(person, kind=kind or None, status="forgotten", limit=200)
        known = {m.memory_id for m in memories}
        memories += [m for m in forgotten if m.memory_id not in known]
    return sorted(memories, key=lambda m: m.recorded_at, reverse=True)


@router.get("/users/{user_id}", response_class=HTMLResponse)
def person_page(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                q: Annotated[str, Query(max_length=500)] = "", kind: str = "", as_of: str | None = None,
                show: str = "current", lens: str = "true") -> HTMLResponse:
    """`lens`: at the as-of moment, show what was *true* then (as Lore knows it now, later
    corrections included), or what Lore *knew* then (as it stood before it was told more)."""
    if kind and kind not in KINDS:
        kind = ""
    person = principal.person(user_id)
    now = datetime.now(UTC)
    moment = _as_of(as_of)
    lens = "knew" if lens == "knew" and moment else "true"
    known_at = moment if lens == "knew" else None
    memories = _listing(lore, person, q, kind, moment, now, show, known_at)
    slots = {m.memory_id: m for m in lore.queries.memories(person, limit=1000) if m.attribute}
    if show == "all":  # forgotten values are drawn (hollow, restorable) only when asked for
        slots.update({m.memory_id: m for m in lore.queries.memories(person, status="forgotten", limit=1000)
                      if m.attribute})
    known_then = None
    if known_at is not None:
        known_then = {m.memory_id for m in lore.queries.memories(person, valid_at=known_at, known_at=known_at,
                                                                 limit=1000)}
    drawn = picture(slots.values(), now, moment, known_then)
    days = max(1, (now - drawn.start).days + 1)
    context = {"principal": principal, "user_id": user_id, "memories": memories, "q": q, "kind": kind,
               "kinds": KINDS, "show": show, "lens": lens, "as_of": moment, "now": now, "picture": drawn,
               "width": WIDTH,
               "picture_days": days, "as_of_day": (moment - drawn.start).days if moment else days,
               "settings": {"memory": True, "extraction": True, "citations": True, "temporary": False,
                            **lore.queries.settings(person)},
               "can_write": principal.allows(Scope.WRITE)}
    fragment = request.headers.get("hx-request") == "true" and request.headers.get("hx-target") == "results"
    return templates.TemplateResponse(request, "results.html" if fragment else "person.html", context)


@router.get("/users/{user_id}/episodes/{episode_id}", response_class=HTMLResponse)
def episode_page(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                 episode_id: MemoryId) -> HTMLResponse:
    """The conversation a memory came from, turn by turn."""
    found = lore.queries.episode(principal.person(user_id), episode_id)
    if found is None:
        raise HTTPException(404, "no such conversation")
    return templates.TemplateResponse(request, "episode.html", {
        "principal": principal, "user_id": user_id, "episode": found})


async def _act(intake: Intake, type_: str, person: str, fields: dict[str, Any]) -> None:
    receipt = await intake.submit(command(type_, person, fields), wait=True)
    if receipt.status == "rejected":
        raise HTTPException(409 if receipt.code != "memory_not_found" else 404, receipt.reason)


def _card(request: Request, lore: Any, principal: Principal, person: str, memory_id: str) -> HTMLResponse:
    memory = lore.queries.memory(person, memory_id)
    if memory is None:
        raise HTTPException(404, "no such memory")
    return templates.TemplateResponse(request, "card.html", {
        "m": memory, "user_id": split_person(person)[1], "now": datetime.now(UTC),
        "can_write": principal.allows(Scope.WRITE)})


def _writer(principal: Principal) -> None:
    if not principal.allows(Scope.WRITE):
        raise HTTPException(403, "this key may only read")


@router.post("/users/{user_id}/memories/{memory_id}/forget", response_class=HTMLResponse)
async def forget(request: Request, principal: PagePrincipal, lore: PageLoreDep, intake: IntakeDep,
                 user_id: PageUser, memory_id: MemoryId) -> HTMLResponse:
    _writer(principal)
    await _act(intake, "ForgetMemory", principal.person(user_id), {"memory_id": memory_id,
                                                                   "reason": "forgotten on the page"})
    return _card(request, lore, principal, principal.person(user_id), memory_id)


@router.post("/users/{user_id}/memories/{memory_id}/restore", response_class=HTMLResponse)
async def restore(request: Request, principal: PagePrincipal, lore: PageLoreDep, intake: IntakeDep,
                  user_id: PageUser, memory_id: MemoryId) -> HTMLResponse:
    _writer(principal)
    await _act(intake, "RestoreMemory", principal.person(user_id), {"memory_id": memory_id})
    return _card(request, lore, principal, principal.person(user_id), memory_id)


@router.post("/users/{user_id}/memories/{memory_id}/purge", response_class=HTMLResponse)
async def purge(principal: PagePrincipal, intake: IntakeDep, user_id: PageUser,
                memory_id: MemoryId) -> HTMLResponse:
    """Deleted for good: the card goes (a purge keeps nothing to show)."""
    _writer(principal)
    await _act(intake, "PurgeMemory", principal.person(user_id), {"memory_id": memory_id})
    return HTMLResponse(f'<p class="banner" id="memory-{memory_id}">Deleted for good.</p>')


@router.post("/users/{user_id}/memories")
async def add(principal: PagePrincipal, intake: IntakeDep, user_id: PageUser,
              content: Annotated[str, Form(min_length=1, max_length=10_000)],
              kind: Annotated[str, Form()] = "fact", attribute: Annotated[str, Form(max_length=200)] = "",
              value: Annotated[str, Form(max_length=1000)] = "") -> Response:
    """A new memory; with the slot of one in force, it supersedes it (how a value is edited)."""
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
