"""A rollout asked on a game's page, in Chromium (docs/analysis.md, "Rollouts on a game's
page"): a director picks a turn and asks; the page shows the rollout on its way and,
polling its progress, loads itself again with the result once a worker has run it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.pages import session_cookie
from tests.tournaments.analysis_data import a_series, record_for
from tournaments.jobs import job_run
from tournaments.models import Job, JobKind, JobStatus
from tournaments.services.analysis import game_analyse
from tournaments.services.results import game_enter_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rollout_shows_its_progress_then_its_result(
    live_server: Any, browser: Browser, settings: Any
) -> None:
    settings.ANALYSIS_ON_STORE = False
    settings.JOBS_INLINE = False  # it waits for the worker: run below, while the page polls
    settings.ROLLOUT_GAMES, settings.ROLLOUT_GAMES_MAX = (36,), 36
    settings.ROLLOUT_CANDIDATES, settings.ROLLOUT_TRUNCATE = 2, 2
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 11))
    game_analyse(game=game)
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.add_cookies([session_cookie(series.tournament.directors.get(), live_server.url)])  # type: ignore[list-item]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("button", name="Roll out the played play and the best ones").click()
    waiting = page.locator(".rollout-waiting")
    expect(waiting).to_contain_text("Rolling out")
    job = Job.objects.get(kind=JobKind.DECISION_ROLLOUT)
    assert job_run(job_id=job.pk) == JobStatus.DONE
    table = page.locator("table.rollout")
    expect(table).to_contain_text("36 games a play, seed", timeout=20_000)  # reloaded by itself
    expect(waiting).to_have_count(0)
    assert table.locator("tbody tr").count() == len(Job.objects.get(pk=job.pk).result["plays"])
    assert not errors, errors
    context.close()
