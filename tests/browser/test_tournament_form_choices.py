"""The tournament form's script hides what the chosen game or format lacks (the server's
rules: tournaments/services/setup.py) and leaves nothing hidden posted as a choice."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_form_offers_only_what_the_game_and_format_have(
    live_server: Any, browser: Browser
) -> None:
    User.objects.create_superuser("chief", password="a-long-secret-1")
    page = browser.new_context(locale="en-GB").new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill("chief")
    page.locator("#id_password").fill("a-long-secret-1")
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("#id_password")).to_have_count(0)
    page.goto(f"{live_server.url}/tournaments/new/")
    page.locator("#id_name").fill("Lurč knockout")
    page.locator("#id_start_date").fill("2026-12-02")
    expect(page.locator("#id_draw_scoring")).to_be_visible()  # long nardy draws (L10)
    expect(page.locator("#id_tie_break_1")).to_be_visible()
    page.locator("#id_first_move").select_option("lot")
    page.locator("#id_draw_scoring").select_option("one")  # then hidden: back to ½-½
    page.locator("#id_variant").select_option("lurc")
    expect(page.locator("#id_draw_scoring")).to_be_hidden()
    expect(page.locator("#id_first_move option[value=lot]")).to_be_disabled()
    assert page.locator("#id_first_move").input_value() == "loser"  # lot was chosen: reset
    page.locator("#id_format").select_option("single_elimination")
    expect(page.locator("#id_tie_break_1")).to_be_hidden()
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name="Players and pairing")).to_be_visible()
    t = Tournament.objects.get(name="Lurč knockout")
    assert (t.variant, t.format, t.first_move) == ("lurc", "single_elimination", "loser")
    assert t.draw_scoring == "half"  # the server refuses another score for Lurč (L10)
