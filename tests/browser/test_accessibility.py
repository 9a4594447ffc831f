"""Accessibility, checked by axe-core (the engine of browser accessibility checkers,
bundled by axe-playwright-python) on every page of tests/browser/pages.py, as anonymous,
player and director, in Czech and English: no violation of any impact, as a phone and as
a desktop, and on the Czech pages no English left (pages.english_left). One browser;
one context per role and language. The API documentation pages
(Swagger UI, Redoc) are checked as they are drawn, with our theme and fixes
(static/css/api_docs.css, static/js/api_docs.js)."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from tests.browser.pages import build_site, check_every_page, english_left, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["cs", "en"])
def test_no_page_has_accessibility_violations(
    live_server: Any, browser: Browser, width: int, language: str
) -> None:
    site = build_site()
    axe = Axe()

    def violations(page: Page) -> list[str]:
        found = [
            f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in axe.run(page).response["violations"]
        ]
        if language == "cs" and width == 1280:  # once per page: the words, not the layout
            found += english_left(page)
        return found

    found = check_every_page(
        browser, site, live_server.url, violations, language=language, width=width
    )
    assert not found, report(found)
