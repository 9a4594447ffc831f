"""The game room's pages over a real WebSocket (docs/online.md): daphne, the ASGI server,
serves config/asgi.py's application in a thread of the test (sharing its database); two
players' pages say "Live", a turn played on one page reaches the other through the
channel layer (the pages do not poll while live), the opponent whose page closes is marked
as having left the room, and comes back; and one whose page stops beating with its socket
still open (frozen, as a sleeping phone's, or its server process killed) is marked gone by
the opponent's page when the presence the server granted runs out, and back when it beats
again."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import (
    console_errors,
    play_turn,
    room_between,
    server_state,
    signed_in,
)
from tournaments.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_live_over_the_websocket(
    asgi_server: str, browser: Browser, settings: Any
) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room = room_between(ann, bob, "long", "3c" * 32, clock="none")

    class Live:
        url = asgi_server

    errors: list[str] = []
    contexts = {u.username: signed_in(browser, Live, u) for u in (ann, bob)}
    pages = {}
    for name, context in contexts.items():
        page = context.new_page()
        console_errors(page, errors)
        page.goto(f"{asgi_server}/play/rooms/{room.pk}/")
        pages[name] = page
    for page in pages.values():
        expect(page.locator("#room-connection")).to_have_text("Live", timeout=15_000)
        expect(page.locator("#room-status")).to_contain_text("Game 1", timeout=15_000)
    a_white = Room.objects.get(pk=room.pk).a_white
    by_colour = {"white": pages["ann" if a_white else "bob"],
                 "black": pages["bob" if a_white else "ann"]}  # fmt: skip
    for _ in range(4):
        play_turn(room.pk, by_colour)
    # the pages were told by the socket (no poll within a minute)
    seq = server_state(room.pk)["seq"]
    for page in pages.values():
        page.wait_for_function(
            "s => Number(document.getElementById('room-board').getAttribute('data-seq')) === s",
            arg=seq,
        )
    # a beat a second from now on (gone after 2.5 s without one): ann's page reloaded; on
    # SQLite's shared test database the beats' writes are kept away from the turns above
    settings.ROOM_PING_MS = 1000
    pages["ann"].reload()
    expect(pages["ann"].locator("#room-connection")).to_have_text("Live", timeout=15_000)
    # bob's page closes: ann's page marks him as gone; a new page of his comes back live
    pages["bob"].close()
    bob_side = "black" if a_white else "white"
    marker = f"#player-top[data-side={bob_side}] .left-mark"
    expect(pages["ann"].locator(marker)).to_be_visible(timeout=15_000)
    again = contexts["bob"].new_page()
    console_errors(again, errors)
    again.goto(f"{asgi_server}/play/rooms/{room.pk}/")
    expect(again.locator("#room-connection")).to_have_text("Live", timeout=15_000)
    expect(pages["ann"].locator(marker)).to_be_hidden(timeout=15_000)
    # bob's page stops (its script paused: no beat, its socket still open, so the server
    # is never told): the beats of ann's page learn that he is gone, and that he is back
    # when his page beats again
    cdp = contexts["bob"].new_cdp_session(again)
    cdp.send("Debugger.enable")
    cdp.send("Debugger.pause")
    expect(pages["ann"].locator(marker)).to_be_visible(timeout=15_000)
    bob_seat = "b" if a_white else "a"
    assert getattr(Room.objects.get(pk=room.pk), f"{bob_seat}_connected") >= 1
    cdp.send("Debugger.resume")
    expect(pages["ann"].locator(marker)).to_be_hidden(timeout=15_000)
    assert errors == []
    for context in contexts.values():
        context.close()
