"""The page shows the layers, in a real browser (Chromium via Playwright, as test_page.py): the
profile and its versions, the session summaries, to-dos done and reopened, a list that goes on past
200 memories, grouped by kind; against a real Lore with keys on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import Driver

from domain.access import Scope
from infra.settings import Settings
from lore.client import LoreClient
from tests.integration.test_page import CHROMIUM, FLAGS, PATIENCE_MS, script_errors
from tests.support.api_server import api_key, running_api
from tests.support.kafka_flow import wait_until
from tests.support.servers import ServerEndpoints

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
CHAT = [{"role": "user", "content": "Morning! I moved to Lisbon last month."},
        {"role": "assistant", "content": "Thank you for telling me."},
        {"role": "user", "content": "And my favourite colour is green."},
        {"role": "assistant", "content": "Lovely."}]
NOTES = 230


@pytest.fixture()
def lore(neo4j: Driver, servers: ServerEndpoints, tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    settings = Settings(neo4j_uri=servers.neo4j_uri, home=tmp_path, embedder="none", auth="keys",
                        extraction_poll_s=0.1)
    with running_api(settings) as url:
        yield url, settings


def test_the_page_shows_the_layers_and_pages_past_200(lore: tuple[str, Settings]) -> None:
    from playwright.sync_api import APIResponse, Route, expect, sync_playwright

    expect.set_options(timeout=PATIENCE_MS)

    url, settings = lore
    key = api_key(settings, "acme", Scope.WRITE)
    with LoreClient(url, api_key=key) as app:
        app.record_conversation("ada", "s1", CHAT, episode_id="e1")
        app.end_session("ada", "s1")
        wait_until(lambda: app.profile("ada").version >= 1 and app.summaries("ada").items,
                   "the profile and the session's summary")
        passport = app.add_todo("ada", "Renew the passport").memory_id or ""
        # Many memories at once: one edited Markdown file, one decision.
        text = app.export_markdown("ada")
        notes = "".join(f"- Ada's note number {n:03d}\n" for n in range(NOTES))
        done = app.import_markdown("ada", text.replace("## Lessons\n", "## Lessons\n" + notes), dry_run=False)
        assert done.recorded == NOTES
        total = len(list(app.iter_memories("ada")))
        summary = app.summaries("ada").items[0]
        written = app.profile("ada").version
    assert total > NOTES
    with LoreClient(url, api_key=key) as app_now, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1000, "height": 1100})
        thrown = script_errors(page)
        page.goto(f"{url}/ui/login")
        page.fill("input[name=key]", key)
        page.click("button:has-text('Sign in')")
        page.goto(f"{url}/ui/users/ada")
        expect(page.locator("#profile .basic")).to_contain_text("Lisbon")
        # The version the page shows is one the profile had when it drew it (a later one may follow:
        # what came while version 1 was written makes the next due).
        expect(page.locator("#profile-version")).to_have_attribute("data-version", re.compile(r"^[1-9]\d*$"))
        shown = int(page.locator("#profile-version").get_attribute("data-version") or 0)
        assert written <= shown <= app_now.profile("ada").version
        expect(page.locator(f"#summary-{summary.summary_id}")).to_contain_text("session s1")

        # The stream redraws the to-dos after each change; the redraw for "done" may come back after
        # "Reopen" was answered, and after the redraw for "reopened". Answered by the server at once
        # but handed to the page late, in that order, it must not draw the to-do done again.
        held: list[tuple[Route, APIResponse]] = []
        redraws = re.compile(r"/todos\?command_id=")
        page.route(redraws, lambda route: held.append((route, route.fetch())))
        page.locator(f"#todo-{passport}").get_by_role("button", name="Done").click()
        expect(page.locator(f"#todo-{passport}")).to_have_attribute("data-done", "true")
        while not held:
            page.wait_for_timeout(50)  # the routes are handed over as the browser's events are read
        with page.expect_request(redraws):
            page.locator(f"#todo-{passport}").get_by_role("button", name="Reopen").click()
            expect(page.locator(f"#todo-{passport}")).to_have_attribute("data-done", "false")
        while len(held) < 2:
            page.wait_for_timeout(50)
        for route, answer in reversed(held[:2]):
            with page.expect_response(redraws):
                route.fulfill(response=answer)
            page.wait_for_function("() => !document.querySelector('#todos.htmx-request')")
        page.unroute(redraws)
        expect(page.locator(f"#todo-{passport}")).to_have_attribute("data-done", "false")

        cards = page.locator("#memory-list .card")
        expect(cards).to_have_count(100)
        page.click("#more-memories")
        expect(cards).to_have_count(200)
        page.click("#more-memories")
        expect(cards).to_have_count(total)
        expect(page.locator("#more-memories")).to_have_count(0)
        shown = {c.get_attribute("id") for c in cards.all()}
        assert len(shown) == total  # no card twice across the pages

        page.select_option("select[name=group]", "kind")
        expect(page.locator("#memory-list h3.group").first).to_be_visible()
        expect(cards).to_have_count(100)
        page.click("#more-memories")
        expect(cards).to_have_count(200)
        page.click("#more-memories")
        expect(cards).to_have_count(total)
        groups = [h.get_attribute("data-group") for h in page.locator("#memory-list h3.group").all()]
        assert len(groups) == len(set(groups)) and "lesson" in groups and "todo" in groups, groups
        assert thrown == []
        browser.close()
