"""The current round's pairings come before the standings and the crosstable: for
everybody while the round is in play, and always for its directors. Before: below both,
where a director looked for them first."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.pages_data import director, round_robin
from tournaments.models import Series
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white

pytestmark = pytest.mark.django_db
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _fast(no_throttle: None) -> None:
    """Fast hashing, large rates and an empty cache (conftest.py)."""


def _order(html: str) -> list[str]:
    found = [
        (html.find(f'id="{i}"'), i)
        for i in ("current-round", "standings-heading", "cross-heading", "rounds-heading")
    ]
    return [name for at, name in sorted(found) if at >= 0]


def test_the_round_in_play_comes_first_for_everybody_and_the_last_for_directors() -> None:
    boss = director()
    t = round_robin(4, by=boss)  # round 1 played, round 2 paired and in play
    url = reverse("tournaments:tournament", args=[t.pk])
    anyone = Client().get(url, **EN).content.decode()
    assert _order(anyone) == ["current-round", "standings-heading", "cross-heading",
                              "rounds-heading"]  # fmt: skip
    assert "Round 2" in anyone[anyone.find('id="current-round"') : anyone.find("standings-heading")]
    for s in Series.objects.filter(tournament=t, round__number=2, player2__isnull=False):
        white = series_next_white(s, []) or s.player1
        assert white is not None
        game_enter_quick(series=s, white=white, winner=white, kind="oin")
    t.refresh_from_db()
    done = Client().get(url, **EN).content.decode()
    assert _order(done)[0] == "standings-heading"  # nothing in play: the standings first
    boss_client = Client()
    boss_client.force_login(boss)
    directing = boss_client.get(url, **EN).content.decode()
    assert _order(directing)[0] == "current-round"
    assert Client().get(url, **EN).content.decode() == done  # two copies, not mixed
