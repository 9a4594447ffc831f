"""A player reports game 2 on the series page while game 1 waits for the opponent's
confirmation, pasting its full record: the live record check (static/js/record_check.js)
checks it as game 2, after the waiting game 1, and says it is right. Before, it checked it
against the confirmed games only and answered "game 2 cannot be entered before game 1";
the record was then saved all the same."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from engine.selfplay import random_game
from tests.browser.pages import session_cookie
from tournaments.models import Player, Series, Submission, SubmissionStatus
from tournaments.services.setup import tournament_create
from tournaments.services.submissions import submission_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_live_check_checks_game_2_while_game_1_waits(
    live_server: Any, browser: Browser
) -> None:
    t = tournament_create(name="Přebor", start_date=datetime.date(2026, 11, 29),
                          series_length=5, first_move="loser")  # fmt: skip
    jana_login, petr_login = User.objects.create_user("jana"), User.objects.create_user("petr")
    jana = Player.objects.create(name="Jana", user=jana_login)
    petr = Player.objects.create(name="Petr", user=petr_login)
    series = Series.objects.create(tournament=t, player1=jana, player2=petr)
    submission_create(series=series, by=jana_login, number=1, white=jana, winner=jana,
                      kind="oin")  # fmt: skip
    # game 2: the loser of game 1 starts it, so Petr has white
    record = random_game("long", random.Random(5))
    record = record.replace("Random A", "Petr").replace("Random B", "Jana")

    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    context.add_cookies([session_cookie(jana_login, live_server.url)])  # type: ignore[list-item]
    page = context.new_page()
    checks: list[str] = []
    page.on("request", lambda r: checks.append(r.url) if r.url.endswith("/check/") else None)
    page.goto(f"{live_server.url}/series/{series.pk}/")
    expect(page.locator("#waiting-heading")).to_contain_text("Game 1 waits for confirmation")
    expect(page.locator("#enter-heading")).to_contain_text("Submit game 2")
    verdict = page.locator("#record-verdict")
    page.locator("#record-form textarea").fill(record)
    expect(verdict).to_contain_text("✔")
    assert "Petr - Jana" in verdict.inner_text()
    assert checks, "the live check ran"

    # a record with the colours of game 1 (Jana white) is not game 2's: the check says so
    wrong = random_game("long", random.Random(5)).replace("Random A", "Jana")
    page.locator("#record-form textarea").fill(wrong.replace("Random B", "Petr"))
    expect(verdict).to_contain_text("✘")
    assert "before game 1" not in verdict.inner_text()

    page.locator("#record-form textarea").fill(record)
    expect(verdict).to_contain_text("✔")
    page.locator("#record-form button[type=submit]").click()
    expect(page.locator("#waiting-heading")).to_contain_text("Games 1 to 2 wait")
    pending = Submission.objects.filter(series=series, status=SubmissionStatus.PENDING)
    assert sorted(pending.values_list("number", flat=True)) == [1, 2]
    context.close()
