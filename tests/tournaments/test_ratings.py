"""FIBS-style ratings (tournaments/services/ratings.py, docs/ratings.md).

The expected numbers are worked out by hand in the comments, not by the code under test.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import rating_of
from tournaments.models import (
    Club,
    Player,
    PlayerRating,
    RatingChange,
    Series,
    SeriesMode,
    SeriesStatus,
    Tournament,
    Variant,
)
from tournaments.services import ratings
from tournaments.services.ratings import (
    rating_change,
    rating_history,
    ratings_after_series,
    ratings_recompute,
    upset_probability,
)

T0 = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)

# --- the formula, no database -------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner_rating", "loser_rating", "winner_exp", "loser_exp", "length", "gain", "loss"),
    [
        # Two newcomers, 5 points: P = 0.5, K = 5 each: 4·5·√5·0.5 = 10·√5 = 22.36068.
        (1500, 1500, 0, 0, 5, 22.36068, 22.36068),
        # Favourite wins, 4 points: P(upset) = 1 / (10^(200·2/2000) + 1) = 1 / 2.584893
        # = 0.386863 is the result that did not happen. Winner K = 5: 4·5·2·P = 15.47453;
        # loser (experience 250) K = 5 - 2.5 = 2.5: 4·2.5·2·P = 7.73726.
        (1600, 1400, 0, 250, 4, 15.47453, 7.73726),
        # The underdog wins the same series: P = 1 - 0.386863 = 0.613137 (the favourite's
        # win did not happen). Winner K = 2.5: 4·2.5·2·P = 12.26274; loser K = 5: 24.52547.
        (1400, 1600, 250, 0, 4, 12.26274, 24.52547),
        # Experience 1000 and 400: K = max(1, 5 - 10) = 1 and max(1, 5 - 4) = 1;
        # 9 points, equal ratings: 4·1·3·0.5 = 6 each.
        (1700, 1700, 1000, 400, 9, 6.0, 6.0),
        # Own K for each side: 350 → K = 1.5, 0 → K = 5; 1 point, P = 0.5: 3 and 10.
        (1500, 1500, 350, 0, 1, 3.0, 10.0),
    ],
)
def test_rating_change_by_hand(
    winner_rating: float,
    loser_rating: float,
    winner_exp: int,
    loser_exp: int,
    length: int,
    gain: float,
    loss: float,
) -> None:
    assert rating_change(
        winner_rating=winner_rating,
        loser_rating=loser_rating,
        winner_experience=winner_exp,
        loser_experience=loser_exp,
        length=length,
    ) == (pytest.approx(gain, abs=1e-5), pytest.approx(loss, abs=1e-5))


def test_equal_ratings_either_player_is_the_underdog() -> None:
    assert upset_probability(rating_difference=0, length=11) == 0.5
    assert upset_probability(rating_difference=-80, length=3) == upset_probability(
        rating_difference=80, length=3
    )


def test_a_series_has_at_least_one_point() -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        rating_change(
            winner_rating=1500,
            loser_rating=1500,
            winner_experience=0,
            loser_experience=0,
            length=0,
        )


def test_docstring_examples() -> None:
    result = doctest.testmod(ratings)
    assert result.attempted >= 4
    assert result.failed == 0


# --- the database ---------------------------------------------------------------------


@dataclass
class World:
    anna: Player
    boris: Player
    cyril: Player
    david: Player
    s1: Series
    s2: Series
    s3: Series


def _series(
    tournament: Tournament,
    one: Player,
    two: Player,
    *,
    winner: Player | None,
    at: datetime | None,
    length: int | None = None,
    status: str = SeriesStatus.FINISHED,
) -> Series:
    return Series.objects.create(
        tournament=tournament,
        player1=one,
        player2=two,
        length=length,
        status=status,
        winner=winner,
        finished_at=at,
    )


@pytest.fixture
def world() -> World:
    club = Club.objects.create(name="Brno backgammon club")
    anna, boris, cyril, david = (
        Player.objects.create(name=name, club=club) for name in ("Anna", "Boris", "Cyril", "David")
    )
    points = Tournament.objects.create(
        name="Spring open", start_date=date(2025, 3, 1), series_length=5
    )
    games = Tournament.objects.create(
        name="Nine games",
        start_date=date(2025, 3, 2),
        series_mode=SeriesMode.GAMES,
        series_length=9,
    )
    s1 = _series(points, anna, boris, winner=anna, at=T0)  # to 5 points (tournament)
    s2 = _series(points, anna, boris, winner=boris, at=T0 + timedelta(hours=2), length=4)
    s3 = _series(games, cyril, anna, winner=cyril, at=T0 + timedelta(days=1))  # 9 games
    return World(anna, boris, cyril, david, s1, s2, s3)


@pytest.fixture
def unrated(world: World) -> list[Series]:
    """Series that change nothing: drawn, forfeited, in play."""
    later = T0 + timedelta(days=2)
    tournament = world.s1.tournament
    return [
        _series(tournament, world.anna, world.boris, winner=None, at=later),
        _series(
            tournament,
            world.boris,
            world.cyril,
            winner=world.boris,
            at=later,
            status=SeriesStatus.FORFEITED,
        ),
        _series(
            tournament, world.anna, world.cyril, winner=None, at=None, status=SeriesStatus.IN_PLAY
        ),
    ]


# After s1, s2, s3 (worked out by hand):
# s1, Anna beats Boris to 5: both 1500, K 5, P 0.5: ±4·5·√5·0.5 = ±22.36068
#     → Anna 1522.36068, Boris 1477.63932, experience 5 each.
# s2, Boris beats Anna to 4: D = 44.72136, 10^(D·√4/2000) = 10^0.0447214 = 1.108463,
#     P(upset) = 1/2.108463 = 0.474279; the underdog won, so P = 0.525721;
#     K = 5 - 5/100 = 4.95 each: ±4·4.95·2·0.525721 = ±20.81855
#     → Anna 1501.54213, Boris 1498.45787, experience 9 each.
# s3, Cyril (new) beats Anna in 9 games: D = 1.54213, 10^(D·3/2000) = 1.005341,
#     P(upset) = 0.498668, the underdog won: P = 0.501332;
#     Cyril K = 5: +4·5·3·P = +30.07989; Anna K = 5 - 9/100 = 4.91: -4·4.91·3·P = -29.53846
#     → Cyril 1530.07989 (experience 9), Anna 1472.00367 (experience 18).
EXPECTED = {
    "Anna": (1472.00367, 18),
    "Boris": (1498.45787, 9),
    "Cyril": (1530.07989, 9),
    "David": (1500.0, 0),
}


def _table() -> dict[str, tuple[Any, int]]:
    return {
        p.name: (pytest.approx(rating_of(p).rating, abs=1e-5), rating_of(p).experience)
        for p in Player.objects.all()
    }


def _history() -> list[tuple[str, int, float, float, int, datetime]]:
    return [
        (r.player.name, r.series_id, r.before, r.after, r.experience_before, r.at)
        for r in RatingChange.objects.select_related("player").order_by("player__name", "at")
    ]


def _count_recomputes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real: Callable[..., int] = ratings.ratings_recompute

    def counting(**kwargs: Any) -> int:
        calls.append(1)
        return real(**kwargs)

    monkeypatch.setattr(ratings, "ratings_recompute", counting)
    return calls


@pytest.mark.django_db
def test_recompute_by_hand(world: World, unrated: list[Series]) -> None:
    PlayerRating.objects.create(
        player=world.david, variant=Variant.LONG, rating=1234, experience=77
    )

    assert ratings_recompute() == 3

    assert _table() == EXPECTED
    assert RatingChange.objects.count() == 6


@pytest.mark.django_db
def test_history_of_a_player(world: World) -> None:
    ratings_recompute()

    history = rating_history(player=world.anna)

    assert [(r.series, r.at, r.experience_before) for r in history] == [
        (world.s1, world.s1.finished_at, 0),
        (world.s2, world.s2.finished_at, 5),
        (world.s3, world.s3.finished_at, 9),
    ]
    assert [(r.before, r.after) for r in history] == [
        (1500.0, pytest.approx(1522.36068, abs=1e-5)),
        (pytest.approx(1522.36068, abs=1e-5), pytest.approx(1501.54213, abs=1e-5)),
        (pytest.approx(1501.54213, abs=1e-5), pytest.approx(1472.00367, abs=1e-5)),
    ]
    assert history[2].delta == pytest.approx(-29.53846, abs=1e-5)
    assert rating_history(player=world.david) == []


@pytest.mark.django_db
def test_incremental_equals_recompute(
    world: World, unrated: list[Series], monkeypatch: pytest.MonkeyPatch
) -> None:
    recomputes = _count_recomputes(monkeypatch)
    for series in (world.s1, world.s2, world.s3, *unrated):
        ratings_after_series(series=series)
    incremental = _history()

    assert recomputes == []
    assert _table() == EXPECTED
    ratings_recompute()
    assert _history() == [
        (name, series, pytest.approx(before), pytest.approx(after), experience, at)
        for name, series, before, after, experience, at in incremental
    ]
    assert _table() == EXPECTED


@pytest.mark.django_db
def test_idempotent(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    recomputes = _count_recomputes(monkeypatch)
    ratings_after_series(series=world.s1)
    ratings_after_series(series=world.s1)
    ratings_after_series(series=Series.objects.get(pk=world.s1.pk))

    assert recomputes == []
    assert RatingChange.objects.count() == 2
    anna = rating_of(world.anna)
    assert (anna.rating, anna.experience) == (pytest.approx(1522.36068), 5)


@pytest.mark.django_db
def test_drawn_and_forfeited_series_change_nothing(
    world: World, unrated: list[Series], monkeypatch: pytest.MonkeyPatch
) -> None:
    recomputes = _count_recomputes(monkeypatch)
    for series in unrated:
        ratings_after_series(series=series)

    assert recomputes == []
    assert RatingChange.objects.count() == 0
    assert {rating_of(p).rating for p in Player.objects.all()} == {1500.0}
    assert ratings_recompute() == 3  # s1, s2, s3 only


@pytest.mark.django_db
def test_out_of_order_finish_replays_from_it(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    recomputes = _count_recomputes(monkeypatch)
    ratings_after_series(series=world.s3)  # the newest first: applied as it comes
    ratings_after_series(series=world.s2)  # older than s3: replayed from s2 on, s3 again
    ratings_after_series(series=world.s1)  # older still: replayed from s1 on

    assert recomputes == []  # never the whole history
    assert _table() == EXPECTED
    incremental = _history()
    ratings_recompute()
    assert _history() == [
        (name, series, pytest.approx(before), pytest.approx(after), experience, at)
        for name, series, before, after, experience, at in incremental
    ]


@pytest.mark.django_db
def test_replaying_from_a_change_equals_a_full_recompute_in_random_histories() -> None:
    """Results entered in any order, corrected (other winner, other finish time, other
    length), reopened and drawn: after each step the incremental ratings and history are
    exactly what a recompute from scratch gives."""
    import random

    rng = random.Random(20261201)
    t = Tournament.objects.create(name="Random", start_date=date(2025, 1, 1), series_length=3)
    players = [Player.objects.create(name=f"P{i}") for i in range(7)]
    pending = []
    for _ in range(30):
        one, two = rng.sample(players, 2)
        at = T0 + timedelta(minutes=rng.randrange(0, 600, 5))  # ties in time happen
        series = _series(t, one, two, winner=None, at=None, length=rng.choice((None, 1, 5)),
                         status=SeriesStatus.IN_PLAY)  # fmt: skip
        pending.append((series, rng.choice((one, two)), at))
    rng.shuffle(pending)
    done: list[Series] = []
    for step in range(60):
        if pending and (not done or rng.random() < 0.6):
            series, winner, at = pending.pop()  # its result entered now
            series.status, series.winner, series.finished_at = SeriesStatus.FINISHED, winner, at
            series.save()
        else:
            series = rng.choice(done)
            change = rng.random()
            if change < 0.4:
                series.winner = (
                    series.player2 if series.winner == series.player1 else series.player1
                )
            elif change < 0.7:
                series.finished_at = T0 + timedelta(minutes=rng.randrange(0, 600, 5))
            elif change < 0.85:
                series.length = rng.choice((1, 3, 7))
            else:
                series.winner = None  # drawn: unrated
            series.save()
        ratings_after_series(series=series)
        done.append(series)
        if step % 10 == 9:
            incremental, table = _history(), _table()
            ratings_recompute()
            assert _table() == table
            assert _history() == [
                (name, sid, pytest.approx(before), pytest.approx(after), experience, at)
                for name, sid, before, after, experience, at in incremental
            ]


@pytest.mark.django_db
def test_corrected_series_recomputes(world: World) -> None:
    for series in (world.s1, world.s2, world.s3):
        ratings_after_series(series=series)

    # s1 corrected: Boris won it. Both 1500, P 0.5, ±22.36068 as before, the other way.
    world.s1.winner = world.boris
    world.s1.save()
    ratings_after_series(series=world.s1)

    first = rating_history(player=world.boris)[0]
    assert (first.before, first.after) == (1500.0, pytest.approx(1522.36068, abs=1e-5))
    assert RatingChange.objects.count() == 6

    # s3 reopened (a game corrected, the series goes on): its rows go away.
    world.s3.status, world.s3.winner, world.s3.finished_at = SeriesStatus.IN_PLAY, None, None
    world.s3.save()
    ratings_after_series(series=world.s3)

    assert not RatingChange.objects.filter(series=world.s3).exists()
    cyril = rating_of(world.cyril)
    assert (cyril.rating, cyril.experience) == (1500.0, 0)


@pytest.mark.django_db
def test_recompute_reads_with_a_fixed_number_of_queries(world: World) -> None:
    with CaptureQueriesContext(connection) as few:
        ratings_recompute()
    for day in range(2, 8):
        at = T0 + timedelta(days=day)
        _series(world.s1.tournament, world.david, world.boris, winner=world.david, at=at)
        _series(world.s3.tournament, world.cyril, world.david, winner=world.david, at=at)

    with CaptureQueriesContext(connection) as many:
        assert ratings_recompute() == 15

    assert len(many) == len(few)
    assert len(few) <= 9  # the ratings of each game are read apart from the series
