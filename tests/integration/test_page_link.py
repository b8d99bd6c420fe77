"""A page link in a real browser (Chromium via Playwright, as test_page.py), against a real Lore
with keys on: the app asks for a link for ada (POST .../page-token); the page it opens shows and
changes ada only (a correction, a to-do done, a change made elsewhere arriving live), none of the
tenant's other people; a tampered link, an expired one and, after `lore page-links rotate`, the
one given say why they do not open."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from neo4j import Driver

from domain.access import Scope
from domain.page_links import PageGrant, sign_page_link
from infra.page_secret import PageSecret
from infra.settings import Settings
from lore.client import LoreClient
from tests.integration.test_page import CHROMIUM, FLAGS, PATIENCE_MS, script_errors
from tests.support.api_server import api_key, running_api
from tests.support.servers import ServerEndpoints

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys")
    with running_api(settings) as url:
        yield url, settings


def test_a_page_link_opens_one_persons_page_and_nothing_else(lore: tuple[str, Settings]) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PATIENCE_MS)

    url, settings = lore
    app = LoreClient(url, api_key=api_key(settings, "acme", Scope.WRITE))
    cat = app.remember("ada", "Ada's cat is called Mango", kind="fact").memory_id or ""
    passport = app.add_todo("ada", "Renew the passport").memory_id or ""
    app.remember("bo", "Bo plays chess on Sundays", kind="fact")
    link = app.page_link("ada", ttl_s=600)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        thrown = script_errors(page)
        page.goto(url + link.url)
        expect(page).to_have_url(f"{url}/ui/users/ada")
        expect(page.locator("#page-link")).to_contain_text("this link works until")
        expect(page.locator(f"#memory-{cat} .content")).to_have_text("Ada's cat is called Mango")
        expect(page.locator("#live")).to_have_attribute("data-state", "open")

        # Changes on the page: a correction (the old words kept in the history), a to-do done.
        card = page.locator(f"#memory-{cat}")
        card.locator("summary:has-text('Correct')").click()
        card.locator("textarea[name=content]").fill("Ada's cat is called Miso")
        card.get_by_role("button", name="Save the correction").click()
        fixed = page.locator(".card", has_text="Ada's cat is called Miso")
        expect(fixed).to_have_count(1)
        fixed.get_by_role("button", name="History").click()
        expect(fixed.locator(".history")).to_contain_text("Ada's cat is called Mango")
        page.locator(f"#todo-{passport}").get_by_role("button", name="Done").click()
        expect(page.locator(f"#todo-{passport}")).to_have_attribute("data-done", "true")
        # What the app records elsewhere comes to the open page by the change stream.
        app.remember("ada", "Ada is learning the cello", kind="event")
        expect(page.locator(".card", has_text="Ada is learning the cello")).to_have_count(1)

        # Nothing else of the tenant: not bo's page, nor the list of people, nor bo's API routes.
        assert "chess" not in page.content()
        refused = page.goto(f"{url}/ui/users/bo")
        assert refused is not None and refused.status == 403
        expect(page.locator("#link-problem")).to_contain_text("'ada' only")
        page.goto(f"{url}/ui/")
        expect(page).to_have_url(f"{url}/ui/users/ada")
        with LoreClient(url, api_key=link.token) as as_link:
            assert as_link.whoami().user_id == "ada"

        # A link altered by one character, one expired, and (after a rotation) the one given.
        stranger = browser.new_page()
        tampered = link.token[:-3] + ("A" if link.token[-3] != "A" else "B") + link.token[-2:]
        answer = stranger.goto(f"{url}/ui/open?token={quote(tampered, safe='')}")
        assert answer is not None and answer.status == 401
        expect(stranger.locator("#link-problem")).to_have_attribute("data-reason", "invalid")
        secret = PageSecret(settings.page_secret_path).current()
        then = datetime.now(UTC) - timedelta(hours=2)
        old = sign_page_link(secret, PageGrant("acme", "ada", Scope.WRITE, then + timedelta(hours=1)), then)
        answer = stranger.goto(f"{url}/ui/open?token={quote(old, safe='')}")
        assert answer is not None and answer.status == 401
        expect(stranger.locator("#link-problem")).to_have_attribute("data-reason", "expired")
        expect(stranger.locator("h1")).to_have_text("This link has expired")

        rotated = subprocess.run([sys.executable, "-m", "services.cli", "page-links", "rotate"], cwd=ROOT,
                                 env={**os.environ, "LORE_HOME": str(settings.home)}, capture_output=True,
                                 text=True, timeout=120)
        assert rotated.returncode == 0, rotated.stderr
        answer = page.goto(f"{url}/ui/users/ada")  # the cookie still holds the link
        assert answer is not None and answer.status == 401
        expect(page.locator("#link-problem")).to_have_attribute("data-reason", "revoked")
        assert thrown == []
        browser.close()
    fresh = app.page_link("ada", ttl_s=60)  # a new link opens again
    with LoreClient(url, api_key=fresh.token) as as_link:
        assert as_link.whoami().user_id == "ada"
    app.close()
