"""A short-backgammon match to 3 points played by two browsers through the game room's
pages (docs/online.md, S7): a double dropped, a double taken and redoubled, the Crawford
game (no cube: the double button is not offered) and the match's end."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from tests.browser.online import (
    ACTIONABLE,
    act,
    console_errors,
    room_between,
    seq,
    server_state,
    signed_in,
    synced,
    wait_seq_above,
)
from tournaments.models import Room, RoomGame, RoomStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
BOUND = 60  # turns: a double is offered long before


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def _click(page: Page, selector: str, room_id: int) -> None:
    synced(page, room_id)
    before = seq(page)
    page.locator(selector).click()
    wait_seq_above(page, before)


def _play_until_may_double(room_id: int, pages: dict[str, Page], seat_page: Page) -> None:
    """Turns are played (rolls and the first listed turn) until ``seat_page``'s player may
    double: on turn, before rolling, the cube theirs or in the middle."""
    for _ in range(BOUND):
        s = server_state(room_id)
        page = pages[s["turn"]]
        synced(page, room_id)
        if page is seat_page and page.locator("#room-double").is_visible():
            return
        page.wait_for_function(ACTIONABLE)
        if page.locator("#room-roll").is_visible():
            _click(page, "#room-roll", room_id)
        else:
            assert act(page) is not None
    raise AssertionError("no chance to double")


def test_a_short_backgammon_match_to_three_points(live_server: Any, browser: Browser) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room = room_between(ann, bob, "short", "5b" * 32, series_mode="points", length=3,
                        cube=True, crawford=True, clock="none")  # fmt: skip
    errors: list[str] = []
    contexts = [signed_in(browser, live_server, u, width=390) for u in (ann, bob)]
    page_of = {}
    for user, context in zip((ann, bob), contexts, strict=True):
        page = context.new_page()
        console_errors(page, errors)
        page.goto(f"{live_server.url}/play/rooms/{room.pk}/")
        page_of[user.username] = page
    expect(page_of["ann"].locator("#room-status")).to_contain_text("Game 1", timeout=10_000)

    def pages() -> dict[str, Page]:
        s = server_state(room.pk)
        ann_white = Room.objects.get(pk=room.pk).a_white
        del s
        return {"white": page_of["ann" if ann_white else "bob"],
                "black": page_of["bob" if ann_white else "ann"]}  # fmt: skip

    # game 1: the first who may double doubles, the other drops (1 point)
    first = None
    for _ in range(BOUND):
        s = server_state(room.pk)
        page = pages()[s["turn"]]
        synced(page, room.pk)
        if page.locator("#room-double").is_visible():
            first = page
            break
        page.wait_for_function(ACTIONABLE)
        assert act(page) is not None
    assert first is not None
    other = page_of["bob"] if first is page_of["ann"] else page_of["ann"]
    _click(first, "#room-double", room.pk)
    synced(other, room.pk)
    expect(other.locator("#room-cube")).to_contain_text("offers a double to 2")
    _click(other, "#room-drop", room.pk)
    expect(first.locator("#room-games li")).to_have_count(1, timeout=10_000)
    game1 = RoomGame.objects.get(room=room, number=1)
    assert (game1.ended, game1.points) == ("dropped", 1)

    # game 2: the game-1 winner doubles, the other takes and later redoubles; a drop
    _play_until_may_double(room.pk, pages(), first)
    _click(first, "#room-double", room.pk)
    _click(other, "#room-take", room.pk)
    expect(other.locator("#room-cube")).to_contain_text("Cube 2")
    _play_until_may_double(room.pk, pages(), other)
    _click(other, "#room-double", room.pk)
    _click(first, "#room-drop", room.pk)
    game2 = RoomGame.objects.get(room=room, number=2)
    # a drop loses the cube as it stood (2), not the value offered (S7)
    assert (game2.ended, game2.cube, game2.points) == ("dropped", 2, 2)

    # game 3 is the Crawford game: the trailer at 1, the leader at 2 of 3; no cube
    for page in page_of.values():
        expect(page.locator("#room-cube")).to_contain_text("Crawford game", timeout=10_000)
    assert server_state(room.pk)["crawford"] is True
    for _ in range(6):
        s = server_state(room.pk)
        page = pages()[s["turn"]]
        synced(page, room.pk)
        expect(page.locator("#room-double")).to_be_hidden()
        page.wait_for_function(ACTIONABLE)
        assert act(page) is not None
    s = server_state(room.pk)
    loser = pages()[s["turn"]]
    synced(loser, room.pk)
    before = seq(loser)
    loser.locator("#room-resign summary").click()
    loser.locator("#room-resign-confirm").click()
    wait_seq_above(loser, before)
    assert Room.objects.get(pk=room.pk).status == RoomStatus.FINISHED
    assert RoomGame.objects.get(room=room, number=3).crawford
    for page in page_of.values():
        expect(page.locator("#room-status")).to_contain_text("wins the series", timeout=10_000)
        page.locator("#room-dice-check").click()
        expect(page.locator("#room-dice-result.dice-ok")).to_have_count(1)
    assert errors == []
    for c in contexts:
        c.close()
