"""Screenshots of the lobby and a game room, phone and desktop, into docs/screenshots/
(README), the pages served by daphne (the ``asgi_server`` fixture) so that the room is
shown live over its WebSocket, as players see it. Not a test: run it by name,
``.venv/bin/python -m pytest -n 0 -p no:warnings tests/browser/shoot_online.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser.online import play_turn, room_between, signed_in
from tournaments.models import Room
from tournaments.services.online.challenges import challenge_create

OUT = Path(__file__).resolve().parent.parent.parent / "docs" / "screenshots"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_shoot(asgi_server: str, browser: Browser) -> None:
    class Live:
        url = asgi_server

    live_server = Live
    jana = User.objects.create_user("jana", password="pw-jana-123")
    petr = User.objects.create_user("petr", password="pw-petr-123")
    eva = User.objects.create_user("eva", password="pw-eva-123")
    challenge_create(user=eva, variant="lurc", settings={"series_mode": "games", "length": 3})
    challenge_create(user=eva, variant="short", opponent="jana", settings={"length": 5})
    room = room_between(jana, petr, "long", "ab" * 32, series_mode="points", length=3)
    contexts = {u.username: signed_in(browser, live_server, u) for u in (jana, petr)}
    pages = {name: c.new_page() for name, c in contexts.items()}
    for page in pages.values():
        page.goto(f"{live_server.url}/play/rooms/{room.pk}/")
    for page in pages.values():
        expect(page.locator("#room-status")).to_contain_text("Game 1", timeout=10_000)
    a_white = Room.objects.get(pk=room.pk).a_white
    by_colour = {"white": pages["jana" if a_white else "petr"],
                 "black": pages["petr" if a_white else "jana"]}  # fmt: skip
    for _ in range(9):
        play_turn(room.pk, by_colour)
    for label, (width, height) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
        context = signed_in(browser, live_server, jana, width=width)
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/play/")
        page.screenshot(path=str(OUT / f"lobby-{label}.png"), full_page=False)
        page.goto(f"{live_server.url}/play/rooms/{room.pk}/")
        expect(page.locator("#room-status")).to_contain_text("Game 1")
        expect(page.locator("#room-connection")).to_have_text("Live", timeout=15_000)
        page.wait_for_timeout(500)
        page.screenshot(path=str(OUT / f"room-{label}.png"), full_page=False)
        context.close()
    for c in contexts.values():
        c.close()
