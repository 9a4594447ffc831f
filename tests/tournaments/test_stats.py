"""Statistics from the records on the pages and through the API: the replay page's pip
chart and table, a player's and a tournament's figures over the games the viewer may
see, and the chi-square verdict on seeded fair and loaded dice."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from engine.stats import PlayerStats
from tests.tournaments.pages_data import recorded_game, round_robin
from tournaments.models import Game, Tournament
from tournaments.selectors.stats import dice_verdict, holm

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stats"
LONG = (FIXTURES / "long.nrd").read_text(encoding="utf-8")


def rolled(rng: random.Random, rolls: int, six: float = 1 / 6) -> PlayerStats:
    """The faces and totals of ``rolls`` rolls of two dice; ``six`` is the chance of a
    six on each die (1/6: fair)."""
    faces, totals = [0] * 6, [0] * 11
    other = (1 - six) / 5
    for _ in range(rolls):
        a, b = rng.choices(range(1, 7), weights=[other] * 5 + [six], k=2)
        faces[a - 1] += 1
        faces[b - 1] += 1
        totals[a + b - 2] += 1
    return PlayerStats(rolls=rolls, faces=tuple(faces), totals=tuple(totals))


def test_verdict_on_seeded_fair_dice_is_nothing_unusual():
    for seed in (1, 2, 3):
        with translation.override("en"):
            v = dice_verdict(rolled(random.Random(seed), 600))
        assert v.faces.p_value is not None and v.totals.p_value is not None
        assert min(v.faces.p_value, v.totals.p_value) > 0.05, seed
        assert v.verdict == "Nothing unusual: the dice look fair."
        assert "p = " in v.explanation


def test_verdict_on_seeded_loaded_dice_is_unlikely():
    with translation.override("en"):
        v = dice_verdict(rolled(random.Random(4), 600, six=0.3))
    assert v.faces.p_value is not None and v.faces.p_value < 0.001
    assert v.faces.df == 5 and v.totals.df == 10
    assert v.verdict == "Unlikely with fair dice."


def _simulated(rng: np.random.Generator, rolls: int, six: float = 1 / 6) -> PlayerStats:
    """As ``rolled``, with numpy (thousands of samples in a second)."""
    weights = [(1 - six) / 5] * 5 + [six]
    dice = rng.choice(6, size=(rolls, 2), p=weights)
    faces = np.bincount(dice.ravel(), minlength=6)
    totals = np.bincount(dice.sum(axis=1), minlength=11)
    return PlayerStats(
        rolls=rolls, faces=tuple(int(c) for c in faces), totals=tuple(int(c) for c in totals)
    )


FAIR = "Nothing unusual: the dice look fair."


def test_fair_dice_are_called_unusual_in_at_most_five_percent_of_samples():
    """Before: the lower of the two p-values (faces, totals) decided with no
    correction, and about 10 % of fair samples were called unusual at the 5 % level.
    With Holm's correction at most 5 % (plus three standard errors of the simulation);
    the uncorrected rule on the same samples shows that the simulation can tell."""
    rng = np.random.default_rng(2211)
    samples, alarms, uncorrected = 2000, 0, 0
    with translation.override("en"):
        for i in range(samples):
            v = dice_verdict(_simulated(rng, (200, 400, 800)[i % 3]))
            assert v.faces.p_value is not None and v.totals.p_value is not None
            alarms += v.verdict != FAIR
            uncorrected += min(v.faces.p_value, v.totals.p_value) < 0.05
    margin = 3 * (0.05 * 0.95 / samples) ** 0.5
    assert alarms / samples <= 0.05 + margin, alarms / samples
    assert uncorrected / samples > 0.08, uncorrected / samples


def test_a_loaded_die_is_still_caught_after_the_correction():
    rng = np.random.default_rng(2212)
    with translation.override("en"):
        verdicts = [dice_verdict(_simulated(rng, 600, six=0.23)) for _ in range(200)]
    caught = sum(v.verdict != FAIR for v in verdicts)
    assert caught / len(verdicts) >= 0.9, caught
    assert all(v.p_value is not None and v.p_value < 0.05 for v in verdicts if v.verdict != FAIR)


def test_holm_adjusts_the_smaller_p_value_for_two_tests():
    assert holm([0.01, 0.04]) == (0.02, 0.04)
    assert holm([0.3, 0.02]) == (0.3, 0.04)
    assert holm([0.2, 0.3]) == (0.4, 0.4)  # step-down: never below a smaller one's
    assert holm([0.8, 0.7]) == (1.0, 1.0)
    assert holm([0.6]) == (0.6,)


def test_the_verdict_says_what_its_figure_means_in_the_users_language():
    stats = rolled(random.Random(1), 600)
    with translation.override("en"):
        v = dice_verdict(stats)
    assert v.faces.p_value is not None and v.totals.p_value is not None
    assert v.p_value == pytest.approx(min(1.0, 2 * min(v.faces.p_value, v.totals.p_value)))
    assert f"(p = {v.p_value:.3f}: the smaller of the two tests' p-values" in v.explanation
    assert f"in at most {v.p_value * 100:.1f} % of samples" in v.explanation
    with translation.override("cs"):
        cs = dice_verdict(stats)
    decimal = f"{v.p_value:.3f}".replace(".", ",")
    percent = f"{v.p_value * 100:.1f}".replace(".", ",")
    assert f"p = {decimal}" in cs.explanation and f"{percent} %" in cs.explanation
    assert "Holm" in cs.explanation and "fair" not in cs.explanation
    # faces only (too few rolls for the totals): one test, nothing to correct
    with translation.override("en"):
        few = dice_verdict(rolled(random.Random(1), 100))
    assert few.totals.p_value is None and few.p_value == few.faces.p_value
    assert "too few rolls yet to test the totals" in few.explanation


def test_verdict_needs_enough_rolls():
    """Cochran's rule: every class expects 5; faces need 30 dice (15 rolls), totals
    180 rolls (a two or a twelve is 1/36)."""
    with translation.override("en"):
        v = dice_verdict(rolled(random.Random(5), 10))
    assert v.faces.p_value is None and v.faces.needed == 30
    assert v.totals.needed == 180
    assert "Too few rolls" in v.verdict
    v = dice_verdict(rolled(random.Random(5), 20))
    assert v.faces.p_value is not None and v.totals.p_value is None


def _with_long_fixture() -> tuple[Tournament, Game]:
    t = round_robin(4)
    game = recorded_game(t)
    Game.objects.filter(pk=game.pk).update(record=LONG)
    game.refresh_from_db()
    return t, game


@pytest.mark.django_db
def test_replay_page_has_the_pip_chart_and_the_table(client: Client):
    _, game = _with_long_fixture()
    url = reverse("tournaments:game", args=[game.pk])
    html = client.get(url + "?turn=4", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<svg id="pip-chart"' in html and "Dice and pips" in html
    # a point per position: the start and six turns, each a link to ?turn=N
    for index in range(7):
        assert f'<a href="?turn={index}#replay" data-turn="{index}"><title>' in html
    # the marker stands at the current turn (4 of 6 on a 600-wide chart: x = 400)
    assert '<line id="pip-marker" class="marker" x1="400.0" x2="400.0"' in html
    # the hand-counted figures of fixtures/stats/long.nrd (tests/engine/test_stats.py)
    assert '<th scope="row">Pips rolled</th><td>23</td><td>45</td>' in html
    assert '<th scope="row">Turns with no legal move</th><td>0</td><td>1</td>' in html
    assert '<th scope="row">Dice lost (pips)</th><td>0 (0)</td><td>5 (18)</td>' in html
    assert "changed for the last time at turn 3, black" in html
    assert "<script>" not in html  # the CSP: the chart is driven by static/js/replay.js


@pytest.mark.django_db
def test_player_page_and_api_count_only_visible_tournaments(client: Client):
    t, game = _with_long_fixture()
    black = game.black
    html = client.get(reverse("tournaments:player", args=[black.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    assert "Dice and pips" in text and "Over 1 recorded game." in text
    assert "Too few rolls for a test" in text
    api = APIClient()
    data = api.get(f"/api/players/{black.pk}/stats/").json()
    assert data["games"] == 1 and data["stats"]["pips_rolled"] == 45
    assert data["stats"]["dice_lost"] == 5 and data["dice"]["faces"]["p_value"] is None
    assert data["dice"]["p_value"] is None
    rows = api.get(f"/api/tournaments/{t.pk}/stats/").json()
    assert {r["name"]: r["stats"]["pips_rolled"] for r in rows} == {
        game.white.name: 23, black.name: 45,
    }  # fmt: skip
    g = api.get(f"/api/games/{game.pk}/stats/").json()
    assert g["black"]["no_move_turns"] == 1 and g["last_lead_change"]["index"] == 6
    assert g["analysis"] is None and len(g["turns"]) == 6

    Tournament.objects.filter(pk=t.pk).update(published=False)
    text = client.get(reverse("tournaments:player", args=[black.pk])).content.decode()
    assert 'id="dice-heading"' not in text
    assert api.get(f"/api/players/{black.pk}/stats/").json()["games"] == 0
    assert api.get(f"/api/tournaments/{t.pk}/stats/").status_code == 404
    assert api.get(f"/api/games/{game.pk}/stats/").status_code == 404


@pytest.mark.django_db
def test_tournament_statistics_page_shows_the_apis_figures(client: Client):
    """The tournament's statistics page (issue: dice figures only in the API): a row per
    recorded player with the API's figures, all dice together, linked from the
    tournament page, in Czech and English, and hidden with the tournament."""
    t, _game = _with_long_fixture()
    url = reverse("tournaments:statistics", args=[t.pk])
    page = client.get(reverse("tournaments:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert f'href="{url}"' in page.content.decode()
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = APIClient().get(f"/api/tournaments/{t.pk}/stats/").json()
    assert len(rows) == 2
    for row in rows:
        cells = text.split(f">{row['name']}</bdi>", 1)[1].split("</tr>", 1)[0]
        assert f"<td>{row['games']}</td>" in cells
        assert f"<td>{row['stats']['pips_rolled']}</td>" in cells
        assert f"<td>{row['stats']['rolls']}</td>" in cells
    assert "Over 1 recorded game." in text  # both players' rolls, one game
    assert f"<strong>{23 + 45}</strong>" in text  # pips rolled, all dice together
    czech = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Statistiky" in czech and "Statistics" not in czech
    expected = rows[0]["stats"]["pips_expected"]
    assert f"{expected:.1f}".replace(".", ",") in czech
    Tournament.objects.filter(pk=t.pk).update(published=False)
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_tournament_statistics_page_without_records_says_so(client: Client):
    t = round_robin(4)
    Game.objects.filter(series__tournament=t).update(record="")
    text = client.get(
        reverse("tournaments:statistics", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "No game of this tournament has a record yet" in text


@pytest.mark.django_db
def test_stats_api_errors_are_clear_4xx():
    api = APIClient()
    assert api.get("/api/players/999999/stats/").status_code == 404
    t = round_robin(4)
    scoresheet = Game.objects.filter(series__tournament=t, record="").first()
    assert scoresheet is not None
    response = api.get(f"/api/games/{scoresheet.pk}/stats/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404 and "record" in response.json()["detail"]


@pytest.mark.django_db
def test_stats_endpoints_are_in_the_schema():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/games/{id}/stats/", "/api/players/{id}/stats/",
                 "/api/tournaments/{id}/stats/"):  # fmt: skip
        assert path in schema["paths"], sorted(schema["paths"])
