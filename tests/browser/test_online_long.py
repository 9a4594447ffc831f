"""A long-nardy series to 3 games played by two browsers through the game room's pages
(docs/online.md), without a WebSocket (the test server speaks WSGI: the pages poll the
state and post their actions): turns played from the list and by clicking checkers on the
board, a resignation in each game (L9), a spectator who watches read-only, one player's
page closed and opened again mid-game, and the finished series' dice checked."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import (
    BROWSER_SEED,
    console_errors,
    play_turn,
    room_between,
    seq,
    server_state,
    signed_in,
    state,
    synced,
    wait_seq_above,
)
from tournaments.models import Room, RoomGame, RoomStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SERVER_SEED = "1d" * 32


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def test_a_long_nardy_series_to_three_games(live_server: Any, browser: Browser) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")  # first seat
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room = room_between(ann, bob, "long", SERVER_SEED, series_mode="games", length=3,
                        clock="none")  # fmt: skip
    url = f"{live_server.url}/play/rooms/{room.pk}/"
    errors: list[str] = []
    contexts = [signed_in(browser, live_server, u) for u in (ann, bob, None)]
    pages = [c.new_page() for c in contexts]
    for page in pages:
        console_errors(page, errors)
        page.goto(url)
    ann_page, bob_page, watcher = pages
    # both browsers give their seed at once; the series starts
    for page in (ann_page, bob_page):
        expect(page.locator("#room-status")).to_contain_text("Game 1")
    room.refresh_from_db()
    assert room.status == RoomStatus.PLAYING
    assert room.client_seed == f"{BROWSER_SEED}:{BROWSER_SEED}"
    assert state(watcher)["you"] is None
    expect(watcher.locator("#room-hash")).to_have_text(room.seed_hash)

    players = {"white": ann_page if room.a_white else bob_page,
               "black": bob_page if room.a_white else ann_page}  # fmt: skip
    moves = 0
    for number in (1, 2, 3):
        expect(ann_page.locator("#room-status")).to_contain_text(f"Game {number}", timeout=10_000)
        # a few turns, by the list and by the board
        for i in range(6 if number == 1 else 2):
            for _ in range(2):
                players = _colours(ann_page, bob_page)
                play_turn(room.pk, players, by_board=i % 2 == 1)
                moves += 1
            if number == 1 and i == 2:
                # black's page is closed and opened again: the game goes on from the state
                black = players["black"]
                black.close()
                page = contexts[0 if black is ann_page else 1].new_page()
                console_errors(page, errors)
                page.goto(url)
                expect(page.locator("#room-status")).to_contain_text("Game 1")
                if black is ann_page:
                    ann_page = page
                else:
                    bob_page = page
                players["black"] = page
        # the spectator follows the game, without buttons
        expect(watcher.locator("#room-roll")).to_be_hidden()
        expect(watcher.locator("#room-resign")).to_be_hidden()
        synced(watcher, room.pk)
        # the side to move resigns, after confirming
        loser = players[server_state(room.pk)["turn"]]
        synced(loser, room.pk)
        before = seq(loser)
        loser.locator("#room-resign summary").click()
        loser.locator("#room-resign-confirm").click()
        wait_seq_above(loser, before)
        players = _colours(ann_page, bob_page)
    assert moves >= 10
    expect(ann_page.locator("#room-status")).to_contain_text("The series is over")
    assert RoomGame.objects.filter(room=room).count() == 3
    assert all(g.ended == "resigned" for g in RoomGame.objects.filter(room=room))
    # the seed is revealed and the dice check passes, on a player's and the watcher's page
    room = Room.objects.get(pk=room.pk)
    for page in (ann_page, watcher):
        expect(page.locator("#room-server-seed")).to_have_text(SERVER_SEED, timeout=10_000)
        page.locator("#room-dice-check").click()
        expect(page.locator("#room-dice-result")).to_contain_text("Game 3")
        expect(page.locator("#room-dice-result.dice-ok")).to_have_count(1)
    expect(ann_page.locator("#room-rematch")).to_be_visible()
    assert errors == []
    for c in contexts:
        c.close()


def _colours(ann_page: Any, bob_page: Any) -> dict[str, Any]:
    ann_page.wait_for_function(
        "() => JSON.parse(document.getElementById('room-state').textContent).you"
    )
    you = state(ann_page)["you"]
    other = "black" if you == "white" else "white"
    return {you: ann_page, other: bob_page}
