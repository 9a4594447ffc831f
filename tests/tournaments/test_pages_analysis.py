"""The evaluator's analysis on the game page and in the API (docs/analysis.md): each player's
error rate, marks, luck and luck-adjusted result with their explanation, the marked turns
with the best play on a board, the equity chart; in Czech and English."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.analysis_data import a_series, record_for
from tournaments.models import GameAnalysis
from tournaments.selectors.analysis import record_analysis
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
    # each best play is drawn by the replay (on the page at its turn, or fetched: frames/)
    frames = client.get(
        reverse("tournaments:game_frames", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    best = frames.json()["best"]
    assert len(best) == len(marked)
    assert all(label.startswith("the best play: ") for label, _c, _p in best.values())


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
    html = page.content.decode()
    assert 'id="analysis"' not in html and 'id="equity-chart"' not in html
    assert 'class="mark ' not in html and 'id="best-turn"' not in html and "mp:" not in html
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


def game_analysis_marks(game, analysis):
    return record_analysis(game.record, analysis).marks


def _moves(html: str) -> str:
    """The replay's move list."""
    start = html.index('<ol class="moves" id="moves">')
    return html[start : html.index("</ol>", start)]


def test_replay_marks_each_analysed_turn_and_shows_the_best_play_at_an_error(
    client: Client, analysed
):
    game, analysis = analysed
    url = reverse("tournaments:game", args=[game.pk])
    marked = [t for t in analysis.turns if t["mark"]]
    lucky = [t for t in analysis.turns if abs(t["luck"]) >= 300]
    at_end = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    moves = _moves(at_end)
    assert moves.count('class="mark ') == len(marked)
    assert moves.count('class="luck ') == len(lucky)
    worst = max(marked, key=lambda t: t["error"])
    words = {"doubtful": "doubtful move", "bad": "bad move", "very_bad": "very bad move"}
    assert f"{words[worst['mark']]}, \u2212{worst['error']} mp" in moves
    assert "thousandths of a point" in at_end  # what mp means, beside the list
    # stepping (without script: ?turn=) to the worst error shows its best play beside it
    frame = next(m for m in game_analysis_marks(game, analysis) if m.number == worst["turn"]
                 and m.side == worst["side"]).frame  # fmt: skip
    html = client.get(f"{url}?turn={frame}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    figure = html[html.index('<figure class="best-turn-board" id="best-turn"') :]
    figure = figure[: figure.index("</figure>")]
    assert "hidden" not in figure.split(">", 1)[0]
    assert f"Best: {worst['best']} (played: {worst['played']}, \u2212{worst['error']} mp)" in figure
    assert f'aria-label="the best play: {worst["best"]}. ' in figure
    info = html.index('id="turn-info"')
    turn_info = html[info : html.index("</p>", info)]
    assert f"\u2212{worst['error']} mp" in turn_info
    start = client.get(f"{url}?turn=0", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<figure class="best-turn-board" id="best-turn" hidden>' in start
    # every error's best play is there for the script to show as the user steps
    frames = client.get(
        reverse("tournaments:game_frames", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert len(frames.json()["best"]) == len(marked)
    assert f'<a href="?turn={frame}#replay" data-turn="{frame}"' in start  # the chart's dot


def test_replay_marks_in_czech(client: Client, analysed):
    game, analysis = analysed
    worst = max((t for t in analysis.turns if t["mark"]), key=lambda t: t["error"])
    frame = next(m.frame for m in game_analysis_marks(game, analysis) if m.error == worst["error"])
    url = reverse("tournaments:game", args=[game.pk])
    html = client.get(f"{url}?turn={frame}", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    words = {"doubtful": "pochybný tah", "bad": "špatný tah", "very_bad": "velmi špatný tah"}
    assert f"{words[worst['mark']]}, \u2212{worst['error']} mp" in _moves(html)
    assert f"Nejlepší: {worst['best']} (zahráno: {worst['played']}" in html
    assert "tisíciny bodu" in html
    assert "bad move" not in html and "Best:" not in html
    for chart_id in ("equity-chart", "pip-chart"):
        chart = html[html.index(f'<svg id="{chart_id}"') :]
        chart = chart[: chart.index("</svg>")]
        assert 'cx="' in chart and not re.search(r'c[xy]="-?\d+,\d', chart)  # SVG, not Czech


def test_a_game_analysed_after_it_was_shown_gets_its_marks(client: Client, settings):
    """The replay's drawing is cached by the record; the analysis comes later (a job) and
    must not be hidden by the drawing cached without it."""
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game = game_enter_record(series=series, record=record_for(series, 11))
    url = reverse("tournaments:game", args=[game.pk])
    before = client.get(f"{url}?turn=3", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="mark ' not in _moves(before) and 'id="best-turn"' not in before
    game_analyse(game=game)
    after = client.get(f"{url}?turn=3", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="mark ' in _moves(after)
