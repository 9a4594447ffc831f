"""How much of a tournament's results the dice explain, on its statistics page and in
the statistics API: R² of white's result on white's luck minus black's over the games
analysed by the evaluator (engine/evaluator/luck_share.py's definition), by kind of game,
with its sample size and a sentence in Czech and English; too few games say so."""

from __future__ import annotations

import numpy as np
import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.pages_data import round_robin
from tournaments.models import Game, GameAnalysis, Tournament
from tournaments.selectors.analysis import game_figures

pytestmark = pytest.mark.django_db
LUCKS = [(900.0, -300.0), (-200.0, 100.0), (400.0, 350.0), (-700.0, 500.0), (150.0, -50.0)]


def _analysed(t: Tournament, lucks: list[tuple[float, float]], *, gnubg_last: bool = False
              ) -> tuple[list[float], list[float]]:  # fmt: skip
    """Analyses for the tournament's first games (the evaluator's, the last one gnubg's
    when asked), and the luck differences and white's results they are measured on."""
    games = list(Game.objects.filter(series__tournament=t).order_by("pk")[: len(lucks)])
    assert len(games) == len(lucks)
    xs, ys = [], []
    for i, (game, (white, black)) in enumerate(zip(games, lucks, strict=True)):
        gnubg = gnubg_last and i == len(games) - 1
        analysis = GameAnalysis.objects.create(
            game=game, source="gnubg" if gnubg else "net", evaluator="test",
            white_error_rate=1, black_error_rate=2, white_luck_rate=0, black_luck_rate=0,
            white_luck=None if gnubg else white, black_luck=None if gnubg else black,
            record_version=game.version,
        )  # fmt: skip
        if not gnubg:
            xs.append((white - black) / 1000)
            ys.append(game_figures(game, analysis, "white").result)
    return xs, ys


def test_the_page_and_the_api_show_the_share_the_dice_explain(client: Client):
    t = round_robin(10)
    xs, ys = _analysed(t, LUCKS, gnubg_last=True)  # gnubg's analysis has no luck in points
    # results that never vary explain nothing: R² 0 (luck_share.share), not NaN
    r2 = float(np.corrcoef(xs, ys)[0, 1]) ** 2 if np.std(ys) > 0 else 0.0
    rows = APIClient().get(f"/api/tournaments/{t.pk}/stats/luck-share/").json()
    assert len(rows) == 1 and rows[0]["variant"] == "long" and rows[0]["games"] == 4
    assert rows[0]["r2"] == pytest.approx(r2, abs=1e-4)
    assert rows[0]["mean_abs_luck"] == pytest.approx(np.abs(xs).mean(), abs=1e-4)
    url = reverse("tournaments:statistics", args=[t.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    section = english.split('id="luck-share"', 1)[1].split("</section>", 1)[0]
    share = round(100 * r2)
    assert "How much is luck" in english and "<td>4</td>" in section
    assert f"<td>{share} %</td>" in section
    assert f"over 4 analysed games, the dice explain {share} %" in section
    czech = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    section = czech.split('id="luck-share"', 1)[1].split("</section>", 1)[0]
    assert "Kolik je štěstí" in czech and f"kostky vysvětlují {share} %" in section
    assert "o každé partii rozhodly jen kostky" in section
    cz_rows = (
        APIClient()
        .get(f"/api/tournaments/{t.pk}/stats/luck-share/", HTTP_ACCEPT_LANGUAGE="cs")
        .json()
    )
    assert "analyzovaných partií" in cz_rows[0]["sentence"]


def test_too_few_analysed_games_say_so_and_none_shows_nothing(client: Client):
    t = round_robin(10)
    url = reverse("tournaments:statistics", args=[t.pk])
    assert 'id="luck-share"' not in client.get(url).content.decode()
    assert APIClient().get(f"/api/tournaments/{t.pk}/stats/luck-share/").json() == []
    _analysed(t, LUCKS[:2])
    rows = (
        APIClient()
        .get(f"/api/tournaments/{t.pk}/stats/luck-share/", HTTP_ACCEPT_LANGUAGE="en")
        .json()
    )
    assert rows[0]["games"] == 2 and rows[0]["r2"] is None
    assert "too few" in rows[0]["sentence"]
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 analysed games are too few" in text and "<td>\u2013</td>" in text
    Tournament.objects.filter(pk=t.pk).update(published=False)
    assert APIClient().get(f"/api/tournaments/{t.pk}/stats/luck-share/").status_code == 404


def test_the_luck_share_is_in_the_schema():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/tournaments/{id}/stats/luck-share/" in schema["paths"]
