"""A director runs a small tournament end to end in headless Chromium: create it,
register players, pair a round, enter a quick result and a full record (checked as it
is typed), and see the standings follow."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.tournaments.pages_data import a_record
from tournaments.models import Series, Tournament
from tournaments.services.series import series_next_white

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_director_runs_a_small_tournament(live_server: Any, page: Page) -> None:
    User.objects.create_superuser("boss", password="a-long-secret-1")
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill("a-long-secret-1")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{base}/tournaments/new/")
    page.get_by_label("Name", exact=True).fill("Browser cup")
    page.get_by_label("Start date").fill("2026-06-01")
    page.get_by_label("Format").select_option("round_robin")
    page.get_by_label("Series length", exact=True).fill("1")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name="Players and pairing")).to_be_visible()

    for name in ("Alena", "Bohdan", "Cyril", "Dana"):
        page.get_by_label("or a new player").fill(name)
        page.get_by_role("button", name="Register", exact=True).click()
        expect(page.get_by_text(f"{name} is registered.")).to_be_visible()
    page.get_by_role("button", name="Pair the next round").click()
    expect(page.get_by_text("Round 1 is paired.")).to_be_visible()

    t = Tournament.objects.get(name="Browser cup")
    first, second = Series.objects.filter(tournament=t).select_related("player1", "player2")[:2]

    # a quick result from the scoresheet
    page.goto(f"{base}/series/{first.pk}/")
    white = series_next_white(first, []) or first.player1
    assert white is not None
    quick = page.locator("#quick-form")
    quick.get_by_label("White (started the game)").select_option(str(white.pk))
    quick.get_by_label("Winner").select_option(str(white.pk))
    quick.get_by_label("Result").select_option("oin")
    quick.get_by_role("button", name="Save the game").click()
    expect(page.get_by_text("The game is entered.")).to_be_visible()

    # a full record: a wrong one is answered as it is typed, a good one is saved
    page.goto(f"{base}/series/{second.pk}/")
    area = page.get_by_label("Game record")
    area.fill('[Variant "long"]\n\n1. 65: 24/13 zz')
    expect(page.locator("#record-verdict")).to_contain_text("✘ line 3")
    w2 = series_next_white(second, []) or second.player1
    assert w2 is not None and second.player1 is not None and second.player2 is not None
    black = second.player2 if w2 == second.player1 else second.player1
    area.fill(a_record(w2.name, black.name, seed=3, want="black"))
    expect(page.locator("#record-verdict")).to_contain_text("✔")
    page.get_by_role("button", name="Check and save the record").click()
    expect(page.get_by_text("The game is entered.")).to_be_visible()

    page.goto(f"{base}/tournaments/{t.pk}/")
    standings = page.locator("table.standings tbody tr")
    expect(standings).to_have_count(4)
    expect(standings.nth(0)).to_contain_text("1")
    leaders = {standings.nth(i).locator("th").inner_text() for i in range(2)}
    assert leaders == {white.name, black.name}
