"""Live pages, the bracket and the hall view in headless Chromium (docs/live.md): a spectator's
page follows a result entered by a director in another session; a bracket box lights up
its players' paths on focus and hover; at 390 px the bracket and the hall view do not
widen the page (only the bracket's own container scrolls, and says so)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.tournaments.pages_data import knockout, round_robin
from tournaments.models import Series
from tournaments.services.series import series_next_white

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fast_polling(settings: Any) -> None:
    settings.LIVE_POLL_SECONDS = 0.5  # the pages poll every half second in these tests


@pytest.fixture
def open_context(live_server: Any, browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """New browser contexts, closed before the server goes (even when a test fails): a
    page left open would go on polling a database being dropped."""
    made: list[BrowserContext] = []

    def new(width: int = 1280, height: int = 900, locale: str = "en-GB") -> BrowserContext:
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()


def login(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("a-long-secret-1")
    page.get_by_role("button", name="Sign in").click()


def test_a_spectators_page_shows_a_result_entered_by_the_director(
    live_server: Any, open_context: Callable[..., BrowserContext], fast_polling: None
) -> None:
    t = round_robin(4)
    User.objects.create_superuser("boss", password="a-long-secret-1")
    s = (
        Series.objects.filter(tournament=t, games__isnull=True, player2__isnull=False)
        .select_related("player1", "player2", "tournament").order_by("id").first()
    )  # fmt: skip
    assert s is not None and s.player1 is not None and s.player2 is not None
    white = series_next_white(s, []) or s.player1
    base = live_server.url

    spectator = open_context()
    watching = spectator.new_page()
    watching.goto(f"{base}/tournaments/{t.pk}/")
    expect(watching.locator("#live")).to_have_attribute("data-state", "live")
    row = watching.locator("table.standings tr", has_text=white.name)
    before = row.inner_text()
    watching.evaluate("window.scrollTo(0, 200)")
    scrolled = watching.evaluate("window.scrollY")
    assert scrolled > 0

    director = open_context()
    entering = director.new_page()
    login(entering, base, "boss")
    entering.goto(f"{base}/series/{s.pk}/")
    quick = entering.locator("#quick-form")
    quick.get_by_label("White (started the game)").select_option(str(white.pk))
    quick.get_by_label("Winner").select_option(str(white.pk))
    quick.get_by_label("Result").select_option("mars")
    quick.get_by_role("button", name="Save the game").click()
    expect(entering.get_by_text("The game is entered.")).to_be_visible()

    # no reload: the standings row changes within a bounded wait, and it is announced
    expect(row).not_to_have_text(before, timeout=10_000)
    expect(watching.locator("#live-announce")).to_have_text("results updated", timeout=5_000)
    assert abs(watching.evaluate("window.scrollY") - scrolled) < 5  # the scroll is kept


def test_the_indicator_says_offline_when_polling_fails(
    live_server: Any, open_context: Callable[..., BrowserContext], fast_polling: None
) -> None:
    t = round_robin(4)
    page = open_context().new_page()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    page.route("**/live/", lambda route: route.abort())
    expect(page.locator("#live")).to_have_attribute("data-state", "offline", timeout=10_000)
    expect(page.locator("#live .live-state")).to_have_text("offline")


def test_focus_and_hover_light_up_a_players_path(
    live_server: Any, open_context: Callable[..., BrowserContext]
) -> None:
    t = knockout(8, played=6)  # the quarterfinals and semifinals are played
    page = open_context().new_page()
    winner = Series.objects.get(tournament=t, slot="W2-1").winner_id
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator(".bk-hl")).to_have_count(0)

    page.locator("#bk-W1-1").focus()  # the box of the semifinal winner's first series
    lit = page.locator(".bk-box.bk-hl")
    lit_slots = {lit.nth(i).get_attribute("data-slot") for i in range(lit.count())}
    assert {"W1-1", "W2-1", "W3-1"} <= lit_slots  # the player's path to the final
    lines = page.locator(f'.bk-line.bk-hl[data-player="{winner}"]')
    expect(lines).to_have_count(2)  # W1-1 -> W2-1 -> W3-1

    page.locator("#bk-W1-1").blur()
    expect(page.locator(".bk-hl")).to_have_count(0)
    # hovering one name lights that player only: the loser of W1-2 went no further
    page.locator("#bk-W1-2 .bk-name").nth(1).hover()
    expect(page.locator(".bk-box.bk-hl")).to_have_count(1)
    expect(page.locator("#bk-W1-2")).to_have_class("bk-box bk-hl")
    page.locator("#bk-W1-2 .bk-name").nth(0).hover()  # its winner: W1-2, W2-1
    expect(page.locator(".bk-box.bk-hl")).to_have_count(2)


def overflow(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_at_390_px_only_the_bracket_container_scrolls(
    live_server: Any, open_context: Callable[..., BrowserContext]
) -> None:
    t = knockout(8, played=3, format="double_elimination")
    page = open_context(390, 844, "cs").new_page()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    assert overflow(page) <= 0
    box = page.locator("#bracket-scroll")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # it scrolls inside ...
    assert box.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    expect(page.locator("#bracket-hint")).to_be_visible()  # ... and says so
    assert box.get_attribute("role") == "region" and box.get_attribute("tabindex") == "0"
    # the last box can be scrolled to, whole
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    last = page.locator("#bk-GF-2 .bk-frame").bounding_box()
    assert last is not None and last["x"] + last["width"] <= 390

    page.goto(f"{live_server.url}/tournaments/{t.pk}/hall/")
    assert overflow(page) <= 0
    expect(page.locator("#live")).to_have_attribute("data-state", "live")


def test_the_hall_view_fits_a_full_hd_screen(
    live_server: Any, open_context: Callable[..., BrowserContext]
) -> None:
    t = round_robin(10)
    page = open_context(1920, 1080, "cs").new_page()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/hall/")
    assert overflow(page) <= 0
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    expect(page.get_by_role("heading", name="2. kolo")).to_be_visible()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_bracket_and_the_hall_view_have_no_accessibility_violations(
    live_server: Any, open_context: Callable[..., BrowserContext], width: int
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    t = knockout(7, played=3, third_place=True)
    axe = Axe()
    found = {}
    for language in ("cs", "en"):
        page = open_context(width, 900, language).new_page()
        for url in (f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/hall/"):
            page.goto(live_server.url + url)
            expect(page.locator("#live")).to_have_attribute("data-state", "live")
            violations = axe.run(page).response["violations"]
            if violations:
                found[(language, url)] = [(v["id"], v["nodes"][0]["target"]) for v in violations]
    assert found == {}
