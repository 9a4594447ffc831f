"""Helpers of the game room's browser tests (tests/browser/test_online_*.py): signed-in
browser contexts, rooms made through the services with a server seed the test knows,
and a player's page driven through its buttons and its board."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from engine import legal_turns, read_records, replay
from engine.dice import seed_hash
from tournaments.models import Room
from tournaments.services.online.challenges import challenge_accept, challenge_create
from tournaments.services.online.state import room_state

# each browser's dice seed is made of these bytes (crypto.getRandomValues replaced), so
# that the test knows the client seed and, with the server seed it sets, every roll
FIXED_RANDOM = """
(function () {
  var fixed = function (a) {
    for (var i = 0; i < a.length; i += 1) { a[i] = (i * 37 + 11) & 255; }
    return a;
  };
  if (window.crypto) { window.crypto.getRandomValues = fixed; }
}());
"""
BROWSER_SEED = "".join(f"{(i * 37 + 11) & 255:02x}" for i in range(16))
# a WebSocket refused by the test's WSGI server: the page polls instead (expected)
# and a refusal of the action door (400: a seed that crossed the opponent's, stale-seq), and
# SQLite's shared in-memory test database locking a table under the pages' concurrent
# requests (503; the page asks again)
IGNORED = ("WebSocket", "/ws/rooms/", "status of 400", "status of 503")


def signed_in(browser: Browser, live_server: Any, user: User | None, *, width: int = 1280,
              locale: str = "en-GB") -> BrowserContext:  # fmt: skip
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    context.add_init_script(FIXED_RANDOM)
    if user is not None:
        c = Client()
        c.force_login(user)
        cookie = c.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
    return context


def room_between(a: User, b: User, variant: str, server_seed: str, **settings_: object) -> Room:
    """A room of ``a`` (first seat) against ``b`` whose server seed is ``server_seed``."""
    challenge = challenge_create(user=a, variant=variant, settings=settings_, opponent=b.username)
    room = challenge_accept(challenge_id=challenge.pk, user=b)
    Room.objects.filter(pk=room.pk).update(
        server_seed=server_seed, seed_hash=seed_hash(server_seed)
    )
    return Room.objects.get(pk=room.pk)


def console_errors(page: Page, into: list[str]) -> None:
    def keep(text: str) -> None:
        if not any(word in text for word in IGNORED):
            into.append(text)

    page.on("console", lambda m: keep(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: keep(str(e)))


def state(page: Page) -> dict[str, Any]:
    """The room's state as the page last received it."""
    found: dict[str, Any] = page.evaluate(
        "() => JSON.parse(document.getElementById('room-state').textContent)"
    )
    return found


def seq(page: Page) -> int:
    value = page.locator("#room-board").get_attribute("data-seq")
    return int(value) if value else -1


def wait_seq_above(page: Page, old: int) -> None:
    page.wait_for_function(
        "old => Number(document.getElementById('room-board').getAttribute('data-seq')) > old",
        arg=old,
    )


def visible(page: Page, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


ACTIONABLE = """() => ['#room-roll', '#room-take', '#room-turns .turn-choice'].some(
  sel => Array.from(document.querySelectorAll(sel)).some(el => el.offsetParent !== null))"""


def server_state(room_id: int) -> dict[str, Any]:
    return room_state(Room.objects.select_related("a_user", "b_user").get(pk=room_id), None)


def synced(page: Page, room_id: int) -> None:
    """Wait until the page shows the room as the server has it (its seq)."""
    page.wait_for_function(
        "s => Number(document.getElementById('room-board').getAttribute('data-seq')) === s",
        arg=server_state(room_id)["seq"],
    )


def play_turn(room_id: int, pages: dict[str, Page], *, by_board: bool = False) -> str:
    """The side to move (as the server says) acts on its page, once it shows it can."""
    side = server_state(room_id)["turn"]
    assert side, "nobody is to move"
    page = pages[side]
    synced(page, room_id)
    if state(page)["legal"] is None and "move" in state(page)["can"]:
        return play_unlisted(room_id, page)
    page.wait_for_function(ACTIONABLE)
    done = act(page, by_board=by_board)
    assert done is not None
    return done


def play_unlisted(room_id: int, page: Page) -> str:
    """A turn the server does not list (a Lurč houšek: every paš's plays; a crowded paš),
    entered step by step on the board: the engine's first legal turn, its paš chosen
    first after a houšek, each step clicked once the steps door has answered, sent."""
    room = Room.objects.get(pk=room_id)
    played = replay(read_records(room.record)[0], check_result=False)
    position = played.position
    turn = legal_turns(position, list(room.dice), played.rules)[0]
    # too many turns to list, or a houšek once its paš is chosen: the steps door answers
    stepped = bool(state(page).get("steps_url")) or bool(state(page).get("pas_choice"))
    if turn.pas is not None:
        page.locator("#room-pas").select_option(str(turn.pas[0]))
    for i, step in enumerate(turn.steps):
        if stepped:  # the legal next steps of the first i steps are known to the page
            page.wait_for_function(
                "n => document.getElementById('room').getAttribute('data-steps-ready') === n",
                arg=str(i),
            )
        click_point(page, step.frm)
        click_point(page, step.to)
    if stepped:
        page.wait_for_function("() => !document.getElementById('room-send').hidden")
    before = seq(page)
    page.locator("#room-send").click()
    try:
        wait_seq_above(page, before)
    except Exception as exc:
        error = page.locator("#room-error").text_content()
        raise AssertionError(f"the unlisted turn changed nothing: {error!r}") from exc
    return "board"


def act(page: Page, *, by_board: bool = False) -> str | None:
    """Whatever the page's player must do now, done through the page: roll, answer a
    double by taking, play a turn (the first of the list, or by clicking its checkers on
    the board); the action's name, None when the player has nothing to do."""
    before = seq(page)
    if visible(page, "#room-roll"):
        page.locator("#room-roll").click()
        name = "roll"
    elif visible(page, "#room-take"):
        page.locator("#room-take").click()
        name = "take"
    elif visible(page, "#room-turns .turn-choice"):
        if by_board and click_first_turn(page):
            page.locator("#room-send").click()
            name = "board"
        else:
            page.locator("#room-turns .turn-choice").first.click()
            name = "list"
    else:
        return None
    try:
        wait_seq_above(page, before)
    except Exception as exc:
        error = page.locator("#room-error").text_content()
        raise AssertionError(f"{name} at seq {before} changed nothing: {error!r}") from exc
    return name


# the board's geometry (tournaments/board.py), in viewBox units
MARGIN, POINT_W, BAR_W, HALF_W, HEIGHT, TRAY_W = 18, 40, 40, 240, 440, 56
WIDTH = 2 * MARGIN + 2 * HALF_W + BAR_W + TRAY_W


def point_xy(p: int) -> tuple[float, float]:
    if p in (25, 26):
        return MARGIN + HALF_W + BAR_W / 2, HEIGHT / 2 + 40
    if p == 0:
        return WIDTH - TRAY_W + (TRAY_W - MARGIN) / 2, HEIGHT - MARGIN - 40
    top = p >= 13
    column = p - 13 if top else 12 - p
    x = MARGIN + column * POINT_W + POINT_W / 2 + (BAR_W if column >= 6 else 0)
    return x, (MARGIN + 60 if top else HEIGHT - MARGIN - 60)


def click_point(page: Page, p: int) -> None:
    box = page.locator("#room-board svg").bounding_box()
    assert box is not None
    x, y = point_xy(p)
    page.mouse.click(box["x"] + x * box["width"] / WIDTH, box["y"] + y * box["height"] / HEIGHT)


def click_first_turn(page: Page) -> bool:
    """Play the state's first legal turn by clicking each step's checker and target on
    the board (a single-die step at a time); whether the page then offers to send it."""
    legal = state(page)["legal"]
    if not legal or not legal[0]["steps"]:
        return False
    for frm, to in legal[0]["steps"]:
        click_point(page, frm)
        click_point(page, to)
    expect(page.locator("#room-send")).to_be_visible()
    return True
