"""A director's day on a 390 px phone: a 13-player Swiss after two rounds (a long
crosstable, its visually hidden words), a corrected game, and nothing on the tournament
page, the printed standings, the series page or the game page scrolls the page sideways -
the wide tables scroll inside their own box."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser

from tests.browser.pages import session_cookie
from tests.tournaments.helpers import rated_player
from tournaments.models import Game, Series
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_correct, game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def _swiss_day(boss: User) -> Game:
    t = tournament_create(
        name="Přebor klubu v dlouhých nardech", start_date=datetime.date(2026, 12, 1),
        format="swiss", series_length=1,
    )  # fmt: skip
    t.directors.add(boss)
    for i in range(13):
        player = rated_player(f"Hráč s dlouhým jménem {i + 1}", 1500 + i)
        entry_register(tournament=t, player=player)
    for _ in range(2):
        rnd = round_generate(tournament=t)
        for s in Series.objects.filter(round=rnd, player2__isnull=False).select_related(
            "player1", "player2", "tournament"
        ):
            white = series_next_white(s, []) or s.player1
            assert white is not None
            game_enter_quick(series=s, white=white, winner=white, kind="mars")
    game = Game.objects.filter(series__tournament=t).order_by("pk").first()
    assert game is not None
    return game_correct(
        game=game, by=boss, reason="špatně zapsaný výsledek na papíře", kind="oin",
        winner=game.black,
    )  # fmt: skip


@pytest.mark.parametrize("role", ["anonymous", "director"])
def test_nothing_scrolls_the_page_sideways_at_390_px(
    live_server: Any, browser: Browser, role: str
) -> None:
    boss = User.objects.create_user("boss", password="a-long-secret-1")
    game = _swiss_day(boss)
    t = game.series.tournament
    context = browser.new_context(locale="cs", viewport={"width": 390, "height": 844})
    if role == "director":
        context.add_cookies([session_cookie(boss, live_server.url)])  # type: ignore[list-item]
    page = context.new_page()
    page.set_default_timeout(90_000)  # a shared, loaded machine
    wide = {}
    for path in (
        f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/print/standings/",
        f"/series/{game.series_id}/", f"/games/{game.pk}/",
    ):  # fmt: skip
        page.goto(live_server.url + path)
        assert page.locator("main").count() == 1, path
        if path.startswith(("/series/", "/games/")):  # the corrections table is there
            assert page.locator(".scroll table.audit").count() == 1, path
        else:
            assert page.locator(".scroll table.crosstable").count() == 1, path
        scroll_width, inner = page.evaluate(WIDE)
        if scroll_width > inner:
            wide[path] = scroll_width - inner
    context.close()
    assert not wide, f"pages wider than the phone by (px): {wide}"
