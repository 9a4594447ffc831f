"""A Lurč tournament end to end through the services and pages (round robin, 4 players,
series of exactly 3 games, the loser starts): black starts every game (Z1, L12), every
win is 1 point (Z11); and the doors agree on the same results."""

from __future__ import annotations

import datetime
from decimal import Decimal
from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.helpers import EN
from tournaments.models import Game, Player, Series, SeriesStatus, Tournament
from tournaments.selectors.standings import standings_for_tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db


def test_a_lurc_round_robin_runs_end_to_end_z1_z11_l12(client: Client) -> None:
    boss = User.objects.create_superuser("boss", password="a-long-secret-1")
    client.force_login(boss)
    t = tournament_create(
        name="Lurč cup", start_date=datetime.date(2026, 12, 1), variant="lurc",
        format="round_robin", series_mode="games", series_length=3, first_move="loser",
    )  # fmt: skip
    players = [Player.objects.create(name=n) for n in ("Adam", "Bára", "Cyril", "Dana")]
    for p in players:
        entry_register(tournament=t, player=p)
    strength = {p.pk: i for i, p in enumerate(players)}  # Dana beats everybody...
    for _ in range(3):
        rnd = round_generate(tournament=t)
        for s in Series.objects.filter(round=rnd).select_related("player1", "player2"):
            assert s.player1 is not None and s.player2 is not None
            stronger, weaker = sorted((s.player1, s.player2), key=lambda p: -strength[p.pk])
            # game 2 goes to the weaker player (...except once a series)
            for n, winner in enumerate((stronger, weaker, stronger), start=1):
                page = client.get(reverse("tournaments:series", args=[s.pk]), **EN)
                starter = page.context["quick_form"]["black"].value()  # who must start
                if n == 1:
                    starter = str(s.player1.pk)
                response = client.post(
                    reverse("tournaments:enter_quick", args=[s.pk]),
                    {"number": n, "black": starter, "winner": winner.pk, "kind": "oin",
                     "ended": "played"},
                    **EN,
                )  # fmt: skip
                assert response.status_code == 302, response.content.decode()
    games = list(Game.objects.filter(series__tournament=t).order_by("series", "number"))
    assert len(games) == 6 * 3
    by_series: dict[int, list[Game]] = {}
    for g in games:
        by_series.setdefault(g.series_id, []).append(g)
        assert g.value == 1  # Z11
    for series_games in by_series.values():
        for before, game in pairwise(series_games):
            # L12 "loser": the loser of the previous game starts - with black (Z1)
            assert game.black_id == before.loser_id
    assert not Series.objects.filter(tournament=t).exclude(status=SeriesStatus.FINISHED)
    rows = standings_for_tournament(tournament=t)
    assert [r.player_name for r in rows] == ["Dana", "Cyril", "Bára", "Adam"]
    assert [r.won for r in rows] == [3, 2, 1, 0]
    assert [r.game_points_for for r in rows] == [Decimal(6), Decimal(5), Decimal(4), Decimal(3)]


# the doors agree ---------------------------------------------------------------


CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"variant": "lurc"}, {"kind": "mars"}),  # Z11
    ({"variant": "lurc"}, {"kind": "oin"}),
    ({"variant": "long"}, {"kind": "koks"}),  # S6
    ({"variant": "long"}, {"kind": "draw", "winner": None}),  # L10
    ({"variant": "long", "last_roll": True}, {"kind": "draw", "winner": None}),
    ({"variant": "long", "mars": False}, {"kind": "mars"}),  # L8
    ({"variant": "short"}, {"kind": "koks"}),
    ({"variant": "short"}, {"kind": "oin", "cube": 2}),  # S7: no cube
    ({"variant": "short", "cube": True}, {"kind": "oin", "cube": 2}),
    ({"variant": "short", "cube": True, "series_length": 1}, {"kind": "oin", "cube": 2}),
]


def _series(settings: dict[str, Any], tag: str) -> tuple[Series, Player, Player]:
    t = Tournament.objects.create(
        name=f"Cup {tag}", start_date=datetime.date(2026, 11, 1), **settings
    )
    jana, petr = (
        Player.objects.create(name=f"Jana {tag}"),
        Player.objects.create(name=f"Petr {tag}"),
    )
    return Series.objects.create(tournament=t, player1=jana, player2=petr), jana, petr


@pytest.mark.parametrize(("settings", "result"), CASES)
def test_quick_entry_service_page_and_api_agree(settings, result) -> None:
    """The same result through the service, the page and the API: all accept it or all
    refuse it (series to 1 point with the cube: game 1 is the Crawford game... only
    once someone has N-1 = 0 points: it is, S7)."""
    boss = User.objects.create_superuser("boss", password="a-long-secret-1")
    verdicts = []
    for door in ("service", "page", "api"):
        s, jana, petr = _series(settings, door)
        white = petr if settings["variant"] == "lurc" else jana  # the starter: jana
        winner = result.get("winner", jana)
        values = {"kind": result["kind"], "cube": result.get("cube", 1), "ended": "played"}
        if door == "service":
            try:
                game_enter_quick(series=s, white=white, winner=winner, number=1, **values)
                verdicts.append(True)
            except ApplicationError:
                verdicts.append(False)
        elif door == "page":
            client = Client()
            client.force_login(boss)
            first = "black" if settings["variant"] == "lurc" else "white"
            data = {"number": 1, first: jana.pk, "winner": winner.pk if winner else ""} | values
            response = client.post(reverse("tournaments:enter_quick", args=[s.pk]), data, **EN)
            assert response.status_code in (302, 400)
            verdicts.append(response.status_code == 302)
        else:
            api = APIClient()
            api.force_authenticate(boss)
            data = {"number": 1, "white": white.pk, "winner": winner.pk if winner else None}
            answer = api.post(f"/api/series/{s.pk}/games/quick/", data | values, format="json")
            assert answer.status_code in (201, 400), answer.content
            verdicts.append(answer.status_code == 201)
        assert Game.objects.filter(series=s).count() == int(verdicts[-1])
    assert len(set(verdicts)) == 1, verdicts
