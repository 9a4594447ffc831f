"""A live clock run out and a rematch, by two browsers through the game room's pages
(docs/online.md; the test server speaks WSGI, so the pages poll): the player on turn in a
series with a short clock does nothing, the server decides the timeout (swept on the
pages' polls) and both pages show the loss by time and the series' end; the loser offers
a rematch from the finished room, the winner accepts it there, and both pages go to the
new room."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import console_errors, room_between, signed_in
from tournaments.models import Challenge, Room, RoomGame, RoomGameEnd, RoomStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def test_a_timeout_shown_to_both_then_a_rematch_opens_for_both(
    live_server: Any, browser: Browser
) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    # 1 s a turn, then 1 s of reserve a game of three: 4 s for the first turn
    room = room_between(ann, bob, "long", "5e" * 32, series_mode="games", length=3,
                        clock="live", delay_s=1, reserve_s=1, timeout_costs="series")  # fmt: skip
    url = f"{live_server.url}/play/rooms/{room.pk}/"
    errors: list[str] = []
    contexts = {u.username: signed_in(browser, live_server, u) for u in (ann, bob)}
    pages = {}
    for name, context in contexts.items():
        page = context.new_page()
        console_errors(page, errors)
        page.goto(url)
        pages[name] = page
    for page in pages.values():
        expect(page.locator("#room-status")).to_contain_text("Game 1")
    # nobody plays: the clock of the player on turn runs out
    for page in pages.values():
        expect(page.locator("#room-status")).to_contain_text("The series is over", timeout=20_000)
    room.refresh_from_db()
    game = RoomGame.objects.get(room=room)
    assert room.status == RoomStatus.FINISHED and game.ended == RoomGameEnd.TIMEOUT
    loser, winner = ("bob", "ann") if room.winner == "a" else ("ann", "bob")
    for page in pages.values():
        expect(page.locator("#room-status")).to_contain_text(f"{winner} wins the series.")
        expect(page.locator("#room-games li")).to_contain_text("time ran out")
        expect(page.locator("#room-games li")).to_contain_text(f"{winner} won")
        expect(page.locator("#room-rematch")).to_be_visible()

    # the loser offers a rematch from the finished room and waits there
    pages[loser].locator("#room-rematch button").click()
    expect(pages[loser]).to_have_url(url)
    expect(pages[loser].locator("#room-rematch-text")).to_have_text(
        "Your rematch offer waits for your opponent."
    )
    expect(pages[loser].locator("#room-rematch")).to_be_hidden()
    # the winner's page shows the offer; accepted there, both pages go to the new room
    expect(pages[winner].locator("#room-rematch-text")).to_have_text(f"{loser} offers a rematch.")
    expect(pages[winner].locator("#room-rematch")).to_be_hidden()
    pages[winner].locator("#room-rematch-accept").click()
    offer = Challenge.objects.get(rematch_of=room)
    new = Room.objects.get(challenge=offer)
    new_url = re.compile(re.escape(f"{live_server.url}/play/rooms/{new.pk}/") + "$")
    for page in pages.values():
        expect(page).to_have_url(new_url, timeout=15_000)
        expect(page.locator("h1")).to_contain_text(f"Game room {new.pk}")
    assert (new.a_user, new.b_user) == ((ann, bob) if loser == "ann" else (bob, ann))
    assert new.settings == room.settings
    assert errors == []
    for context in contexts.values():
        context.close()
