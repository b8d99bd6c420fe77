"""/ui: the person's page. Server-rendered (Jinja2) with htmx for the parts that change (the list,
a card, the timeline, the profile, the to-dos, the summaries), no CDN: htmx is served from this
package. Behind the same keys as the API: the login form keeps the key in an HttpOnly, same-site
cookie, and every action goes through the same commands as the API, for the key's tenant's people
only. A page link (POST /v1/users/{id}/page-token) opens one person's page alone: /ui/open keeps
it in the same cookie, and every route then names that person or answers 403. The page follows the
person's change stream (GET /v1/users/{id}/changes) and redraws what changed.

The writes are in ui_actions.py."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from domain.access import NotThisPerson, Principal, Scope, split_person
from domain.commands import IDENTIFIER_PATTERN
from domain.model import MemoryKind
from domain.page_links import is_page_link
from projections.search import Window
from projections.views import MemoryView
from services.api.auth import KEY_COOKIE, PageLinkProblem, authorize
from services.api.deps import MemoryId, ShardsDep, person_lore
from services.api.routers.layers import profile_out, summary_out
from services.api.timeline_picture import WIDTH, picture
from services.bootstrap import Lore

HERE = FilePath(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
router = APIRouter(prefix="/ui", include_in_schema=False)
static = StaticFiles(directory=HERE / "static")
KINDS = tuple(k.value for k in MemoryKind)
PAGE = 100  # memories a page shows at once; "show more" goes on
SUMMARIES = 5
CATCH_UP_S = 10.0  # how long a redraw waits for the graph to hold a change the stream sent


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


class Login(Exception):
    """No valid key: the page shows its login form (or, for a page link, why it does not open)."""

    def __init__(self, link_problem: PageLinkProblem | None = None) -> None:
        super().__init__()
        self.link_problem = link_problem


def _principal(request: Request) -> Principal:
    try:
        return authorize(request)
    except PageLinkProblem as refused:
        raise Login(refused) from refused
    except HTTPException as refused:
        if refused.status_code == 401:
            raise Login() from refused
        raise


PagePrincipal = Annotated[Principal, Depends(_principal)]
# The tenant's own id: no slash, so a page can never name another tenant's person.
PageUser = Annotated[str, Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)]


def _page_lore(request: Request, principal: PagePrincipal, user_id: PageUser, shards: ShardsDep) -> Lore:
    """The Lore of the shard that holds the person the page shows."""
    return person_lore(request, shards, principal.person(user_id))


PageLoreDep = Annotated[Lore, Depends(_page_lore)]


def login_redirect(request: Request, exc: Exception) -> Response:
    problem = exc.link_problem if isinstance(exc, Login) else None
    if problem is not None:
        answer = templates.TemplateResponse(request, "link.html", {"problem": str(problem.detail),
                                                                   "reason": problem.reason},
                                            status_code=401)
        answer.delete_cookie(KEY_COOKIE)
        return answer
    return RedirectResponse("/ui/login", status_code=303)


def not_this_person(request: Request, exc: NotThisPerson) -> Response:
    return templates.TemplateResponse(request, "link.html", {"problem": str(exc), "reason": "other"},
                                      status_code=403)


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


@router.get("/open")
def open_link(request: Request, token: Annotated[str, Query(max_length=2000)]) -> Response:
    """A page link: kept in the page's cookie (until it expires), then the person's page."""
    try:
        principal = request.app.state.gate.page_link(token) if is_page_link(token) else None
    except PageLinkProblem as refused:
        return login_redirect(request, Login(refused))
    if principal is None or principal.only is None or principal.expires_at is None:
        return login_redirect(request, Login(PageLinkProblem.invalid()))
    answer = RedirectResponse(f"/ui/users/{split_person(principal.only)[1]}", status_code=303)
    lasts = int((principal.expires_at - request.app.state.gate.clock()).total_seconds())
    # Lax, not strict: the link is opened from elsewhere (a mail, an app), and the page it leads to
    # is a GET; every change the page makes is a same-site POST, which lax keeps to this site.
    answer.set_cookie(KEY_COOKIE, token, httponly=True, samesite="lax", secure=request.url.scheme == "https",
                      max_age=max(1, lasts))
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
    if principal.only is not None:  # a page link: its person's page is the only one
        return RedirectResponse(f"/ui/users/{split_person(principal.only)[1]}", status_code=303)
    if user_id:
        return RedirectResponse(f"/ui/users/{user_id}", status_code=303)
    return templates.TemplateResponse(request, "people.html", {"principal": principal})


def _as_of(value: str | None) -> datetime | None:
    if not value:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _listing(lore: Any, person: str, q: str, kind: str, as_of: datetime | None, now: datetime, show: str,
             known_at: datetime | None, group: str, offset: int) -> tuple[list[MemoryView], int | None]:
    """A page of memories to show, and the offset of the next page (None: the last)."""
    if q:
        window = Window(valid_at=as_of or now, known_at=known_at, include_history=show == "all",
                        kinds=(kind,) if kind else ())
        hits = lore.search.search(person, q, window, 30, types=("memory",))
        return list(lore.queries.memories_by_id(person, [h.id for h in hits])), None
    if show == "all" and as_of is None:  # everything, forgotten too, the latest recorded first
        found = lore.queries.every(person, kind=kind or None, skip=offset, limit=PAGE + 1, group=group)
    else:  # "in force": what was true at the moment looked at (superseded since, but not forgotten)
        found = lore.queries.memories(person, valid_at=as_of or now, known_at=known_at, kind=kind or None,
                                      skip=offset, limit=PAGE + 1, group=group)
    return found[:PAGE], offset + PAGE if len(found) > PAGE else None


def _group_of(m: MemoryView, group: str) -> str:
    if group == "kind":
        return m.kind
    if group == "category":
        return m.category or "no category"
    return ""


templates.env.globals["group_of"] = _group_of


class Listing:
    """What the filters ask for, read from the query."""

    def __init__(self, q: str = "", kind: str = "", as_of: str | None = None, show: str = "current",
                 lens: str = "true", group: str = "", offset: int = 0, after_group: str = "") -> None:
        self.q, self.kind, self.show, self.offset = q, kind if kind in KINDS else "", show, offset
        self.group = group if group in ("kind", "category") else ""
        self.after_group = after_group
        self.as_of = _as_of(as_of)
        self.lens = "knew" if lens == "knew" and self.as_of else "true"
        self.known_at = self.as_of if self.lens == "knew" else None


def _listing_of(q: Annotated[str, Query(max_length=500)] = "", kind: str = "", as_of: str | None = None,
                show: str = "current", lens: str = "true", group: str = "",
                offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                after_group: Annotated[str, Query(max_length=100)] = "") -> Listing:
    return Listing(q, kind, as_of, show, lens, group, offset, after_group)


ListingDep = Annotated[Listing, Depends(_listing_of)]


def settings_of(lore: Lore, person: str) -> dict[str, Any]:
    return {"memory": True, "extraction": True, "citations": True, "temporary": False,
            **lore.queries.settings(person)}


def _results(lore: Lore, person: str, f: Listing, now: datetime) -> dict[str, Any]:
    memories, next_offset = _listing(lore, person, f.q, f.kind, f.as_of, now, f.show, f.known_at, f.group,
                                     f.offset)
    return {"memories": memories, "next_offset": next_offset, "q": f.q, "kind": f.kind, "show": f.show,
            "lens": f.lens, "as_of": f.as_of, "group": f.group, "after_group": f.after_group,
            "offset": f.offset}


def caught_up(lore: Lore, person: str, command_id: str | None) -> None:
    """Wait (a while, at most) until the graph holds `command_id`: the change stream reads the log,
    which can be a moment ahead of the graph a redraw reads, and a redraw from before the change
    would undo what the page has just shown."""
    if not command_id:
        return
    deadline = time.monotonic() + CATCH_UP_S
    while lore.outcomes.outcome(person, command_id) is None and time.monotonic() < deadline:
        time.sleep(0.05)


CommandSeen = Annotated[str | None, Query(max_length=200, description="The change's command: drawn once "
                                          "the graph holds it.")]


@router.get("/users/{user_id}", response_class=HTMLResponse)
def person_page(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                f: ListingDep, command_id: CommandSeen = None) -> HTMLResponse:
    """`lens`: at the as-of moment, show what was *true* then (as Lore knows it now, later
    corrections included), or what Lore *knew* then (as it stood before it was told more).
    `group`: under headings by kind, or by the deployment's categories."""
    person = principal.person(user_id)
    caught_up(lore, person, command_id)
    now = datetime.now(UTC)
    slots = {m.memory_id: m for m in lore.queries.memories(person, limit=1000) if m.attribute}
    if f.show == "all":  # forgotten values are drawn (hollow, restorable) only when asked for
        slots.update({m.memory_id: m for m in lore.queries.memories(person, status="forgotten", limit=1000)
                      if m.attribute})
    known_then = None
    if f.known_at is not None:
        known_then = {m.memory_id for m in lore.queries.memories(person, valid_at=f.known_at,
                                                                 known_at=f.known_at, limit=1000)}
    drawn = picture(slots.values(), now, f.as_of, known_then)
    days = max(1, (now - drawn.start).days + 1)
    context = {"principal": principal, "user_id": user_id, "kinds": KINDS, "now": now, "picture": drawn,
               "width": WIDTH, "picture_days": days,
               "as_of_day": (f.as_of - drawn.start).days if f.as_of else days,
               "categories": [c.name for c in lore.settings.taxonomy.categories] if lore.settings.taxonomy
               else [],
               "settings": settings_of(lore, person), "can_write": principal.allows(Scope.WRITE),
               **_results(lore, person, f, now)}
    fragment = request.headers.get("hx-request") == "true" and request.headers.get("hx-target") == "results"
    if not fragment:
        context.update(layers(lore, person))
    return templates.TemplateResponse(request, "results.html" if fragment else "person.html", context)


@router.get("/users/{user_id}/list", response_class=HTMLResponse)
def more_memories(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                  f: ListingDep) -> HTMLResponse:
    """The next page of the list (what "show more" appends)."""
    now = datetime.now(UTC)
    return templates.TemplateResponse(request, "cards.html", {
        "user_id": user_id, "now": now, "can_write": principal.allows(Scope.WRITE),
        **_results(lore, principal.person(user_id), f, now)})


def layers(lore: Lore, person: str, version: int | None = None, summaries_from: int = 0) -> dict[str, Any]:
    """The profile (its latest version, or `version`), the to-dos and the latest session summaries."""
    versions = lore.layer_queries.profiles(person, limit=50)
    shown = next((v for v in versions if v.version == version), versions[0] if versions else None)
    found = lore.layer_queries.summaries(person, limit=SUMMARIES + 1, offset=summaries_from)
    todos = lore.queries.memories(person, valid_at=datetime.now(UTC), kind="todo", limit=1000)
    todos = [t for t in todos if t.status == "active"]
    todos.sort(key=lambda t: (t.completed_at is not None, t.due_at is None, t.due_at or t.recorded_at))
    return {"profile": profile_out(person, shown) if shown else None,
            "versions": [(v.version, v.revised_at) for v in versions],
            "summaries": [summary_out(s) for s in found[:SUMMARIES]],
            "summaries_next": summaries_from + SUMMARIES if len(found) > SUMMARIES else None,
            "todos": todos}


@router.get("/users/{user_id}/profile", response_class=HTMLResponse)
def profile_part(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                 version: Annotated[int | None, Query(ge=1)] = None,
                 command_id: CommandSeen = None) -> HTMLResponse:
    caught_up(lore, principal.person(user_id), command_id)
    return templates.TemplateResponse(request, "profile.html", {
        "user_id": user_id, "now": datetime.now(UTC), **layers(lore, principal.person(user_id), version)})


@router.get("/users/{user_id}/summaries", response_class=HTMLResponse)
def summaries_part(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                   offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                   command_id: CommandSeen = None) -> HTMLResponse:
    caught_up(lore, principal.person(user_id), command_id)
    return templates.TemplateResponse(request, "summaries.html", {
        "user_id": user_id, "now": datetime.now(UTC), "more": offset > 0,
        **layers(lore, principal.person(user_id), summaries_from=offset)})


def todos_part(request: Request, lore: Lore, principal: Principal, user_id: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "todos.html", {
        "user_id": user_id, "now": datetime.now(UTC), "can_write": principal.allows(Scope.WRITE),
        **layers(lore, principal.person(user_id))})


@router.get("/users/{user_id}/todos", response_class=HTMLResponse)
def todos(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
          command_id: CommandSeen = None) -> HTMLResponse:
    caught_up(lore, principal.person(user_id), command_id)
    return todos_part(request, lore, principal, user_id)


def card(request: Request, lore: Any, principal: Principal, person: str, memory_id: str) -> HTMLResponse:
    memory = lore.queries.memory(person, memory_id)
    if memory is None:
        raise HTTPException(404, "no such memory")
    return templates.TemplateResponse(request, "card.html", {
        "m": memory, "user_id": split_person(person)[1], "now": datetime.now(UTC),
        "can_write": principal.allows(Scope.WRITE)})


@router.get("/users/{user_id}/memories/{memory_id}", response_class=HTMLResponse)
def one_card(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
             memory_id: MemoryId, command_id: CommandSeen = None) -> HTMLResponse:
    """One memory's card, as it is now (what the page redraws when the change stream names it)."""
    caught_up(lore, principal.person(user_id), command_id)
    return card(request, lore, principal, principal.person(user_id), memory_id)


@router.get("/users/{user_id}/memories/{memory_id}/history", response_class=HTMLResponse)
def history(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
            memory_id: MemoryId) -> HTMLResponse:
    """The values and wordings a memory's chain held, oldest first."""
    chain = lore.queries.history(principal.person(user_id), memory_id)
    return templates.TemplateResponse(request, "history.html", {"chain": chain, "memory_id": memory_id})


@router.get("/users/{user_id}/episodes/{episode_id}", response_class=HTMLResponse)
def episode_page(request: Request, principal: PagePrincipal, lore: PageLoreDep, user_id: PageUser,
                 episode_id: MemoryId) -> HTMLResponse:
    """The conversation a memory came from, turn by turn (a turn the person forgot stays hidden)."""
    found = lore.queries.episode(principal.person(user_id), episode_id)
    if found is None:
        raise HTTPException(404, "no such conversation")
    return templates.TemplateResponse(request, "episode.html", {
        "principal": principal, "user_id": user_id, "episode": found})
