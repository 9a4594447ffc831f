"""A Lurč game played by two browsers through the game room's pages (docs/online.md): with
a server seed the test chose (the browsers' seeds are fixed by the test), the first listed
turn each time brings a houšek (Z8: the 1-2, then a chosen paš) and a paš with its extra
roll (Z7); the game then ends by resignation and its dice check passes."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from engine import read_records, replay
from tests.browser.online import (
    console_errors,
    play_turn,
    room_between,
    seq,
    server_state,
    signed_in,
    synced,
    wait_seq_above,
)
from tournaments.models import Room, RoomGame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# with the browsers' fixed seeds and the first listed turn each time, this seed rolls a
# houšek at turn 22 and a paš with its extra roll at turn 24 (found by simulating the game)
SERVER_SEED = "00" * 32
BOUND = 40


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def _has_housek_and_pas(record: str) -> tuple[bool, bool]:
    played = replay(read_records(record)[0], check_result=False).played
    housek = any(p.action.pas is not None for p in played)
    pas = any(
        a.action.dice is not None and a.action.dice[0] == a.action.dice[1] and a.side == b.side
        for a, b in pairwise(played)
    )
    return housek, pas


def test_a_lurc_game_with_a_housek_and_a_pas(live_server: Any, browser: Browser) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room = room_between(ann, bob, "lurc", SERVER_SEED, series_mode="games", length=1,
                        clock="none")  # fmt: skip
    errors: list[str] = []
    contexts = [signed_in(browser, live_server, u, locale="cs-CZ") for u in (ann, bob)]
    by_name = {}
    for user, context in zip((ann, bob), contexts, strict=True):
        page = context.new_page()
        console_errors(page, errors)
        page.goto(f"{live_server.url}/play/rooms/{room.pk}/")
        by_name[user.username] = page
    expect(by_name["ann"].locator("#room-status")).to_contain_text("Hraje se partie 1")
    a_white = Room.objects.get(pk=room.pk).a_white
    pages = {"white": by_name["ann" if a_white else "bob"],
             "black": by_name["bob" if a_white else "ann"]}  # fmt: skip
    found = (False, False)
    for _ in range(BOUND):
        play_turn(room.pk, pages)
        found = _has_housek_and_pas(Room.objects.get(pk=room.pk).record)
        if all(found):
            break
    assert found == (True, True)
    loser = pages[server_state(room.pk)["turn"]]
    synced(loser, room.pk)
    before = seq(loser)
    loser.locator("#room-resign summary").click()
    loser.locator("#room-resign-confirm").click()
    wait_seq_above(loser, before)
    record = RoomGame.objects.get(room=room, number=1).record
    assert "+" in record and 'DiceSeed "' + SERVER_SEED in record
    for page in pages.values():
        expect(page.locator("#room-status")).to_contain_text("Série skončila")
        page.locator("#room-dice-check").click()
        expect(page.locator("#room-dice-result.dice-ok")).to_have_count(1)
    assert errors == []
    for c in contexts:
        c.close()
