"""Short backgammon against GNU Backgammon in Chromium (docs/play.md, docs/online.md): the
lobby's bot form opens a game room, the user plays a turn, doubles (gnubg takes at once,
the cube shows 2) and resigns; the finished room links the game kept against the bot,
whose page links the room back."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import ACTIONABLE, act, console_errors, seq, signed_in, wait_seq_above
from tournaments.models import BotGame, Room, RoomStatus
from tournaments.services.online import room_bot

pytestmark = [pytest.mark.browser, pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]
BOUND = 30


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def test_the_lobby_opens_a_room_against_gnubg_with_its_cube(
    live_server: Any, browser: Browser, monkeypatch
) -> None:
    monkeypatch.setattr(room_bot, "gnubg_cube", lambda *a, **k: "No double, take")
    # gnubg's analysis of the copy (a job) is tested elsewhere: no thread outlives the test
    monkeypatch.setattr("tournaments.services.online.bot_history._analyse", lambda ids: None)
    ann = User.objects.create_user("ann", password="pw-ann-123")
    context = signed_in(browser, live_server, ann, width=390)
    page = context.new_page()
    errors: list[str] = []
    console_errors(page, errors)
    page.goto(f"{live_server.url}/play/")
    page.locator("#id_variant").select_option("short")
    page.locator("#id_level").select_option("gnubg-beginner")
    page.locator("#id_colour").select_option("white")
    page.locator("#play-start").click()
    expect(page.locator("#room-board")).to_be_visible()
    room = Room.objects.get()
    assert page.url.endswith(f"/play/rooms/{room.pk}/") and room.b_bot == "gnubg-beginner"
    # the opening lot's roll is the user's (white's): a turn, then gnubg answers
    for _ in range(BOUND):
        page.wait_for_function(ACTIONABLE)
        if page.locator("#room-double").is_visible():
            break
        assert act(page) is not None
    else:
        raise AssertionError("the double was never offered")
    before = seq(page)
    page.locator("#room-double").click()
    wait_seq_above(page, before)
    expect(page.locator("#room-cube")).to_contain_text("Cube 2")  # gnubg took
    page.locator("#room-resign summary").click()
    before = seq(page)
    page.locator("#room-resign-confirm").click()
    wait_seq_above(page, before)
    assert Room.objects.get(pk=room.pk).status == RoomStatus.FINISHED
    link = page.locator("#room-bot-games a")  # shown live, as the series ends
    expect(link).to_have_count(1)
    link.click()
    game = BotGame.objects.get(user=ann)
    expect(page).to_have_url(f"{live_server.url}/play/{game.pk}/")
    expect(page.locator("#play-result")).to_be_visible()
    page.locator("#play-room a").click()
    expect(page).to_have_url(f"{live_server.url}/play/rooms/{room.pk}/")
    assert errors == []
    context.close()
