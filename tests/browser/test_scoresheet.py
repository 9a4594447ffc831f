"""The scoresheet of a series to five points: compact (a game a row at a desktop's width;
before, about 2,000 px for its nine lines), and it fills in who starts a game when the
director begins its line, from the rule the entry checks (L12: the loser starts)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tournaments.models import Player, Series
from tournaments.services.setup import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_scoresheet_is_compact_and_fills_in_the_next_starter(
    live_server: Any, browser: Browser
) -> None:
    boss = User.objects.create_user("boss", password="a-long-secret-1")
    t = tournament_create(name="Cup", start_date=datetime.date(2026, 5, 1), series_length=5,
                          first_move="loser")  # fmt: skip
    t.directors.add(boss)
    jana, petr = Player.objects.create(name="Jana"), Player.objects.create(name="Petr")
    series = Series.objects.create(tournament=t, player1=jana, player2=petr)
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("boss")
    page.locator("#id_password").fill("a-long-secret-1")
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("#id_password")).to_have_count(0)
    page.goto(f"{live_server.url}/series/{series.pk}/sheet/")
    lines = page.locator("fieldset[data-game]")
    count = lines.count()
    assert count >= 5
    box = page.locator("#sheet-form").bounding_box()
    assert box is not None
    height = box["height"]
    assert height < 80 * count, (count, height)  # a game a row, not a field a line
    page.locator("#id_g1-white").select_option(str(jana.pk))
    page.locator("#id_g1-winner").select_option(str(jana.pk))
    assert page.locator("#id_g2-white").input_value() == ""  # untouched: no game
    page.locator("#id_g2-kind").focus()
    assert page.locator("#id_g2-white").input_value() == str(petr.pk)  # the loser starts
    page.locator("#id_g1-winner").select_option(str(petr.pk))
    assert page.locator("#id_g2-white").input_value() == str(jana.pk)
    page.locator("#id_g2-white").select_option(str(petr.pk))  # the director's choice
    page.locator("#id_g1-winner").select_option(str(jana.pk))
    assert page.locator("#id_g2-white").input_value() == str(petr.pk)
    assert page.locator("#id_g3-white").input_value() == ""
    context.close()
