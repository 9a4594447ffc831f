"""Setting tournaments up: registration, rounds, pairings and forfeits; bad input is
answered precisely and changes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation

from tournaments.models import Entry, Player, Round, Series, SeriesStatus
from tournaments.services.errors import ApplicationError
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import (
    entry_register,
    round_create,
    series_create,
    series_forfeit,
    tournament_create,
)

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 29)


@pytest.fixture
def players() -> list[Player]:
    return [Player.objects.create(name=n) for n in ("Jana", "Petr", "Eva", "Karel")]


def test_a_tournament_is_registered_and_paired(players):
    t = tournament_create(name="Přebor", start_date=DAY, series_length=3)
    for p in players:
        entry_register(tournament=t, player=p)
    r1 = round_create(tournament=t)
    assert r1.number == 1 and round_create(tournament=t).number == 2
    s = series_create(tournament=t, round=r1, player1=players[0], player2=players[1], table=1)
    assert s.target == 3 and s.status == SeriesStatus.SCHEDULED


@pytest.mark.parametrize(
    ("settings", "field"),
    [({"tie_breaks": ["coin_toss"]}, "tie_breaks"), ({"tie_breaks": ["buchholz", "buchholz"]},
     "tie_breaks"), ({"series_length": 0}, "series_length"), ({"name": " "}, "name")],
)  # fmt: skip
def test_bad_tournament_settings_are_refused(settings, field):
    args = {"name": "Přebor", "start_date": DAY, **settings}
    with pytest.raises(ApplicationError) as err:
        tournament_create(**args)
    assert err.value.field == field


@translation.override("en")  # the refusals' English words (their msgids)
def test_pairing_mistakes_are_refused(players):
    t = tournament_create(name="Přebor", start_date=DAY)
    for p in players[:3]:
        entry_register(tournament=t, player=p)
    with translation.override("en"), pytest.raises(ApplicationError, match="already registered"):
        entry_register(tournament=t, player=players[0])
    r1 = round_create(tournament=t)
    with pytest.raises(ApplicationError, match="round 1 already exists"):
        round_create(tournament=t, number=1)
    series_create(tournament=t, round=r1, player1=players[0], player2=players[1])
    with pytest.raises(ApplicationError, match="already plays in round 1"):
        series_create(tournament=t, round=r1, player1=players[2], player2=players[0])
    with pytest.raises(ApplicationError, match="not registered"):
        series_create(tournament=t, round=r1, player1=players[2], player2=players[3])
    with pytest.raises(ApplicationError, match="against himself"):
        series_create(tournament=t, player1=players[2], player2=players[2])
    other = tournament_create(name="Jiný", start_date=DAY)
    with pytest.raises(ApplicationError, match="another tournament"):
        series_create(tournament=other, round=r1, player1=None, player2=None)
    assert Series.objects.count() == 1 and Entry.objects.count() == 3
    assert Round.objects.count() == 1


def test_a_forfeit_closes_the_series(players):
    t = tournament_create(name="Přebor", start_date=DAY)
    for p in players[:2]:
        entry_register(tournament=t, player=p)
    s = series_create(tournament=t, player1=players[0], player2=players[1])
    series_forfeit(series=s, winner=players[1])
    s.refresh_from_db()
    assert s.status == SeriesStatus.FORFEITED and s.winner == players[1]
    with translation.override("en"), pytest.raises(ApplicationError, match="already forfeited"):
        series_forfeit(series=s, winner=players[0])
    with translation.override("cs"), pytest.raises(ApplicationError, match="už má stav"):
        series_forfeit(series=s, winner=players[0])
    with translation.override("en"), pytest.raises(ApplicationError, match="no more games"):
        game_enter_quick(series=s, white=players[0], winner=players[0], kind="oin")


def test_the_admin_refuses_unknown_tie_breaks():
    from django.core.exceptions import ValidationError

    t = tournament_create(name="Přebor", start_date=DAY)
    t.tie_breaks = ["buchholz", "coin_toss"]
    with pytest.raises(ValidationError):
        t.full_clean()
    t.tie_breaks = ["buchholz", "progressive"]
    t.full_clean()
