"""Accessibility, checked by axe-core (the engine of browser accessibility checkers,
bundled by axe-playwright-python) on the main pages in Czech and English: no violation
of any impact, as a phone and as a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser

from tests.tournaments.pages_data import recorded_game, round_robin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["cs", "en"])
def test_the_main_pages_have_no_accessibility_violations(
    live_server: Any, browser: Browser, width: int, language: str
) -> None:
    tournament = round_robin(4)
    game = recorded_game(tournament)
    urls = [
        "/",
        f"/tournaments/{tournament.pk}/",
        f"/series/{game.series_id}/",
        f"/games/{game.pk}/",
        f"/players/{game.white_id}/",
        "/accounts/login/",
    ]
    context = browser.new_context(locale=language, viewport={"width": width, "height": 900})
    page = context.new_page()
    axe = Axe()
    found = {}
    for url in urls:
        page.goto(live_server.url + url)
        violations = axe.run(page).response["violations"]
        if violations:
            found[url] = [
                (v["id"], v["impact"], [n["target"] for n in v["nodes"]]) for v in violations
            ]
    context.close()
    assert found == {}
