"""Lurč against the bot through the pages (/play/, docs/play.md), in Czech and in English:
the user goes on with a game of Lurč begun on its page, plays the first listed turn each time,
chooses the paš after a houšek (Z8) and plays a paš (Z7: the extra roll), then resigns;
the finished game's page shows its analysis by Lurč's evaluator. The dice of the turns
after the placement are fixed (tests/tournaments/bot_dice.py), the rest the seed's."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from engine import read_records, replay
from tests.browser.language import english_left
from tests.browser.online import console_errors, signed_in
from tests.tournaments.bot_dice import LURC_FORCED, force_dice
from tournaments.models import BotGame, BotGameStatus
from tournaments.services.botgames import botgame_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
BOUND = 40  # the user's turns: 8 placing, then the houšek and the pašes
WORDS = {
    "cs-CZ": ("houšek", "Vyhrál bot"),
    "en-GB": ("a houšek", "The bot won"),
}


def _mine(record: str) -> tuple[bool, bool]:
    """Whether black (the user) played a houšek, and a paš followed by its extra roll."""
    played = replay(read_records(record)[0], check_result=False).played
    housek = any(p.side == 1 and p.action.pas is not None for p in played)
    again = any(
        a.side == 1 and b.side == 1 and a.action.dice is not None
        and a.action.dice[0] == a.action.dice[1]
        for a, b in pairwise(played)
    )  # fmt: skip
    return housek, again


@pytest.mark.parametrize("locale", ["cs-CZ", "en-GB"])
def test_a_lurc_game_against_the_bot_with_a_housek_and_a_pas(
    live_server: Any, browser: Browser, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    force_dice(monkeypatch, LURC_FORCED)  # the live server runs in this process
    ann = User.objects.create_user("ann", password="pw-ann-123")
    context = signed_in(browser, live_server, ann, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    console_errors(page, errors)
    # a Lurč game begun on its own page before the bot moved into the game rooms (the
    # lobby's form makes a room now: tests/tournaments/test_online_bot_history.py)
    started = botgame_start(user=ann, level="beginner", colour="black", variant="lurc")
    page.goto(f"{live_server.url}/play/{started.pk}/")
    expect(page.locator("#play-dice")).to_be_visible()
    game = BotGame.objects.get()
    assert game.variant == "lurc"
    housek_word, lost = WORDS[locale]
    chose = found = False
    for _ in range(BOUND):
        if page.locator("#play-pas-form").count():
            expect(page.locator("#play-dice")).to_contain_text(housek_word)
            page.locator("#play-pas").select_option("4")
            page.locator("#play-pas-choose").click()
            expect(page.locator("input[name=pas]")).to_have_value("4")
            chose = True
        version = page.locator("input[name=version]").first.get_attribute("value")
        while page.locator("#play-steps").count() and not page.locator("#play-steps-send").count():
            page.locator(".step-choice").first.click()  # too many turns to list: one die a time
            page.wait_for_load_state()
        if page.locator("#play-steps-send").count():
            page.locator("#play-steps-send").click()
        else:
            page.locator(".turn-choice").first.click()
        page.wait_for_function(
            "v => document.querySelector('input[name=version]')?.value !== v", arg=version
        )
        found = _mine(BotGame.objects.get().record) == (True, True)
        if found:
            break
    assert chose and found
    expect(page.locator("#play-dice")).to_be_visible()
    assert locale != "cs-CZ" or english_left(page) == []
    page.locator("#resign summary").click()
    page.locator("#resign button[name=resign]").click()
    expect(page.locator("#play-result")).to_contain_text(lost)
    expect(page.locator("#play-result")).not_to_contain_text("oin")  # one point (Z11)
    expect(page.locator("#analysis table")).to_be_visible()
    game = BotGame.objects.get()
    assert game.status == BotGameStatus.FINISHED and game.analysis is not None
    assert game.analysis["evaluator"].startswith("lurc")
    assert "+44:" in game.record
    assert locale != "cs-CZ" or english_left(page) == []
    assert errors == []
    context.close()
