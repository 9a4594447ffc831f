"""A spectator steps through a game replay with the keyboard and the move list."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.tournaments.pages_data import recorded_game, round_robin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_spectator_steps_through_a_game(live_server: Any, page: Page) -> None:
    game = recorded_game(round_robin(4))
    page.goto(f"{live_server.url}/games/{game.pk}/?turn=0")
    current = page.locator("#moves a[aria-current]")
    pieces = page.locator("#board g.pieces")
    expect(current).to_have_attribute("data-turn", "0")
    start = pieces.inner_html()
    expect(page.locator("#replay")).to_have_class("replay enhanced")

    page.keyboard.press("ArrowRight")
    expect(current).to_have_attribute("data-turn", "1")
    assert pieces.inner_html() != start
    expect(page.locator("#turn-info")).to_contain_text("Turn 1")
    page.keyboard.press("End")
    last = page.locator("#replay").get_attribute("data-last")
    expect(current).to_have_attribute("data-turn", str(last))
    page.keyboard.press("ArrowLeft")
    expect(current).to_have_attribute("data-turn", str(int(str(last)) - 1))
    page.keyboard.press("Home")
    expect(current).to_have_attribute("data-turn", "0")
    assert pieces.inner_html() == start
    page.locator('#moves a[data-turn="5"]').click()
    expect(current).to_have_attribute("data-turn", "5")
    assert "turn=5" in page.url
    page.get_by_role("link", name="Forward").click()
    expect(current).to_have_attribute("data-turn", "6")
