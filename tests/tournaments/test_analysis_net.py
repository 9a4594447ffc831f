"""The evaluator's analysis of long-nardy games in the app (docs/analysis.md): a game is
analysed after it is stored (a job, inline here: no broker), its figures are those of
``engine.analysis.analyse_game``, a failing analysis never refuses the entry, a director
re-analyses a tournament with the job's progress, and Lurč's games are analysed too."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.analysis import analyse_game
from tests.tournaments.analysis_data import a_series, record_for
from tournaments.models import GameAnalysis, Job, JobStatus, Series
from tournaments.services.results import game_enter_record

pytestmark = pytest.mark.django_db


def test_a_stored_long_game_is_analysed_by_a_job(django_capture_on_commit_callbacks):
    series = a_series()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_enter_record(series=series, record=record_for(series, 3))
    job = Job.objects.get()
    assert job.kind == "games_analyse" and job.status == JobStatus.DONE, job.error
    assert job.params == {"games": [game.pk]} and job.tournament == series.tournament
    stored = GameAnalysis.objects.get(game=game)
    expected = analyse_game(game.record)
    assert stored.source == "net" and stored.evaluator.startswith("long")
    assert stored.white_error_rate == round(expected.white.error_rate, 1)
    assert stored.black_luck == expected.black.luck
    assert stored.sides["white"]["errors"]["bad"] == expected.white.bad
    assert len(stored.turns) == len(expected.turns)
    first = stored.turns[0]
    assert (first["error"], first["luck"], first["played"]) == (
        expected.turns[0].error_mp, expected.turns[0].luck_mp, expected.turns[0].played,
    )  # fmt: skip
    assert stored.record_version == game.version


def test_one_job_for_the_games_of_one_transaction(django_capture_on_commit_callbacks):
    from django.db import transaction

    series = a_series(players=4)
    others = Series.objects.filter(tournament=series.tournament, player2__isnull=False)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        games = [game_enter_record(series=s, record=record_for(s, 10 + s.pk)) for s in others]
    job = Job.objects.get()
    assert sorted(job.params["games"]) == sorted(g.pk for g in games)
    assert job.result["analysed"] == len(games) == GameAnalysis.objects.count()


def test_a_rolled_back_entry_leaves_nothing_for_the_next_commit(django_capture_on_commit_callbacks):
    """The games of a transaction that rolled back are not analysed with the next one's
    (they were kept on the connection and came back as a job of games that are gone)."""
    from django.db import transaction

    series = a_series(players=4)
    first, second = Series.objects.filter(tournament=series.tournament, player2__isnull=False)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            game_enter_record(series=first, record=record_for(first, 5))
            raise RuntimeError("the director's transaction fails")
        game = game_enter_record(series=second, record=record_for(second, 6))
    job = Job.objects.get()
    assert job.params == {"games": [game.pk]}
    assert list(GameAnalysis.objects.values_list("game", flat=True)) == [game.pk]


def test_a_failing_analysis_leaves_the_entry_stored(settings, django_capture_on_commit_callbacks):
    settings.ANALYSIS_PLY = 7  # the engine refuses it: the analysis fails, not the entry
    series = a_series()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_enter_record(series=series, record=record_for(series, 4))
    assert game.pk is not None and Series.objects.get(pk=series.pk).games.count() == 1
    job = Job.objects.get()
    assert job.status == JobStatus.DONE and job.result["failed"] == 1
    assert "ply" in job.result["failures"][0]["message"]
    assert not GameAnalysis.objects.exists()


def test_an_unreachable_queue_leaves_the_entry_stored(settings, django_capture_on_commit_callbacks):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nobody listens there
    series = a_series()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_enter_record(series=series, record=record_for(series, 5))
    assert Series.objects.get(pk=series.pk).games.get() == game
    assert Job.objects.get().status == JobStatus.FAILED
    assert not GameAnalysis.objects.exists()


def test_no_analysis_when_switched_off(settings, django_capture_on_commit_callbacks):
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    with django_capture_on_commit_callbacks(execute=True):
        game_enter_record(series=series, record=record_for(series, 6))
    assert not Job.objects.exists()


def test_director_reanalyses_a_tournament_with_progress(client: Client, settings):
    settings.ANALYSIS_ON_STORE = False
    series = a_series(players=4)
    for s in Series.objects.filter(tournament=series.tournament, player2__isnull=False):
        game_enter_record(series=s, record=record_for(s, 20 + s.pk))
    client.force_login(series.tournament.directors.get())
    t = series.tournament
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="cs")
    assert "Znovu analyzovat všechny partie" in page.content.decode()
    url = reverse("tournaments:tournament_job", args=[t.pk, "games_analyse"])
    response = client.post(url)
    job = Job.objects.get()
    assert response.status_code == 302 and job.status == JobStatus.DONE, job.error
    assert (job.done, job.total) == (2, 2)  # the progress counted every game
    assert job.result["analysed"] == 2 == GameAnalysis.objects.filter(source="net").count()
    shown = client.get(reverse("tournaments:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "2 game(s) analysed, 0 could not be." in shown.content.decode()
    api = client.get(f"/api/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert api["done"] == api["total"] == 2 and api["status"] == "done"


def test_a_stored_lurc_game_is_analysed_too(client: Client, django_capture_on_commit_callbacks):
    """Lurč declares its evaluator (docs/analysis_lurc.md): its games are analysed as
    long nardy's, by the Lurč net, and the game page shows the figures."""
    series = a_series("lurc")
    with django_capture_on_commit_callbacks(execute=True):
        game = game_enter_record(series=series, record=record_for(series, 8))
    job = Job.objects.get()
    assert job.kind == "games_analyse" and job.status == JobStatus.DONE, job.error
    stored = GameAnalysis.objects.get(game=game)
    expected = analyse_game(game.record)
    assert stored.source == "net" and stored.evaluator.startswith("lurc")
    assert stored.black_luck == expected.black.luck
    assert len(stored.turns) == len(expected.turns)
    game_page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert game_page.status_code == 200


@hsettings(max_examples=30, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(kind=st.text(min_size=1, max_size=40).filter(lambda k: "/" not in k and k.strip()))
def test_hostile_job_kinds_answer_404_not_500(client: Client, kind: str):
    series = Series.objects.select_related("tournament").first() or a_series("lurc")
    tournament = series.tournament
    client.force_login(tournament.directors.get())
    url = f"/tournaments/{tournament.pk}/jobs/{quote(kind, safe='')}/"
    response = client.post(url, HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code in (400, 403, 404), response.status_code
    assert not Job.objects.exists()
