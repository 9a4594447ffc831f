"""A player's analysis over all their analysed games, on the player page and in the API
(docs/analysis_pages.md), as the game, series and statistics pages show theirs: the sums
of the games' figures, only over the tournaments the reader may see, in Czech and
English."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.analysis_data import a_series, record_for
from tournaments.models import Game, Player, Series, Tournament
from tournaments.selectors.analysis import Figures, game_figures
from tournaments.services.analysis import game_analyse
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_record
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


def _side(game: Game, player: Player) -> str:
    return "white" if game.white_id == player.pk else "black"


def _analysed_game(series: Series, seed: int) -> Game:
    game = game_enter_record(series=series, record=record_for(series, seed))
    game_analyse(game=game)
    return Game.objects.select_related("analysis").get(pk=game.pk)


@pytest.fixture
def two_events(settings) -> tuple[Player, list[Game], Tournament]:
    """Iva's analysed games in two tournaments; the second one then hidden."""
    settings.ANALYSIS_ON_STORE = False
    first = a_series()
    iva = first.player1
    assert iva is not None
    games = [_analysed_game(first, 11)]
    t = tournament_create(
        name="second cup", start_date=datetime.date(2026, 6, 1), format="round_robin",
        series_length=1, variant="long",
    )  # fmt: skip
    for player in (iva, Player.objects.create(name="Ema")):
        entry_register(tournament=t, player=player)
    round_generate(tournament=t)
    second = Series.objects.select_related("player1", "player2", "tournament").get(tournament=t)
    games.append(_analysed_game(second, 12))
    return iva, games, t


def _sum(games: list[Game], player: Player) -> Figures:
    total = Figures()
    for game in games:
        one = game_figures(game, game.analysis, _side(game, player))
        total.error_total += one.error_total
        total.weight += one.weight
        total.luck += one.luck
        total.result += one.result
        total.adjusted += one.adjusted
        total.games += 1
    return total


def test_the_player_page_sums_the_analysed_games(client: Client, two_events) -> None:
    iva, games, _hidden = two_events
    url = reverse("tournaments:player", args=[iva.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    both = _sum(games, iva)
    assert 'class="players-analysis"' in html and "Luck-adjusted result" in html
    row = html.split('class="analysis-table"')[1].split("</tbody>")[0]
    assert f'<th scope="row">{iva.name}</th><td>{both.error_rate:.1f}</td>' in row
    assert f"<td>{both.adjusted:.2f}</td>" in row
    czech = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Výsledek očištěný o štěstí" in czech and "Luck-adjusted" not in czech
    assert f"{both.error_rate:.1f}".replace(".", ",") in czech


def test_a_hidden_tournament_s_games_do_not_count_for_the_public(
    client: Client, two_events
) -> None:
    iva, games, hidden = two_events
    Tournament.objects.filter(pk=hidden.pk).update(published=False)
    url = reverse("tournaments:player", args=[iva.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    seen = _sum(games[:1], iva)
    row = html.split('class="analysis-table"')[1].split("</tbody>")[0]
    assert f"<td>{seen.error_rate:.1f}</td>" in row
    data = client.get(f"/api/players/{iva.pk}/stats/").json()["analysis"]
    assert data["games"] == 1 and data["error_rate"] == round(seen.error_rate, 1)


def test_a_player_without_an_analysed_game_shows_none(client: Client, settings) -> None:
    settings.ANALYSIS_ON_STORE = False
    series = a_series()
    game_enter_record(series=series, record=record_for(series, 13))
    iva = series.player1
    assert iva is not None
    html = client.get(reverse("tournaments:player", args=[iva.pk])).content.decode()
    assert 'class="players-analysis"' not in html
    assert client.get(f"/api/players/{iva.pk}/stats/").json()["analysis"] is None


def test_the_api_gives_the_player_s_and_each_tournament_player_s_figures(
    client: Client, two_events
) -> None:
    iva, games, _hidden = two_events
    both = _sum(games, iva)
    data = client.get(f"/api/players/{iva.pk}/stats/").json()["analysis"]
    assert data["games"] == 2
    assert data["error_rate"] == round(both.error_rate, 1)
    assert data["luck_adjusted_result"] == round(both.adjusted, 3)
    assert data["result"] == both.result
    first = games[0]
    rows = client.get(f"/api/tournaments/{first.series.tournament_id}/stats/").json()
    by_player = {row["player"]: row["analysis"] for row in rows}
    for player_id, side in ((first.white_id, "white"), (first.black_id, "black")):
        one = game_figures(first, first.analysis, side)
        assert by_player[player_id]["games"] == 1
        assert by_player[player_id]["error_rate"] == round(one.error_rate, 1)
