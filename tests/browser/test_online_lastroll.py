"""A long-nardy game drawn by the right of last roll (L10), played out by two browsers
through the game room's pages: white bears off its last checker, black's last roll bears
off its last ones too. The server seed was found by simulating the game with the
browsers' fixed seeds and the first listed turn each time."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import console_errors, play_turn, room_between, signed_in
from tournaments.models import Room, RoomGame, RoomStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SERVER_SEED = "000e" * 16  # 93 turns, then black's last roll draws
BOUND = 200


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def test_a_draw_by_the_right_of_last_roll(live_server: Any, browser: Browser) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room = room_between(ann, bob, "long", SERVER_SEED, series_mode="games", length=1,
                        last_roll=True, clock="none")  # fmt: skip
    errors: list[str] = []
    contexts = [signed_in(browser, live_server, u) for u in (ann, bob)]
    by_name = {}
    for user, context in zip((ann, bob), contexts, strict=True):
        page = context.new_page()
        console_errors(page, errors)
        page.goto(f"{live_server.url}/play/rooms/{room.pk}/")
        by_name[user.username] = page
    expect(by_name["ann"].locator("#room-status")).to_contain_text("Game 1", timeout=10_000)
    a_white = Room.objects.get(pk=room.pk).a_white
    pages = {"white": by_name["ann" if a_white else "bob"],
             "black": by_name["bob" if a_white else "ann"]}  # fmt: skip
    for _ in range(BOUND):
        if Room.objects.get(pk=room.pk).status != RoomStatus.PLAYING:
            break
        play_turn(room.pk, pages)
    game = RoomGame.objects.get(room=room, number=1)
    assert (game.winner, game.kind) == ("", "draw")
    assert 'LastRoll "on"' in game.record and 'Result "draw"' in game.record
    for page in pages.values():
        expect(page.locator("#room-games li")).to_contain_text("draw", timeout=10_000)
        page.locator("#room-dice-check").click()
        expect(page.locator("#room-dice-result.dice-ok")).to_have_count(1)
    assert errors == []
    for c in contexts:
        c.close()
