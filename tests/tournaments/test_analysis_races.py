"""A game's analysis and the game changing under it (docs/analysis.md): an analysis job
still running, or queued, for a game that a director deletes or corrects meanwhile stores
nothing (before: the deleted game's analysis was inserted for a game that was gone, and a
corrected game's older analysis could overwrite its new one); a correction with another
record drops the analysis of the moves no longer recorded, and its own analysis follows.

The job runs inline (no broker); the director's deletion or correction is made, through
the services, while the evaluator judges the record: the evaluator's call is wrapped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.tournaments.analysis_data import a_series, record_for
from tournaments.engine import analyse_record
from tournaments.jobs import job_start
from tournaments.models import Game, GameAnalysis, Job, JobKind, JobStatus, Series
from tournaments.services import analysis as analysis_service
from tournaments.services.deletion import game_delete
from tournaments.services.results import game_correct, game_enter_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def entered(settings: Any) -> tuple[Series, Game, User]:
    """A long-nardy game stored with no analysis yet (ANALYSIS_ON_STORE off here)."""
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 3))
    return series, game, User.objects.get(username="analyst")


def _meanwhile(monkeypatch: pytest.MonkeyPatch, action: Callable[[], object]) -> None:
    """While the evaluator judges the record, ``action`` happens (once)."""
    real = analyse_record
    done: list[object] = []

    def judged_while_changed(record: str, **options: Any) -> Any:
        judged = real(record, **options)
        if not done:
            done.append(action())
        return judged

    monkeypatch.setattr(analysis_service, "analyse_record", judged_while_changed)


def _analyse(game_pk: int, series: Series) -> Job:
    job = job_start(
        kind=JobKind.GAMES_ANALYSE, params={"games": [game_pk]}, by=None,
        tournament=series.tournament,
    )  # fmt: skip
    job.refresh_from_db()
    assert job.status == JobStatus.DONE, job.error
    return job


def test_a_game_deleted_while_analysed_stores_no_analysis(
    entered: tuple[Series, Game, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    series, game, boss = entered
    _meanwhile(monkeypatch, lambda: game_delete(game=game, by=boss, reason="entered twice"))
    job = _analyse(game.pk, series)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not GameAnalysis.objects.exists()
    assert (job.result["analysed"], job.result["superseded"], job.result["failed"]) == (0, 1, 0)


def test_a_job_queued_for_a_game_deleted_since_analyses_nothing(
    entered: tuple[Series, Game, User],
) -> None:
    series, game, boss = entered
    pk = game.pk
    game_delete(game=game, by=boss, reason="entered twice")
    job = _analyse(pk, series)
    assert (job.result["analysed"], job.result["failed"]) == (0, 0)
    assert not GameAnalysis.objects.exists()


def test_a_game_corrected_while_analysed_keeps_no_analysis_of_the_old_record(
    entered: tuple[Series, Game, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    series, game, boss = entered
    new_record = record_for(series, 99)

    def correct() -> Game:
        return game_correct(game=game, by=boss, reason="the wrong sheet", record=new_record)

    _meanwhile(monkeypatch, correct)
    job = _analyse(game.pk, series)
    assert job.result["superseded"] == 1 and not GameAnalysis.objects.exists()
    monkeypatch.undo()
    _analyse(game.pk, series)  # the correction's own analysis (on store, when it is on)
    corrected = Game.objects.get(pk=game.pk)
    analysis = GameAnalysis.objects.get(game=corrected)
    assert corrected.record != game.record and analysis.record_version == corrected.version
    judged = analyse_record(corrected.record)
    assert analysis.turns == analysis_service.net_analysis_fields(judged)["turns"]


def test_a_correction_with_another_record_drops_the_old_analysis_and_analyses_the_new(
    entered: tuple[Series, Game, User],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    series, game, boss = entered
    _analyse(game.pk, series)
    old = GameAnalysis.objects.get(game=game)
    new_record = record_for(series, 42)
    game_correct(game=game, by=boss, reason="the wrong sheet", record=new_record)
    assert not GameAnalysis.objects.filter(game=game).exists()  # not the old moves' marks
    settings.ANALYSIS_ON_STORE = True
    with django_capture_on_commit_callbacks(execute=True):
        game_correct(game=game, by=boss, reason="the right sheet", record=record_for(series, 3))
    corrected = Game.objects.get(pk=game.pk)
    again = GameAnalysis.objects.get(game=corrected)
    assert again.record_version == corrected.version
    assert again.turns == old.turns  # the first record again: the same judgement
