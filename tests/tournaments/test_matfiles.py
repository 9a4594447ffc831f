"""A short-backgammon series imported from, and exported to, GNU Backgammon .mat files
(a gnubg self-play match with the cube: fixtures/gnubg/cube)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation

from engine.matfile import read_mat
from engine.replay import replay
from tournaments.models import Game, Player, Series, SeriesStatus, Tournament
from tournaments.services.errors import ApplicationError
from tournaments.services.matfiles import series_export_mat, series_import_mat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


MATCH = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg" / "cube" / "cube-01.mat"


@pytest.fixture
def series() -> Series:
    t = Tournament.objects.create(
        name="Backgammon", start_date=datetime.date(2026, 11, 29), variant="short", cube=True,
        series_length=5, first_move="lot",
    )  # fmt: skip
    a, b = Player.objects.create(name="gnubgA"), Player.objects.create(name="gnubgB")
    return Series.objects.create(tournament=t, player1=a, player2=b)


def test_a_match_file_becomes_the_series_and_comes_back_the_same(series):
    text = MATCH.read_text(encoding="utf-8")
    games = series_import_mat(series=series, text=text)
    records = read_mat(text)
    assert len(games) == len(records)
    series.refresh_from_db()
    assert series.status == SeriesStatus.FINISHED
    points = [replay(r, check_result=False).outcome for r in records]
    assert sum(o.points for o in points if o and o.winner is not None) == series.score1 + (
        series.score2
    )
    exported = read_mat(series_export_mat(series=series))
    assert [[a.text for a in r.actions] for r in exported] == [
        [a.text for a in r.actions] for r in records
    ]


def test_a_match_of_other_players_changes_nothing(series):
    Player.objects.filter(name="gnubgB").update(name="Petr")
    with pytest.raises(ApplicationError, match="game 1 of the file"):
        series_import_mat(series=series, text=MATCH.read_text(encoding="utf-8"))
    assert not Game.objects.exists()


def test_a_malformed_match_file_is_refused(series):
    with pytest.raises(ApplicationError) as err:
        series_import_mat(series=series, text=" 5 point match\n\n Game 1\n nonsense\n")
    assert err.value.field == "file"
    assert not Game.objects.exists()
