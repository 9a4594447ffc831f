"""A user signs in, starts a game against the bot and plays a few turns by clicking
them (docs/play.md): the board changes, nothing is logged to the console, axe-core finds
no violation, and at a phone's width (in Czech, no English left) the pages are no wider
than the screen; a finished game's page with its analysis too."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from engine.evaluator.bot import bot_dice, bot_state
from engine.movegen import legal_turns
from tests.browser.language import english_left
from tests.browser.pages import OVERFLOW
from tournaments.models import BotGame, BotGameStatus, Room
from tournaments.services.botgames import botgame_play, botgame_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _findings(page: Page, language: str) -> list[str]:
    found = [f"{v['id']} ({v['impact']})" for v in Axe().run(page).response["violations"]]
    found += list(page.evaluate(OVERFLOW))
    return found + (english_left(page) if language == "cs" else [])


def _finished_game(user: User) -> BotGame:
    game = botgame_start(user=user, level="beginner", colour="black")
    while game.status != BotGameStatus.FINISHED:
        state = bot_state(game.record)
        turn = legal_turns(state.position, list(bot_dice(game.seed, state.number)))[0]
        game = botgame_play(game_id=game.pk, user=user, version=game.version, turn=turn.notation)
    return game


@pytest.mark.parametrize(("width", "language"), [(1280, "en-GB"), (390, "cs")])
def test_a_user_plays_the_bot_by_clicking(
    live_server: Any, browser: Browser, width: int, language: str
) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    context = browser.new_context(locale=language, viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: console.append(str(e)))

    page.goto(f"{live_server.url}/play/")
    expect(page).to_have_url(f"{live_server.url}/accounts/login/?next=/play/")
    page.locator("#id_username").fill("ann")
    page.locator("#id_password").fill("pw-ann-123")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#play-start")).to_be_visible()
    assert _findings(page, language) == []
    page.locator("#id_level").select_option("beginner")
    page.locator("#id_colour").select_option("white")
    page.locator("#play-start").click()
    # long nardy against the bot is played in a game room now (docs/online.md)
    expect(page.locator("#room-board")).to_be_visible()
    room = Room.objects.get()
    assert page.url.endswith(f"/play/rooms/{room.pk}/") and room.b_bot == "beginner"
    # a game begun on its own page before the move goes on there, a turn a click
    started = botgame_start(user=ann, level="beginner", colour="white")
    page.goto(f"{live_server.url}/play/{started.pk}/")
    console.clear()  # the room's page under the test server's WSGI: its socket refused
    expect(page.locator("#play-dice")).to_be_visible()

    pieces = page.locator("#play-board g.pieces")
    for _ in range(3):
        before = pieces.inner_html()
        page.locator(".turn-choice").first.click()
        expect(page.locator("#play-dice")).to_be_visible()
        assert pieces.inner_html() != before  # the user's turn, the bot's, new dice
        expect(page.locator("#bot-played code").first).to_be_visible()
    assert not page.locator("#play-error").count()
    assert _findings(page, language) == []

    done = _finished_game(ann)
    page.goto(f"{live_server.url}/play/{done.pk}/")
    expect(page.locator("#play-result")).to_be_visible()
    expect(page.locator("#analysis table")).to_be_visible()
    assert _findings(page, language) == []
    page.goto(f"{live_server.url}/play/")
    expect(page.locator("#bot-games tbody tr")).to_have_count(2)
    assert _findings(page, language) == []
    assert not console, console
    context.close()
