"""The game room's chat through the pages (docs/online.md; the test server speaks WSGI,
so the pages poll): a line sent by one player is seen by the opponent and by a spectator,
who has no box to write in; a player who turns the chat off sees no line, sent before or
after, while the others still do, and sees them all again when turning it back on."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import console_errors, room_between, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def test_chat_seen_by_the_opponent_and_a_spectator_and_turned_off(
    live_server: Any, browser: Browser
) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    eve = User.objects.create_user("eve", password="pw-eve-123")
    room = room_between(ann, bob, "long", "7a" * 32, clock="none")
    url = f"{live_server.url}/play/rooms/{room.pk}/"
    errors: list[str] = []
    contexts = {u.username: signed_in(browser, live_server, u) for u in (ann, bob, eve)}
    pages = {}
    for name, context in contexts.items():
        page = context.new_page()
        console_errors(page, errors)
        page.goto(url)
        pages[name] = page
    for page in pages.values():
        expect(page.locator("#room-status")).to_contain_text("Game 1")
    # the spectator has nothing to write in and no switch
    expect(pages["eve"].locator("#room-chat-form")).to_be_hidden()
    expect(pages["eve"].locator("#room-chat-off")).to_be_hidden()

    pages["ann"].locator("#room-chat-text").fill("good luck")
    pages["ann"].locator("#room-chat-form button[type=submit]").click()
    for name in ("ann", "bob", "eve"):
        expect(pages[name].locator("#room-chat")).to_be_visible()
        expect(pages[name].locator("#room-chat-lines")).to_contain_text("ann: good luck")

    # bob turns the chat off: no line for him, the others go on
    pages["bob"].locator("#room-chat-off").click()
    expect(pages["bob"].locator("#room-chat-lines")).to_have_text("You turned the chat off.")
    expect(pages["bob"].locator("#room-chat-form")).to_be_hidden()
    expect(pages["bob"].locator("#room-chat-on")).to_be_visible()
    pages["ann"].locator("#room-chat-text").fill("still there?")
    pages["ann"].locator("#room-chat-form button[type=submit]").click()
    expect(pages["eve"].locator("#room-chat-lines")).to_contain_text("ann: still there?")
    pages["bob"].wait_for_timeout(1000)  # a few of bob's polls
    expect(pages["bob"].locator("#room-chat-lines")).not_to_contain_text("good luck")
    expect(pages["bob"].locator("#room-chat-lines")).not_to_contain_text("still there?")
    # and on again: every line is there
    pages["bob"].locator("#room-chat-on").click()
    expect(pages["bob"].locator("#room-chat-lines")).to_contain_text("ann: still there?")
    expect(pages["bob"].locator("#room-chat-lines")).to_contain_text("ann: good luck")
    assert errors == []
    for context in contexts.values():
        context.close()
