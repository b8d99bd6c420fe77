"""Neo4j Browser itself (the one the test Neo4j serves), in Debian's Chromium driven by Playwright,
doing what the README tells a person to do: connect with no authentication, `:play` Lore's guide,
run its first slide's `:param` and `:style`, then its supersession-chain query. The guide, the
style and the graph are checked in the page; screenshots go to test-artifacts/browser/
(docs/browser-guide.png and docs/browser-chain.png are copies of them)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from infra.settings import Settings
from lore.client import LoreClient
from services.api import create_app
from tests.support.api_server import running_api
from tests.support.servers import ServerEndpoints

if TYPE_CHECKING:
    from playwright.sync_api import Locator

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
# Chromium as root, headless, with no calls home (the machine's network is closed).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
EDITORS = ("vim", "helix", "neovim")  # one slot's values, oldest first: each supersedes the one before
FIRST_SLIDE = "Lore: a person's memory, over time"
CHAIN_SLIDE = "A supersession chain, as a graph"
# Browser shows this once connected, until dismissed (its × is the banner's last span).
CONSENT_CLOSE = "div:has(> span:has-text('To help make Neo4j Browser better')) > span:last-child"
# True once the element, and the graph's nodes in it, have kept their places for ten animation
# frames: Browser slides a new frame into the stream, and lays a graph out by simulation.
STILL = """el => {
  const now = [el, ...el.querySelectorAll('svg g.node')].map(e => JSON.stringify(e.getBoundingClientRect()))
    .join();
  el.loreStill = now === el.lorePlaces ? (el.loreStill || 0) + 1 : 0;
  el.lorePlaces = now;
  return el.loreStill >= 10;
}"""

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed "
                                    "(apt-get install chromium; `make test` does)")


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[str]:
    if servers.neo4j_browser_url is None:
        pytest.skip(f"Neo4j Browser is reached only on the local test servers (these: {servers.origin})")
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="none")
    with running_api(settings) as url:
        yield url


def grass(text: str) -> dict[str, dict[str, str]]:
    """A GraSS file's rules: selector ("node.Preference", "relationship.SUPERSEDES") -> properties."""
    return {selector: dict(re.findall(r"([\w-]+):\s*([^;]+);", body))
            for selector, body in re.findall(r"([\w.]+)\s*\{([^}]*)\}", text)}


def test_browser_may_fetch_the_guide_and_the_style_from_its_own_page() -> None:
    """Browser asks for a guide with Cache-Control and Pragma headers, so Chromium first asks
    Lore, across origins, whether it may (a preflight)."""
    client = TestClient(create_app())  # no lifespan: these two routes need no Lore
    for path in ("/browser-guide", "/browser-style.grass"):
        answer = client.options(path, headers={"Origin": "http://127.0.0.1:7474",
                                               "Access-Control-Request-Method": "GET",
                                               "Access-Control-Request-Headers": "cache-control,pragma"})
        assert answer.status_code == 204, answer.text
        assert answer.headers["access-control-allow-origin"] == "*"
        assert answer.headers["access-control-allow-headers"] == "*"


def test_the_guide_stays_open_when_the_api_lists_its_cors_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    """LORE_CORS_ORIGINS names the apps that may call the API; Browser's page is not one of them,
    and its guide must still open, while the API keeps refusing an origin it does not list."""
    monkeypatch.setenv("LORE_CORS_ORIGINS", '["https://app.example"]')
    client = TestClient(create_app())
    asked = {"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "cache-control"}
    guide = client.options("/browser-guide", headers={"Origin": "http://127.0.0.1:7474", **asked})
    assert guide.status_code == 204 and guide.headers["access-control-allow-origin"] == "*"
    api = client.options("/v1/users/ada/memories", headers={"Origin": "http://127.0.0.1:7474", **asked})
    assert api.status_code == 400 and "access-control-allow-origin" not in api.headers
    app = client.options("/v1/users/ada/memories", headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type"})
    assert app.status_code == 200 and app.headers["access-control-allow-origin"] == "https://app.example"


@needs_chromium
def test_the_guide_and_a_supersession_chain_in_neo4j_browser(lore: str, servers: ServerEndpoints) -> None:
    from playwright.sync_api import expect, sync_playwright

    with LoreClient(lore) as client:
        for month, value in zip((1, 3, 6), EDITORS, strict=True):
            client.remember("ada", f"Edits code in {value}", kind="preference", attribute="editor",
                            value=value, valid_from=datetime(2026, month, 1, tzinfo=UTC))
    style = grass(httpx.get(f"{lore}/browser-style.grass").text)
    slides = re.findall(r"<h3>(.*?)</h3>", httpx.get(f"{lore}/browser-guide").text)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        editor = page.locator("#monaco-main-editor")

        def run(command: str | None = None) -> None:
            """Type `command` into Browser's editor (else run what a click on the guide put there)."""
            if command is not None:
                editor.click()
                page.keyboard.insert_text(command)
            page.get_by_test_id("editor-Run").click()

        def frame(command: str) -> Locator:
            """The frame of the stream that ran `command` (the start of it)."""
            return page.get_by_test_id("frame").filter(
                has=page.get_by_test_id("frameCommand").filter(has_text=command))

        def shot(name: str, down_to: Locator) -> None:
            """The window from its top down to the bottom of `down_to` (a frame), once it is still."""
            page.wait_for_function(STILL, arg=down_to.element_handle(), polling="raf")
            box = down_to.bounding_box()
            assert box is not None
            bottom = min(900, box["y"] + box["height"] + 12)
            page.screenshot(path=str(SHOTS / f"{name}.png"),
                            clip={"x": 0, "y": 0, "width": 1400, "height": bottom})

        # Connect: the form Browser opens on, filled from the server's discovery answer.
        page.goto(servers.neo4j_browser_url or "")
        expect(page.get_by_test_id("boltaddress")).to_have_value(servers.neo4j_uri.removeprefix("bolt://"))
        page.get_by_test_id("bolt-scheme-select").select_option("bolt://")
        page.get_by_test_id("authenticationMethod").select_option("NO_AUTH")
        page.get_by_test_id("connect").click()
        expect(page.get_by_text("You have a working connection")).to_be_visible()
        run(":clear")
        expect(page.get_by_test_id("frame")).to_have_count(0)

        # The guide, fetched by Browser from Lore (127.0.0.1 is on the server's allowlist).
        lore_url = lore.removeprefix("http://")
        run(f":play http://{lore_url}/browser-guide")
        guide = frame(":play")
        expect(guide.get_by_role("heading", name=FIRST_SLIDE)).to_be_visible()
        expect(guide.locator("pre.runnable")).to_have_text([":param user => 'ada'",
                                                            f":style http://{lore_url}/browser-style.grass"])
        # Browser loaded the server's settings before it fetched the guide: the consent banner,
        # if it is to show, shows now.
        if page.locator(CONSENT_CLOSE).is_visible():
            page.locator(CONSENT_CLOSE).click()
            expect(page.locator(CONSENT_CLOSE)).to_have_count(0)
        shot("guide", guide)

        # The first slide's two commands, as a person runs them: click, then run.
        guide.locator("pre.runnable", has_text=":param user").click()
        run()
        expect(frame(":param user").get_by_text("Successfully set your parameters.")).to_be_visible()
        guide.locator("pre.runnable", has_text=":style").click()
        run()
        expect(frame(":style").get_by_text("node.Preference {")).to_be_visible()
        for command in (":style", ":param user"):  # checked; closed, so that the graph tops the stream
            frame(command).get_by_title("Close").click()
        expect(page.get_by_test_id("frame")).to_have_count(1)

        # The chain slide's query: a graph of three memories and two supersessions.
        for number in range(2, slides.index(CHAIN_SLIDE) + 2):
            guide.get_by_test_id("nextSlide").click()
            expect(guide.get_by_text(f"{number} / {len(slides)}", exact=True)).to_be_visible()
        expect(guide.get_by_role("heading", name=CHAIN_SLIDE)).to_be_visible()
        guide.locator("pre.runnable", has_text="SUPERSEDES").click()
        run()
        graph = frame("MATCH chain")
        expect(graph.get_by_text("Displaying 3 nodes, 2 relationships.")).to_be_visible()
        nodes = graph.locator("svg g.node")
        expect(nodes).to_have_count(3)
        # A caption is a memory's content (node.Memory's caption), wrapped over lines; a colour is
        # the style's: the value in force by its kind, the ones it replaced by their status.
        fills = {" ".join(" ".join(node.locator("text.caption").all_text_contents()).split()):
                 (node.locator("circle.b-outline").get_attribute("fill") or "").upper()
                 for node in nodes.all()}
        assert fills == {
            "Edits code in neovim": style["node.Preference"]["color"].upper(),
            "Edits code in helix": style["node.Superseded"]["color"].upper(),
            "Edits code in vim": style["node.Superseded"]["color"].upper(),
        }
        arrows = graph.locator("svg g.relationship path.b-outline")
        expect(arrows).to_have_count(2)
        red = style["relationship.SUPERSEDES"]["color"].upper()
        assert [(arrow.get_attribute("fill") or "").upper() for arrow in arrows.all()] == [red, red]
        shot("chain", graph)
        browser.close()
