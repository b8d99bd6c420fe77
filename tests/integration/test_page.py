"""The memory page (/ui) in a real browser: Debian's Chromium driven by Playwright (no browser
download), against a real Lore with keys on. Sign in, search, filter by kind, forget and
restore, change a value (a new memory that supersedes), the timeline picture and the as-of
slider, a temporary session, and clear all. Screenshots of each step are kept in
test-artifacts/page/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from domain.access import Scope
from infra.settings import Settings
from lore.client import LoreClient, LoreError
from tests.support.api_server import api_key, running_api
from tests.support.servers import ServerEndpoints

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "page"
# How long an expectation waits for the page to show what it should: a ceiling, not a budget, for
# a busy 2-core CI machine (Playwright's default is 5 s).
PATIENCE_MS = 30_000
# Chromium as root, headless, with no calls home (the machine's network is closed).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def script_errors(page: Any) -> list[str]:
    """What the page's own scripts throw from now on (a handler that throws skips its guards)."""
    thrown: list[str] = []
    page.on("pageerror", lambda error: thrown.append(str(error)))
    return thrown


pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed "
                                "(apt-get install chromium; `make test` does)")


class Told:
    """Lore's clock for this test: the day a memory is told, while seeding; then the real time."""

    def __init__(self) -> None:
        self.on: datetime | None = None

    def __call__(self) -> datetime:
        return self.on or datetime.now(UTC)


TOLD = Told()


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys")
    with running_api(settings, clock=TOLD) as url:
        yield url, settings


def seed(url: str, key: str) -> dict[str, str]:
    with LoreClient(url, api_key=key) as client:
        ids = {}
        def day(year: int, month: int, d: int) -> datetime:
            return datetime(year, month, d, tzinfo=UTC)
        # Lisbon since September 2025; dark since January, told in January; light since March,
        # told only in April: in mid-March light was true, but Lore still knew dark.
        TOLD.on = day(2025, 9, 2)
        city = client.remember("ada", "Ada lives in Lisbon", kind="fact", attribute="home_city",
                               value="Lisbon", valid_from=day(2025, 9, 1))
        for value, since, told in (("dark", day(2026, 1, 1), day(2026, 1, 2)),
                                   ("light", day(2026, 3, 1), day(2026, 4, 2))):
            TOLD.on = told
            done = client.remember("ada", f"Ada prefers the {value} editor theme", kind="preference",
                                   attribute="editor_theme", value=value, valid_from=since)
            ids[value] = done.memory_id or ""
        TOLD.on = None
        ids["city"] = city.memory_id or ""
        ids["cat"] = client.remember("ada", "Ada's cat is called Miso", kind="fact").memory_id or ""
        ids["cello"] = client.remember("ada", "Ada is learning the cello", kind="event").memory_id or ""
        return ids


def test_the_memory_page_in_a_real_browser(lore: tuple[str, Settings]) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PATIENCE_MS)

    url, settings = lore
    key = api_key(settings, "acme", Scope.WRITE)
    ids = seed(url, key)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1000, "height": 1100})
        thrown = script_errors(page)

        def shot(name: str) -> None:
            page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

        page.goto(f"{url}/ui/users/ada")
        expect(page).to_have_url(f"{url}/ui/login")  # no key, no page
        page.fill("input[name=key]", "lore_0000000000000000_wrong")
        page.click("button:has-text('Sign in')")
        expect(page.locator(".error")).to_contain_text("not valid")
        page.fill("input[name=key]", key)
        page.click("button:has-text('Sign in')")
        page.fill("input[name=user_id]", "ada")
        page.click("button:has-text('Open')")
        expect(page.locator(".card")).to_have_count(4)  # in force: light theme, Lisbon, cat, cello
        shot("1-memories")

        page.fill("input[name=q]", "cat Miso")
        expect(page.locator(".card")).to_have_count(1)
        expect(page.locator(".card .content")).to_have_text("Ada's cat is called Miso")
        shot("2-search")
        page.fill("input[name=q]", "")
        page.select_option("select[name=kind]", "preference")
        expect(page.locator(".card")).to_have_count(1)
        expect(page.locator(".card .content")).to_have_text("Ada prefers the light editor theme")
        shot("3-filter")
        page.select_option("select[name=kind]", "")

        cello = page.locator(f"#memory-{ids['cello']}")
        cello.get_by_role("button", name="Forget").click()
        expect(page.locator(f"#memory-{ids['cello']}")).to_have_attribute("data-status", "forgotten")
        shot("4-forgotten")
        page.locator(f"#memory-{ids['cello']}").get_by_role("button", name="Restore").click()
        expect(page.locator(f"#memory-{ids['cello']}")).to_have_attribute("data-status", "active")

        # Change a value: a new memory in the slot supersedes the one in force, nothing is overwritten.
        page.click("text=Add or change a memory")
        page.fill("details.add input[name=content]", "Ada prefers the solarized editor theme")
        page.select_option("details.add select[name=kind]", "preference")
        page.fill("details.add input[name=attribute]", "editor_theme")
        page.fill("details.add input[name=value]", "solarized")
        page.click("text=Save as a new memory")
        bars = page.locator("#timeline .bar")
        expect(bars).to_have_count(4)  # dark, light, solarized; Lisbon
        expect(page.locator("#timeline path.supersedes")).to_have_count(2)
        page.select_option("select[name=show]", "all")
        light = page.locator(".card", has_text="light editor theme")
        expect(light).to_have_attribute("data-status", "superseded")
        shot("5-timeline")

        # As of mid-February 2026: the dark theme was the one in force, and the list says so.
        page.select_option("select[name=show]", "current")
        # The slider counts days from the timeline's first date (Lisbon, 2025-09-01).
        page.locator("input[name=as_of_day]").fill(str((datetime(2026, 2, 15) - datetime(2025, 9, 1)).days))
        expect(page.locator("#asof-label")).to_have_text("2026-02-15")
        expect(page.locator("#timeline .bar.now")).to_have_count(2)  # dark, and Lisbon
        expect(page.locator("#timeline .bar.now", has_text="dark")).to_have_count(1)
        expect(page.locator("#asof-line")).to_have_count(1)
        expect(page.locator(".card", has_text="solarized")).to_have_count(0)
        expect(page.locator(".card", has_text="dark editor theme")).to_have_count(1)
        shot("6-as-of")

        # Mid-March: light was true (as Lore knows now), but Lore, told in April, knew dark then.
        page.locator("input[name=as_of_day]").fill(str((datetime(2026, 3, 15) - datetime(2025, 9, 1)).days))
        expect(page.locator("#asof-label")).to_have_text("2026-03-15")
        expect(page.locator("#timeline .bar.now", has_text="light")).to_have_count(1)
        expect(page.locator("#timeline .bar.now", has_text="dark")).to_have_count(0)
        page.select_option("select[name=lens]", "knew")
        expect(page.locator("#timeline .bar.now", has_text="dark")).to_have_count(1)
        expect(page.locator("#timeline .bar.now", has_text="light")).to_have_count(0)
        expect(page.locator("#timeline .bar.unknown", has_text="light")).to_have_count(1)
        expect(page.locator(".memories h2")).to_contain_text("as it knew then")
        expect(page.locator(".card", has_text="dark editor theme")).to_have_count(1)
        expect(page.locator(".card", has_text="light editor theme")).to_have_count(0)
        shot("7-what-lore-knew")
        page.select_option("select[name=lens]", "true")

        # A temporary session: nothing is remembered or recalled until it is turned off.
        page.click("summary:has-text('Settings')")
        page.check("#settings input[name=temporary]")
        page.click("button:has-text('Save settings')")
        expect(page.locator("#temporary-banner")).to_be_visible()
        with LoreClient(url, api_key=key) as client:
            with pytest.raises(LoreError) as paused:
                client.remember("ada", "Ada is planning a surprise party")
            assert paused.value.status == 409 and paused.value.code == "memory_paused"
            recalled = client.search("ada", "cat Miso")
            assert recalled.hits == [] and recalled.note and "temporary" in recalled.note
        shot("8-temporary")
        page.uncheck("#settings input[name=temporary]")
        page.click("button:has-text('Save settings')")
        expect(page.locator("#temporary-banner")).to_have_count(0)
        with LoreClient(url, api_key=key) as client:
            assert client.search("ada", "cat Miso").hits

        page.click("summary:has-text('Clear all')")
        page.fill("details.danger input[name=confirm]", "ada")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("button:has-text('Erase ada')")
        expect(page.locator(".card")).to_have_count(0)
        shot("9-cleared")
        assert thrown == []
        browser.close()
