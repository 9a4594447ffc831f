"""The evaluator's analysis on the game page and in the API (issue 23): each player's
error rate, marks, luck and luck-adjusted result with their explanation, the marked turns
with the best play on a board, the equity chart; in Czech and English."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_analysis_net import a_series, record_for
from tournaments.models import GameAnalysis
from tournaments.services.analysis import game_analyse
from tournaments.services.results import game_enter_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(settings):
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 11))
    return game, game_analyse(game=game)


def test_game_page_shows_the_analysis_in_english(client: Client, analysed):
    game, analysis = analysed
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert "Luck-adjusted result" in html and "What these figures mean" in html
    assert 'id="equity-chart"' in html and "Analysed by the project's evaluator" in html
    marked = [t for t in analysis.turns if t["mark"]]
    assert marked, "random moves make errors"
    assert html.count('class="best-turn"') == len(marked)
    worst = max(marked, key=lambda t: t["error"])
    assert f"(\u2212{worst['error']} mp)" in html and f"Best: {worst['best']}" in html
    assert html.count('aria-label="the best play: ') == len(marked)


def test_game_page_shows_the_analysis_in_czech(client: Client, analysed):
    game, _analysis = analysed
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="cs")
    html = page.content.decode()
    for words in ("Výsledek očištěný o štěstí", "Co tato čísla znamenají", "Chyby a šťastné hody",
                  "Analyzovala vlastní hodnoticí síť projektu"):  # fmt: skip
        assert words in html
    assert "Luck-adjusted" not in html


def test_api_gives_the_same_figures(client: Client, analysed):
    game, analysis = analysed
    data = client.get(f"/api/games/{game.pk}/stats/").json()["analysis"]
    assert data["source"] == "net" and len(data["turns"]) == len(analysis.turns)
    white, black = data["white"], data["black"]
    assert white["error_rate"] == analysis.sides["white"]["error_rate"]
    assert white["errors"] == analysis.sides["white"]["errors"]
    assert white["result"] == -black["result"] != 0
    luck_gap = (analysis.white_luck - analysis.black_luck) / 1000
    assert white["luck_adjusted_result"] == pytest.approx(white["result"] - luck_gap, abs=1e-3)
    assert data["turns"][0].keys() == {
        "turn", "side", "dice", "played", "best", "error", "luck", "mark", "forced", "equity"
    }  # fmt: skip


def test_a_game_not_analysed_shows_no_analysis(client: Client, settings):
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 12))
    page = client.get(reverse("tournaments:game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert 'id="analysis"' not in page.content.decode()
    assert not GameAnalysis.objects.exists()
    assert client.get(f"/api/games/{game.pk}/stats/").json()["analysis"] is None


def test_series_and_statistics_pages_sum_each_players_figures(client: Client, analysed):
    game, analysis = analysed
    series_page = client.get(reverse("tournaments:series", args=[game.series_id]),
                             HTTP_ACCEPT_LANGUAGE="en").content.decode()  # fmt: skip
    assert "Luck-adjusted result" in series_page and 'class="players-analysis"' in series_page
    url = reverse("tournaments:statistics", args=[game.series.tournament_id])
    stats_page = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Výsledek očištěný o štěstí" in stats_page
    rate = analysis.sides["white"]["error_rate"]
    assert f"{rate:.1f}".replace(".", ",") in stats_page  # Czech decimals
