"""A user signs in, starts a game against the bot and plays a few turns by clicking
them (docs/play.md); the board changes, nothing is logged to the console, and at a
phone's width the page is no wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.pages import OVERFLOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_user_plays_the_bot_by_clicking(live_server: Any, browser: Browser, width: int) -> None:
    User.objects.create_user("ann", password="pw-ann-123")
    context = browser.new_context(locale="en-GB", viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: console.append(str(e)))

    page.goto(f"{live_server.url}/play/")
    expect(page).to_have_url(f"{live_server.url}/accounts/login/?next=/play/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill("pw-ann-123")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#nav-play")).to_be_visible()
    page.get_by_label("Level").select_option("beginner")
    page.get_by_label("Your colour").select_option("white")
    page.locator("#play-start").click()
    expect(page.locator("#play-dice")).to_contain_text("You rolled")

    pieces = page.locator("#play-board g.pieces")
    for _ in range(3):
        before = pieces.inner_html()
        page.locator(".turn-choice").first.click()
        expect(page.locator("#play-dice")).to_contain_text("You rolled")
        assert pieces.inner_html() != before  # the user's turn, the bot's, new dice
        expect(page.locator("#bot-played")).to_contain_text("The bot played:")
    assert not page.locator("#play-error").count()
    overflow = page.evaluate(OVERFLOW)
    assert not overflow, overflow
    page.goto(f"{live_server.url}/play/")
    expect(page.locator("#bot-games")).to_contain_text("being played: go on")
    assert not page.evaluate(OVERFLOW)
    assert not console, console
    context.close()
