"""FIBS-style ratings: a pure formula, and the replay of the rated series into the players'
ratings and their history, one rating and history per game (variant) (docs/ratings.md).

A series is rated when its tournament is rated (an import comes in unrated), it is
finished, has a winner (a drawn series has none), a finish time and two players;
forfeited series are not rated. The rated series are applied in the order
(finished_at, id).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import Case, F, Q, QuerySet, Value, When

from tournaments.caching import people_changed
from tournaments.models import (
    START_RATING,
    Player,
    PlayerRating,
    RatingChange,
    Series,
    SeriesStatus,
)


def k_factor(experience: int) -> float:
    """How fast a player's rating moves: 5 for a newcomer, 1 from 400 points of experience.

    >>> k_factor(0), k_factor(150), k_factor(400), k_factor(1000)
    (5.0, 3.5, 1.0, 1.0)
    """
    return max(1.0, 5.0 - experience / 100)


def upset_probability(*, rating_difference: float, length: int) -> float:
    """The probability that the lower-rated player wins a series of ``length`` points.

    Equal ratings give 0.5, and either player counts as the underdog.

    >>> upset_probability(rating_difference=0, length=7)
    0.5
    >>> round(upset_probability(rating_difference=200, length=4), 6)  # 1 / (10**0.2 + 1)
    0.386863
    """
    return 1.0 / (math.pow(10.0, abs(rating_difference) * math.sqrt(length) / 2000) + 1.0)


def rating_change(
    *,
    winner_rating: float,
    loser_rating: float,
    winner_experience: int,
    loser_experience: int,
    length: int,
) -> tuple[float, float]:
    """(winner's gain, loser's loss), both positive, for a series of ``length`` points.

    Each side moves by 4·K·√n·P, K from that player's own experience before the series and
    P the probability of the result that did not happen.

    Two newcomers at 1500 play to 5 points: P = 0.5 and K = 5 for both, so each moves by
    4·5·√5·0.5 = 10·√5 = 22.36068.

    >>> gain, loss = rating_change(
    ...     winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0,
    ...     length=5,
    ... )
    >>> round(gain, 5), round(loss, 5)
    (22.36068, 22.36068)

    The favourite (1600, K = 5) beats the underdog (1400, experience 250, K = 2.5) in a
    series to 4: P = 1 / (10**(200·2/2000) + 1) = 0.386863, so the winner gains
    4·5·2·P = 15.4745 and the loser loses 4·2.5·2·P = 7.7373.

    >>> gain, loss = rating_change(
    ...     winner_rating=1600, loser_rating=1400, winner_experience=0, loser_experience=250,
    ...     length=4,
    ... )
    >>> round(gain, 4), round(loss, 4)
    (15.4745, 7.7373)
    """
    if length < 1:
        raise ValueError(f"a series has at least 1 point, not {length}")
    upset = upset_probability(rating_difference=winner_rating - loser_rating, length=length)
    # The probability of the result that did not happen: if the underdog won, that the
    # favourite would have won.
    p = upset if winner_rating >= loser_rating else 1.0 - upset
    scale = 4.0 * math.sqrt(length) * p
    return k_factor(winner_experience) * scale, k_factor(loser_experience) * scale


def _rated_series(variant: str | None = None) -> QuerySet[Series]:
    rated = Series.objects.filter(
        status=SeriesStatus.FINISHED,
        winner__isnull=False,
        finished_at__isnull=False,
        player1__isnull=False,
        player2__isnull=False,
        tournament__rated=True,
    )
    return rated if variant is None else rated.filter(tournament__variant=variant)


def _is_rated(series: Series) -> bool:
    return (
        series.tournament.rated
        and series.status == SeriesStatus.FINISHED
        and series.winner_id is not None
        and series.finished_at is not None
        and series.player1_id is not None
        and series.player2_id is not None
    )


Standing = dict[tuple[int, str], PlayerRating]  # (player id, variant): the running rating


def _standing_of(standing: Standing, player_id: int, variant: str) -> PlayerRating:
    """The player's rating in ``variant``: the one held, or a new one at 1500 (unsaved)."""
    key = (player_id, variant)
    if key not in standing:
        standing[key] = PlayerRating(player_id=player_id, variant=variant)
    return standing[key]


def _apply(series: Series, winner: PlayerRating, loser: PlayerRating) -> list[RatingChange]:
    """Move the two players' rating and experience in the series' game (in memory) by one
    series; the history rows, unsaved."""
    assert series.finished_at is not None
    length = series.target
    gain, loss = rating_change(
        winner_rating=winner.rating,
        loser_rating=loser.rating,
        winner_experience=winner.experience,
        loser_experience=loser.experience,
        length=length,
    )
    changes = []
    for standing, delta in ((winner, gain), (loser, -loss)):
        changes.append(
            RatingChange(
                player_id=standing.player_id,
                series=series,
                variant=standing.variant,
                before=standing.rating,
                after=standing.rating + delta,
                experience_before=standing.experience,
                at=series.finished_at,
            )
        )
        standing.rating += delta
        standing.experience += length
    return changes


def _apply_series(standing: Standing, series: Series) -> list[RatingChange]:
    assert series.player1_id is not None and series.player2_id is not None
    variant = series.tournament.variant
    one = _standing_of(standing, series.player1_id, variant)
    two = _standing_of(standing, series.player2_id, variant)
    winner, loser = (one, two) if series.winner_id == series.player1_id else (two, one)
    return _apply(series, winner, loser)


def _save(ratings: Iterable[PlayerRating]) -> None:
    """The new ratings created, the others updated: two queries (and the batches)."""
    ratings = list(ratings)
    PlayerRating.objects.bulk_create([r for r in ratings if r.pk is None])
    PlayerRating.objects.bulk_update(
        [r for r in ratings if r.pk is not None], ["rating", "experience"]
    )
    people_changed()  # bulk writes: no signal (the player pages, the API)


@transaction.atomic
def ratings_recompute(*, variant: str | None = None) -> int:
    """Every rating again from scratch: each player's rating in each game back to its
    start (1500 unless given on registration or import) and no experience, the history
    deleted, then every rated series replayed in order. Returns how many series were
    rated.

    A game's ratings form one pool (a rating depends on the opponents' ratings), so the
    recompute of a game is complete; ``variant`` recomputes that game alone (the others
    do not depend on it), none every game. A rating of a game no longer played and
    started at 1500 is removed: it says nothing."""
    changes, ratings = RatingChange.objects.all(), PlayerRating.objects.all()
    if variant is not None:
        changes, ratings = changes.filter(variant=variant), ratings.filter(variant=variant)
    changes.delete()
    ratings.update(rating=F("start_rating"), experience=0)
    standing: Standing = {(r.player_id, r.variant): r for r in ratings}
    history: list[RatingChange] = []
    rated = 0
    for series in _rated_series(variant).select_related("tournament").order_by("finished_at", "id"):
        history.extend(_apply_series(standing, series))
        rated += 1
    played = {(c.player_id, c.variant) for c in history}
    unplayed = [
        r.pk
        for key, r in standing.items()
        if key not in played and r.start_rating == START_RATING and r.pk is not None
    ]
    if unplayed:
        PlayerRating.objects.filter(pk__in=unplayed).delete()
    RatingChange.objects.bulk_create(history)
    _save(r for key, r in standing.items() if key in played)
    return rated


def _loser_id(series: Series) -> int | None:
    return series.player2_id if series.winner_id == series.player1_id else series.player1_id


def _already_applied(series: Series, rows: list[RatingChange]) -> bool:
    """Do the history rows of ``series`` tell its current result (winner, length, time)?"""
    by_player = {row.player_id: row for row in rows}
    won, lost = by_player.get(series.winner_id or 0), by_player.get(_loser_id(series) or 0)
    if len(rows) != 2 or won is None or lost is None:
        return False
    if won.at != series.finished_at or lost.at != series.finished_at:
        return False
    gain, loss = rating_change(
        winner_rating=won.before,
        loser_rating=lost.before,
        winner_experience=won.experience_before,
        loser_experience=lost.experience_before,
        length=series.target,
    )
    return math.isclose(won.after - won.before, gain, abs_tol=1e-9) and math.isclose(
        lost.before - lost.after, loss, abs_tol=1e-9
    )


def _later(series: Series) -> Q:
    """History rows of the series' game that finished after it (by finish time, then id)."""
    at = series.finished_at
    later = Q(at__gt=at) | Q(at=at, series_id__gt=series.pk)
    return Q(variant=series.tournament.variant) & later


def _rows_and_later(series: Series, rated: bool) -> tuple[list[RatingChange], bool]:
    """The history rows of ``series`` (at most two: one a player), and whether a series
    of its game that finished after it has been rated: one query. The rows come first,
    earliest first, then at most one later row tells whether there is any."""
    if not rated:
        return list(RatingChange.objects.filter(series=series).order_by("at")), False
    mine = Case(When(series=series, then=Value(0)), default=Value(1))
    found = list(
        RatingChange.objects.filter(Q(series=series) | _later(series)).order_by(mine, "at", "pk")[
            :3
        ]
    )
    rows = [row for row in found if row.series_id == series.pk]
    return rows, len(rows) < len(found)


def _replay_from(cut: tuple[datetime, int], variant: str) -> None:
    """Replay the rated series of ``variant`` from ``cut`` (finish time, series id) on, on
    top of the ratings everybody had in that game just before it: the game's history rows
    from the cut on are deleted, each of their players goes back to the rating and
    experience before the first of them, and the rated series from the cut on are applied
    again in order. Everything before the cut stands as it is (a full recompute would give
    it again: the order is the same), so a correction costs the series after it, not the
    whole history; the other games are not touched."""
    at, series_id = cut
    later_rows = RatingChange.objects.filter(
        Q(at__gt=at) | Q(at=at, series_id__gte=series_id), variant=variant
    )
    start: dict[int, tuple[float, int]] = {}
    for player_id, before, experience in later_rows.order_by("at", "series_id").values_list(
        "player_id", "before", "experience_before"
    ):
        start.setdefault(player_id, (before, experience))
    later_rows.delete()
    replayed = list(
        _rated_series(variant)
        .filter(Q(finished_at__gt=at) | Q(finished_at=at, pk__gte=series_id))
        .select_related("tournament")  # a series' length may be its tournament's
        .order_by("finished_at", "id")
    )
    ids = set(start) | {i for s in replayed for i in (s.player1_id, s.player2_id) if i}
    standing: Standing = {
        (r.player_id, r.variant): r
        for r in PlayerRating.objects.filter(player__in=ids, variant=variant).order_by("pk")
    }
    for player_id, (rating, experience) in start.items():
        one = _standing_of(standing, player_id, variant)
        one.rating, one.experience = rating, experience
    changes: list[RatingChange] = []
    for series in replayed:
        changes.extend(_apply_series(standing, series))
    RatingChange.objects.bulk_create(changes)
    _save(standing.values())


@transaction.atomic(savepoint=False)  # part of the caller's write: no savepoint of its own
def ratings_after_series(*, series: Series) -> None:
    """Bring the ratings of the series' game up to date after ``series`` (saved) was
    finished or corrected.

    The newest rated series is applied on top of the current ratings; an older one (a
    correction, a result entered late) or a change to a series already rated (other winner,
    length or finish time; a series reopened, drawn or forfeited) replays the rated series
    of that game from the earlier of its old and new place on (``_replay_from``). Calling
    it again for the same result changes nothing."""
    ids = sorted(i for i in (series.player1_id, series.player2_id) if i is not None)
    variant = series.tournament.variant
    rated = _is_rated(series)
    # Results of the same players in the same game queue here (on their ratings in it,
    # made first where missing); whatever they rated is visible below. An unrated series
    # makes no rating: it locks the players.
    if rated:
        PlayerRating.objects.bulk_create(
            [PlayerRating(player_id=i, variant=variant) for i in ids], ignore_conflicts=True
        )
        locked = PlayerRating.objects.select_for_update().filter(player__in=ids, variant=variant)
        standing: Standing = {(r.player_id, r.variant): r for r in locked.order_by("player")}
    else:
        list(Player.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))
    rows, rated_after = _rows_and_later(series, rated)
    if rows and rated and _already_applied(series, rows):
        return
    if rows or rated_after:
        places = [(row.at, series.pk) for row in rows]
        if rated:
            assert series.finished_at is not None
            places.append((series.finished_at, series.pk))
        _replay_from(min(places), variant)
        return
    if not rated:
        return
    RatingChange.objects.bulk_create(_apply_series(standing, series))
    _save(standing.values())


def rating_history(*, player: Player, variant: str | None = None) -> list[RatingChange]:
    """The player's rating changes in ``variant`` (none: every game), oldest first, with
    each series' players and tournament."""
    changes = RatingChange.objects.filter(player=player)
    if variant is not None:
        changes = changes.filter(variant=variant)
    return list(
        changes.select_related("series__tournament", "series__player1", "series__player2").order_by(
            "at", "series_id"
        )
    )
