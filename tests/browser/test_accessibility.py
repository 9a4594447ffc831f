"""Accessibility, checked by axe-core (the engine of browser accessibility checkers,
bundled by axe-playwright-python) on every page of tests/browser/pages.py, as anonymous,
player and director, in Czech and English: no violation of any impact, as a phone and as
a desktop, and on the Czech pages no English left (language.english_left). One browser;
one context per role and language. The API documentation pages
(Swagger UI, Redoc) are checked as they are drawn, with our theme and fixes
(static/css/api_docs.css, static/js/api_docs.js). Django's admin follows the reader's
colour scheme: its pages are checked in the dark one too (static/css/admin.css)."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from tests.browser.language import english_left
from tests.browser.pages import build_site, check_every_page, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _axe_violations(page: Page) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in Axe().run(page).response["violations"]
    ]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["cs", "en"])
def test_no_page_has_accessibility_violations(
    live_server: Any, browser: Browser, width: int, language: str
) -> None:
    site = build_site()

    def violations(page: Page) -> list[str]:
        found = _axe_violations(page)
        if language == "cs" and width == 1280:  # once per page: the words, not the layout
            found += english_left(page)
        return found

    found = check_every_page(
        browser, site, live_server.url, violations, language=language, width=width
    )
    assert not found, report(found)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["cs", "en"])
def test_the_admin_in_the_dark_colour_scheme_has_no_accessibility_violations(
    live_server: Any, browser: Browser, width: int, language: str
) -> None:
    """prefers-color-scheme: dark, as the browser emulates it; the admin only (our pages
    have one scheme)."""
    site = build_site()
    found = check_every_page(
        browser, site, live_server.url, _axe_violations, language=language, width=width,
        only="/admin/", color_scheme="dark",
    )  # fmt: skip
    assert not found, report(found)
