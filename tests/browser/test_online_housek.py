"""A Lurč houšek in a game room with a crowded paš (RULES Z8, Z7; docs/online.md): the
player chooses the paš, then enters the 1, the 2 and the paš's eight moves on the board
one die at a time, each click's targets those of the steps door's answer, one step undone
and played again; the page sends the turn with its paš in front and the room accepts it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from engine import read_records, replay
from engine.turnsteps import turn_steps
from tests.browser.online import click_point, console_errors, seq, signed_in, wait_seq_above
from tests.tournaments.online_play import new_room, seeded
from tournaments.models import Room
from tournaments.services.online.series import seat_of_side

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# the first 54 actions of a random Lurč game: white to move, a crowded board (1-2 and
# 6-6: 243,496 legal ends)
CROWDED = Path(__file__).parents[2] / "fixtures" / "lurc" / "crowded_game.txt"


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250


def _ready(page: Page, n: int) -> None:
    """Wait until the page holds the steps door's answer for its first ``n`` steps."""
    page.wait_for_function(
        "n => document.getElementById('room').getAttribute('data-steps-ready') === n",
        arg=str(n),
    )


def test_a_housek_with_a_crowded_paš_step_by_step(live_server: Any, browser: Browser) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    room = seeded(new_room(ann, bob, "lurc", series_mode="games", length=1, clock="none"),
                  ann, bob)  # fmt: skip
    room = Room.objects.get(pk=room.pk)
    head = room.record.split("\n\n")[0]
    room.record = f"{head}\n\n{CROWDED.read_text()}"
    room.dice = [1, 2]
    room.save()
    mover = ann if seat_of_side(room, 0) == "a" else bob
    position = replay(read_records(room.record)[0], check_result=False).position
    errors: list[str] = []
    context = signed_in(browser, live_server, mover)
    page = context.new_page()
    console_errors(page, errors)
    page.goto(f"{live_server.url}/play/rooms/{room.pk}/")
    # the paš first: no list, no free moving, the page says so
    expect(page.locator("#room-pas-field")).to_be_visible()
    expect(page.locator("#room-moving")).to_contain_text("Choose the paš first")
    expect(page.locator("#room-legal")).to_be_hidden()
    page.locator("#room-pas").select_option("6")
    played: list[tuple[int, int]] = []
    undone = False
    while True:
        _ready(page, len(played))
        answer = turn_steps(position, [2, 1, 6, 6], played)
        assert answer is not None
        if not answer.next:
            break
        expect(page.locator("#room-send")).to_be_hidden()
        frm, to = answer.next[-1]
        click_point(page, frm)
        click_point(page, to)
        played.append((frm, to))
        if len(played) == 3 and not undone:  # one step taken back and played again
            _ready(page, 3)
            page.locator("#room-undo").click()
            played.pop()
            undone = True
    assert answer.complete and len(played) == 10  # the 1, the 2 and eight paš moves
    expect(page.locator("#room-send")).to_be_visible()
    expect(page.locator("#room-moving")).to_contain_text("+66: ")
    before = seq(page)
    page.locator("#room-send").click()
    wait_seq_above(page, before)
    expect(page.locator("#room-error")).to_be_hidden()
    record = Room.objects.get(pk=room.pk).record
    assert "21+66: " in record
    assert replay(read_records(record)[0], check_result=False).error is None
    assert errors == []
    context.close()
