"""Neo4j Browser, guided: `:play http://127.0.0.1:8000/browser-guide` opens slides on what the
labels mean with ready queries, and `:style http://127.0.0.1:8000/browser-style.grass` colours
memories by kind and status. Both hold no person's data, so they ask for no key; Browser fetches
them from its own page, hence the open CORS headers: Browser asks for the guide with no-cache
headers, which makes its fetch one that a browser first checks with a preflight (OPTIONS)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

router = APIRouter(tags=["health"], include_in_schema=False)
HERE = Path(__file__).resolve().parent.parent / "browser"
_OPEN = {"Access-Control-Allow-Origin": "*"}
OPEN_PATHS = frozenset({"/browser-guide", "/browser-style.grass"})
_PREFLIGHT = {**_OPEN, "Access-Control-Allow-Methods": "GET", "Access-Control-Allow-Headers": "*",
              "Access-Control-Max-Age": "600"}


@router.get("/browser-guide", response_class=HTMLResponse)
def guide(request: Request) -> HTMLResponse:
    style = str(request.url_for("browser_style"))
    return HTMLResponse((HERE / "guide.html").read_text().replace("{{ style_url }}", style), headers=_OPEN)


@router.get("/browser-style.grass", response_class=PlainTextResponse, name="browser_style")
def style() -> PlainTextResponse:
    return PlainTextResponse((HERE / "style.grass").read_text(), headers=_OPEN)


@router.options("/browser-guide")
@router.options("/browser-style.grass")
def preflight() -> Response:
    """What Browser's fetch may send (its Cache-Control and Pragma headers): anything, from anywhere."""
    return Response(status_code=204, headers=_PREFLIGHT)
