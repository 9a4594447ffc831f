"""A director's Lurč day through the pages only, in Czech, in headless Chromium: a
4-player round robin created with a form that offers only what Lurč has (no mars, cube,
last roll or blocking rules, no draws: Z11), the players registered, round 1 paired, one
result entered from the scoresheet and one by a record pasted on the series page (a legal
Lurč game the engine plays out here), the standings read. Then the event's public pages
(tournament, series, game, standings) on a 390 px phone: nothing scrolls the page
sideways, and no English is left on them (tests/browser/language.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from engine import read_records, replay
from engine.selfplay import random_game
from tests.browser.language import english_left
from tournaments.models import Game, Player, Series, SeriesStatus, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-secret-1"
WIDE = "() => [document.documentElement.scrollWidth, window.innerWidth]"
NAMES = ("Adéla Veselá", "Bořivoj Dvořák", "Čeněk Malý", "Dagmar Horáková")


def cs(text: str) -> str:
    """``text`` as the Czech pages say it."""
    with translation.override("cs"):
        return translation.gettext(text)


def lurc_record(white: str, black: str, *, seed: int) -> str:
    """A legal finished Lurč game between the two players (random play)."""
    text = random_game("lurc", random.Random(seed))
    assert replay(read_records(text)[0]).outcome is not None
    text = text.replace('[White "Random A"]', f'[White "{white}"]')
    return text.replace('[Black "Random B"]', f'[Black "{black}"]')


def choose_starter(page: Page, base: str, series: Series, starter: Player) -> None:
    """Who starts game 1 (the director's choice in Lurč: the starter has black, Z1)."""
    page.goto(f"{base}/series/{series.pk}/")
    form = page.locator("form", has=page.locator("#starter"))
    form.locator("#starter").select_option(str(starter.pk))
    form.get_by_role("button", name=cs("Save")).click()
    expect(page.locator("#starter")).to_have_value(str(starter.pk))


def test_a_directors_lurc_day_and_its_pages_on_a_phone(live_server: Any, browser: Browser) -> None:
    base = live_server.url
    dana = User.objects.create_user("dana", password=PASSWORD)
    dana.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    context = browser.new_context(locale="cs-CZ", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    d = context.new_page()
    d.goto(f"{base}/accounts/login/")
    d.locator("#id_username").fill("dana")
    d.locator("#id_password").fill(PASSWORD)
    d.locator("form button[type=submit]").last.click()
    expect(d.locator("#id_password")).to_have_count(0)

    # 1. the tournament: the form offers only what applies to Lurč ------------------------
    d.goto(f"{base}/tournaments/new/")
    d.locator("#id_name").fill("Lurčový podvečer")
    d.locator("#id_start_date").fill("2026-12-05")
    d.locator("#id_variant").select_option("lurc")
    d.locator("#id_format").select_option("round_robin")
    d.locator("#id_series_length").fill("1")
    for absent in ("mars", "cube", "last_roll", "block_check", "block_ahead", "draw_scoring"):
        expect(d.locator(f"#id_{absent}")).to_be_hidden()  # Lurč has none of them (Z11)
    expect(d.locator("#id_first_move option[value=lot]")).to_be_disabled()
    expect(d.locator("#id_length_final")).to_be_hidden()  # no knockout stages here
    assert not english_left(d), english_left(d)
    d.get_by_role("button", name=cs("Create the tournament")).click()
    expect(d.get_by_role("heading", name=cs("Players and pairing"))).to_be_visible()
    t = Tournament.objects.get(name="Lurčový podvečer")
    assert (t.variant, t.format, t.series_length) == ("lurc", "round_robin", 1)

    # 2. four players, round 1 paired --------------------------------------------------------
    for name in NAMES:
        d.locator("#id_new_name").fill(name)
        d.get_by_role("button", name=cs("Register"), exact=True).click()
        expect(d.get_by_text(cs("%(name)s is registered.") % {"name": name})).to_be_visible()
    assert sorted(t.entries.values_list("player__name", flat=True)) == sorted(NAMES)
    d.get_by_role("button", name=cs("Pair the next round")).click()
    expect(d.get_by_text(cs("Round %(n)s is paired.") % {"n": 1})).to_be_visible()
    first, second = Series.objects.filter(tournament=t, round__number=1).select_related(
        "player1", "player2", "tournament"
    ).order_by("table", "pk")  # fmt: skip
    assert not english_left(d), english_left(d)

    # 3. a result from the scoresheet ------------------------------------------------------
    assert first.player1 is not None and first.player2 is not None
    choose_starter(d, base, first, first.player1)
    quick = d.locator("#quick-form")
    expect(quick.locator("select[name=black]")).to_have_value(str(first.player1.pk))
    expect(quick.locator("select[name=kind] option")).to_have_count(1)  # a win is 1 point
    quick.locator("select[name=winner]").select_option(str(first.player2.pk))
    quick.get_by_role("button", name=cs("Save the game")).click()
    first.refresh_from_db()
    assert (first.status, first.winner_id) == (SeriesStatus.FINISHED, first.player2_id)
    game = Game.objects.get(series=first)
    assert (game.black_id, game.white_id, game.kind) == (first.player1_id, first.player2_id, "oin")

    # 4. a record pasted on the series page ------------------------------------------------
    assert second.player1 is not None and second.player2 is not None
    choose_starter(d, base, second, second.player2)  # black: player 2, white: player 1
    record = lurc_record(second.player1.name, second.player2.name, seed=second.pk)
    form = d.locator("#record-form")
    form.locator("textarea[name=record]").fill(record)
    # the tests run jobs inline (JOBS_INLINE): the request also analyses the Lurč game
    # with its evaluator, tens of seconds on a loaded machine
    form.get_by_role("button", name=cs("Check and save the record")).click(timeout=180_000)
    expect(d.locator("main")).to_contain_text(cs("Games"))
    second.refresh_from_db()
    recorded = Game.objects.get(series=second)
    assert recorded.verified and recorded.record, recorded.verification_note
    assert (recorded.white_id, recorded.black_id) == (second.player1_id, second.player2_id)
    assert second.status == SeriesStatus.FINISHED and second.winner_id == recorded.winner_id

    # 5. the standings: the two winners lead -------------------------------------------------
    d.goto(f"{base}/tournaments/{t.pk}/")
    winners = {str(first.winner), str(recorded.winner)}
    rows = d.locator("table.standings tbody tr")
    expect(rows).to_have_count(4)
    top = rows.nth(0).inner_text() + rows.nth(1).inner_text()
    assert all(name in top for name in winners), (top, winners)
    assert not english_left(d), english_left(d)
    context.close()

    # 6. the public pages on a phone -------------------------------------------------------
    phone = browser.new_context(locale="cs-CZ", viewport={"width": 390, "height": 844})
    phone.set_default_timeout(30_000)
    p = phone.new_page()
    wide: dict[str, int] = {}
    english: dict[str, list[str]] = {}
    for path in (
        f"/tournaments/{t.pk}/", f"/series/{second.pk}/", f"/games/{recorded.pk}/",
        f"/tournaments/{t.pk}/print/standings/",
    ):  # fmt: skip
        response = p.goto(base + path)
        assert response is not None and response.status == 200, path
        scroll_width, inner = p.evaluate(WIDE)
        if scroll_width > inner:
            wide[path] = scroll_width - inner
        if found := english_left(p):
            english[path] = found
    phone.close()
    assert not wide, f"pages wider than the phone by (px): {wide}"
    assert not english, english
