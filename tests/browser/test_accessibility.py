"""Accessibility, checked by axe-core (the engine of browser accessibility checkers,
bundled by axe-playwright-python) on every page of tests/browser/pages.py: no violation of
any impact, and on the Czech pages no English left (language.english_left). Each page is
checked once per colour scheme and role, each role in its own language and width
(pages.SEEN_AS: Czech and English, phone and desktop between them); the roles are
separate tests, so that pytest-xdist checks them side by side. The API documentation
pages (Swagger UI, Redoc) are checked as they are drawn, with our theme and fixes
(static/css/api_docs.css, static/js/api_docs.js). Django's admin follows the reader's
colour scheme: its pages are checked in the dark one too (static/css/admin.css).

Until this layout every page was checked in both languages at both widths (four runs of
270-615 s each on a busy 2-core machine, docs/testing.md); axe-core finds the same
structure in either language, and the widths differ in layout only, which
tests/browser/test_layout.py checks on every page at phone width."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from tests.browser.language import english_left
from tests.browser.pages import ROLES, SEEN_AS, build_site, check_every_page, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _axe_violations(page: Page) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in Axe().run(page).response["violations"]
    ]


@pytest.mark.parametrize("role", ROLES)
def test_no_page_has_accessibility_violations(
    live_server: Any, browser: Browser, role: str
) -> None:
    language, width = SEEN_AS[role]

    def violations(page: Page) -> list[str]:
        found = _axe_violations(page)
        if language == "cs":
            found += english_left(page)
        return found

    found = check_every_page(
        browser, build_site(), live_server.url, violations, language=language, width=width,
        roles=(role,),
    )  # fmt: skip
    assert not found, report(found)


def test_the_admin_in_the_dark_colour_scheme_has_no_accessibility_violations(
    live_server: Any, browser: Browser
) -> None:
    """prefers-color-scheme: dark, as the browser emulates it; the admin only (our pages
    have one scheme), each role as it is seen (pages.SEEN_AS)."""
    site = build_site()
    found: dict[str, list[str]] = {}
    for role, (language, width) in SEEN_AS.items():
        found |= check_every_page(
            browser, site, live_server.url, _axe_violations, language=language, width=width,
            only="/admin/", color_scheme="dark", roles=(role,),
        )  # fmt: skip
    assert not found, report(found)


@pytest.mark.parametrize("language", ["cs", "en"])
def test_the_account_pages_have_no_accessibility_violations_in_either_language(
    live_server: Any, browser: Browser, language: str
) -> None:
    """The sign-up, its confirmation and the staff's accounts page, seen by every role
    in both languages (the role tests above see each in one)."""

    def violations(page: Page) -> list[str]:
        found = _axe_violations(page)
        return found + english_left(page) if language == "cs" else found

    site = build_site()
    found: dict[str, list[str]] = {}
    for only in ("/accounts/signup/", "/accounts/confirm/", "/staff/"):
        found |= check_every_page(
            browser, site, live_server.url, violations, language=language, width=390,
            only=only,
        )  # fmt: skip
    assert not found, report(found)
