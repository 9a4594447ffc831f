"""The series keeps itself up to date: score, status, winner and who starts next."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone

from tournaments.models import (
    DrawScoring,
    FirstMove,
    Game,
    Player,
    Series,
    SeriesMode,
    SeriesStatus,
)


def draw_points(series: Series) -> Decimal:
    """What a drawn game gives each player (RULES L11)."""
    return Decimal("0.5") if series.tournament.draw_scoring == DrawScoring.HALF else Decimal(1)


def series_scores(series: Series, games: Sequence[Game]) -> tuple[Decimal, Decimal]:
    """Game points of player1 and player2 over ``games``."""
    one = two = Decimal(0)
    half = draw_points(series)
    for g in games:
        if g.winner_id is None:
            one += half
            two += half
        elif g.winner_id == series.player1_id:
            one += g.value
        else:
            two += g.value
    return one, two


def series_decided_after(series: Series, games: Sequence[Game]) -> int | None:
    """The number of the game that decided the series, or None while it goes on."""
    t = series.tournament
    for n in range(1, len(games) + 1):
        one, two = series_scores(series, games[:n])
        if t.series_mode == SeriesMode.GAMES:
            if n >= series.target:
                return n
        elif one >= series.target or two >= series.target:
            return n
    return None


def _first_is_white(series: Series) -> bool:
    from tournaments.engine import WHITE, variant_named

    v = variant_named(series.tournament.variant)
    return getattr(v, "first_mover", v.first_side) == WHITE


def series_next_starter(series: Series, games: Sequence[Game]) -> Player | None:
    """Who starts the next game (RULES L12); None before game 1, whose first player is
    chosen by lot (L2), and under the ``lot`` rule. The starter takes the colour that
    moves first: white, but black in Lurč (Z1)."""
    rule = series.tournament.first_move
    if not games:  # by lot (L2, S2), unless the director chose
        from tournaments.services.rounds import series_chosen_starter

        return series_chosen_starter(series)
    if rule == FirstMove.LOT:
        return None  # by lot (L2, S2)
    last = games[-1]
    starter, second = (last.white, last.black) if _first_is_white(series) else (
        last.black, last.white
    )  # fmt: skip
    if last.winner_id is None or rule == FirstMove.ALTERNATE:
        return second  # L12: after a draw, who moved second starts; alternate: colours swap
    if rule == FirstMove.WINNER:
        return starter if last.winner_id == starter.pk else second
    return second if last.winner_id == starter.pk else starter


def series_next_white(series: Series, games: Sequence[Game]) -> Player | None:
    """Who has white in the next game (None: by lot); see ``series_next_starter``."""
    starter = series_next_starter(series, games)
    if starter is None or _first_is_white(series):
        return starter
    other = series.player2 if starter.pk == series.player1_id else series.player1
    return other


def series_recompute(*, series: Series, games: Sequence[Game] | None = None) -> Series:
    """Score, status, winner and finish time from the series' games; saved."""
    if games is None:
        games = list(series.games.select_related("white", "black", "winner").order_by("number"))
    if series.status == SeriesStatus.FORFEITED or series.player2_id is None:
        return series  # a forfeit or a bye is decided without games: nothing to recompute
    before = (series.score1, series.score2, series.status, series.winner_id, series.finished_at)
    one, two = series_scores(series, games)
    decided = series_decided_after(series, games) is not None
    series.score1, series.score2 = one, two
    if decided:
        if series.tournament.series_mode == SeriesMode.POINTS and not (
            one >= series.target and two >= series.target
        ):
            series.winner_id = series.player1_id if one >= series.target else series.player2_id
        elif one != two:
            series.winner_id = series.player1_id if one > two else series.player2_id
        else:
            series.winner_id = None  # a drawn series
        if series.status != SeriesStatus.FINISHED:
            series.finished_at = timezone.now()
        series.status = SeriesStatus.FINISHED
    else:
        series.winner_id = None
        series.finished_at = None
        series.status = SeriesStatus.IN_PLAY if games else SeriesStatus.SCHEDULED
    if (
        series.score1,
        series.score2,
        series.status,
        series.winner_id,
        series.finished_at,
    ) != before:
        series.version += 1
        series.save()
    return series
