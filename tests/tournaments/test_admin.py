"""The admin: every model is listed and searchable, results are read-only, and the actions
call the services."""

from __future__ import annotations

import datetime
import random
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.selfplay import random_game
from tournaments.jobs.runner import job_start
from tournaments.models import Club, Game, Player, RatingChange, Series
from tournaments.services.results import game_enter_quick, game_enter_record
from tournaments.services.setup import (
    entry_register,
    round_create,
    series_create,
    tournament_create,
)

pytestmark = pytest.mark.django_db
MODELS = ("club", "player", "tournament", "entry", "round", "series", "game", "correction",
          "ratingchange", "deletion", "submission", "seriesreport", "job", "gameanalysis",
          "botgame")  # fmt: skip
# written only by their services (submissions, jobs, analysis, the bot): shown, never edited
SHOWN_ONLY = ("submission", "seriesreport", "job", "gameanalysis", "botgame")


@pytest.fixture
def series() -> Series:
    club = Club.objects.create(name="Klub vrhcábů Brno", city="Brno")
    jana = Player.objects.create(name="Jana Nováková", club=club)
    petr = Player.objects.create(name="Petr Svoboda", club=club)
    t = tournament_create(
        name="Přebor", start_date=datetime.date(2026, 11, 29), series_length=1, variant="long"
    )
    for p in (jana, petr):
        entry_register(tournament=t, player=p)
    s = series_create(tournament=t, round=round_create(tournament=t), player1=jana, player2=petr)
    text = random_game("long", random.Random(7))
    text = text.replace("Random A", jana.name).replace("Random B", petr.name)
    game_enter_record(series=s, record=text)
    s.refresh_from_db()
    return s


@pytest.mark.parametrize("model", MODELS)
def test_every_model_is_listed_and_searchable(admin_client: Client, series: Series, model: str):
    url = reverse(f"admin:tournaments_{model}_changelist")

    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "Jana"}).status_code == 200


@pytest.mark.parametrize("model", SHOWN_ONLY)
def test_what_the_services_write_is_shown_never_added_here(
    admin_client: Client, series: Series, model: str
):
    assert admin_client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 403


def test_a_job_and_an_entry_are_named_in_the_readers_language(admin_client: Client, series):
    t = series.tournament
    job = job_start(kind="recompute", params={"tournament": t.pk}, by=None, tournament=t)
    entry = t.entries.select_related("player").first()
    assert entry is not None
    with translation.override("cs"):
        names = {"job": str(job), "entry": str(entry)}
    assert names["job"].startswith(f"úloha {job.pk}: ")
    assert names["entry"] == f"{entry.player} v turnaji {t}"
    for model, obj in (("job", job), ("entry", entry)):
        url = reverse(f"admin:tournaments_{model}_change", args=[obj.pk])
        assert names[model] in admin_client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()


def test_games_are_read_only_with_the_record_in_monospace(admin_client: Client, series: Series):
    game = series.games.get()
    url = reverse("admin:tournaments_game_change", args=[game.pk])
    kind = game.kind

    page = admin_client.get(url).content.decode()

    assert '<pre class="record-text">' in page and "[Variant &quot;long&quot;]" in page
    assert "style=" not in page.split('<pre class="record-text">')[0][-200:]  # CSP: no inline
    css = (settings.BASE_DIR / "static/css/admin.css").read_text()
    assert re.search(r"\.record-text \{[^}]*font-family: monospace", css)
    assert admin_client.post(url, {"kind": "mars"}).status_code == 403
    assert admin_client.get(reverse("admin:tournaments_game_add")).status_code == 403
    game.refresh_from_db()
    assert game.kind == kind


def test_a_series_shows_its_games_read_only(admin_client: Client, series: Series):
    page = admin_client.get(reverse("admin:tournaments_series_change", args=[series.pk]))

    assert page.status_code == 200
    assert 'name="games-0-kind"' not in page.content.decode()  # no editable game fields


def test_the_series_list_makes_a_fixed_number_of_queries(
    admin_client: Client, series: Series, django_assert_max_num_queries
):
    players = [Player.objects.create(name=f"Hráč {i}") for i in range(6)]
    for p in players:
        entry_register(tournament=series.tournament, player=p)
    for one, two in zip(players[::2], players[1::2], strict=True):
        s = series_create(tournament=series.tournament, player1=one, player2=two)
        game_enter_quick(series=s, white=one, winner=two, kind="oin")

    with django_assert_max_num_queries(12):
        admin_client.get(reverse("admin:tournaments_series_changelist"))
    with django_assert_max_num_queries(12):
        admin_client.get(reverse("admin:tournaments_game_changelist"))


def test_the_recompute_actions_call_the_services(admin_client: Client, series: Series):
    score = (series.score1, series.score2, series.status)
    Series.objects.filter(pk=series.pk).update(score1=0, score2=0)

    response = admin_client.post(
        reverse("admin:tournaments_series_changelist"),
        {"action": "recompute_series", "_selected_action": [series.pk]},
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.score1, series.score2, series.status) == score
    assert RatingChange.objects.filter(series=series).count() == 2

    RatingChange.objects.all().delete()

    response = admin_client.post(
        reverse("admin:tournaments_player_changelist"),
        {"action": "recompute_ratings", "_selected_action": [series.player1_id]},
        follow=True,
        headers={"accept-language": "en"},
    )
    assert "Ratings recomputed from 1 rated series." in response.content.decode()
    assert RatingChange.objects.filter(series=series).count() == 2
    assert Game.objects.filter(series=series).count() == 1


def test_sort_links_say_which_column_and_which_order(admin_client: Client, series: Series):
    """Django's sort links are empty links with a title; ours name the column and the
    order, the priority is said in words and the first sorted column has aria-sort."""
    url = reverse("admin:tournaments_player_changelist")
    html = admin_client.get(url, {"o": "-1.2"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    hidden = re.findall(r'<span class="visually-hidden">([^<]*)</span>', html)

    assert hidden == [
        "Stop sorting by Name", "Sorting priority: 1", "Name: sorted descending; sort ascending",
        "Stop sorting by Club", "Sorting priority: 2", "Club: sorted ascending; sort descending",
    ]  # fmt: skip
    assert html.count("aria-sort=") == 1
    assert 'aria-sort="descending"' in html
