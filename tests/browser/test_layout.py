"""No page is wider than a phone: at 390 px nothing sticks out sideways, for every page
in tests/browser/pages.py, seen as anonymous, player and director (Czech and English).
Only elements marked as scrolling containers (class "scroll", with a visible "scroll
sideways" hint before them) may scroll sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.pages import OVERFLOW, ROLES, SEEN_AS, build_site, check_every_page, report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("role", ROLES)
def test_no_page_is_wider_than_a_phone(live_server: Any, browser: Browser, role: str) -> None:
    """Each page once per role, in the role's language (pages.SEEN_AS: Czech for
    visitors and the director, English for the player), always at phone width."""

    def overflow(page: Page) -> list[str]:
        return list(page.evaluate(OVERFLOW))

    language = SEEN_AS[role][0]
    found = check_every_page(
        browser, build_site(), live_server.url, overflow, language=language, width=390,
        roles=(role,),
    )  # fmt: skip
    assert not found, report(found)
