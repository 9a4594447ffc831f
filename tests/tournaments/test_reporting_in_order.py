"""A player reports the games of a series one after the other, each waiting for the
opponent's confirmation: the series page offers game 2 while game 1 waits, with who must
start it filled in from the rules (L12: the loser of game 1 starts), and the
confirmations take them in order. Before: "Game 1 waits for confirmation" and no form."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, Series, Submission, SubmissionStatus
from tournaments.services.setup import tournament_create

pytestmark = pytest.mark.django_db
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _selected(html: str, name: str) -> str:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    assert select is not None, name
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(0))
    return chosen.group(1) if chosen else ""


def test_game_2_is_submitted_on_the_series_page_while_game_1_waits() -> None:
    t = tournament_create(name="Přebor", start_date=datetime.date(2026, 11, 29),
                          series_length=5, first_move="loser")  # fmt: skip
    jana_login, petr_login = User.objects.create_user("jana"), User.objects.create_user("petr")
    jana = Player.objects.create(name="Jana", user=jana_login)
    petr = Player.objects.create(name="Petr", user=petr_login)
    series = Series.objects.create(tournament=t, player1=jana, player2=petr)
    client = Client()
    client.force_login(jana_login)
    url = reverse("tournaments:series", args=[series.pk])
    quick = reverse("tournaments:enter_quick", args=[series.pk])
    game_1 = {"number": 1, "white": jana.pk, "winner": jana.pk, "kind": "oin",
              "ended": "played", "cube": 1}  # fmt: skip
    assert client.post(quick, game_1, **EN).status_code == 302
    page = client.get(url, **EN).content.decode()
    assert "Game 1 waits for confirmation" in page
    assert "Submit game 2" in page and 'id="quick-form"' in page
    assert _selected(page, "white") == str(petr.pk)  # the loser of game 1 starts game 2
    game_2 = {**game_1, "number": 2, "white": petr.pk, "winner": jana.pk}
    assert client.post(quick, game_2, **EN).status_code == 302
    page = client.get(url, **EN).content.decode()
    assert "Games 1 to 2 wait for confirmation" in page and "Submit game 3" in page
    numbers = Submission.objects.filter(series=series, status=SubmissionStatus.PENDING)
    assert sorted(numbers.values_list("number", flat=True)) == [1, 2]
    opponent = Client()
    opponent.force_login(petr_login)
    for sub in Submission.objects.filter(series=series).order_by("number"):
        decide = reverse("tournaments:decide", args=[sub.pk, "confirm"])
        assert opponent.post(decide, **EN).status_code == 302
    assert list(series.games.order_by("number").values_list("number", "white__name")) == [
        (1, "Jana"),
        (2, "Petr"),
    ]
