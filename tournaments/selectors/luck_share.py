"""How much of a tournament's results the dice explain (the statistics page and
GET /api/tournaments/<id>/stats/luck-share/): over its games analysed by the project's
evaluator, R² of white's result (points won, negative: lost) on white's luck minus
black's, in points - the same figure as ``python -m engine luck-share``
(engine/evaluator/luck_share.py) measures over self-play, by kind of game."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import ngettext

from tournaments.engine import luck_share_of
from tournaments.models import AnalysisSource, Game
from tournaments.selectors.analysis import game_figures
from tournaments.wording.names import variant_name

MIN_GAMES = 3  # fewer: no regression (engine.evaluator.luck_share.share)


@dataclass(frozen=True, slots=True)
class LuckShareRow:
    variant: str
    name: str  # the kind of game in the reader's language
    games: int  # the analysed games the figure is measured on
    r2: float | None  # the share of the results' variance the luck explains; None: too few
    slope: float | None  # points of result per point of luck difference
    percent: int | None  # r2 in whole percent, as the page says it
    mean_abs_luck: float  # the mean |luck difference| a game, in points
    sentence: str


def tournament_luck_share(tournament_id: int) -> list[LuckShareRow]:
    """The luck share of each kind of game among the tournament's games analysed by the
    evaluator (its luck in points; gnubg's analyses give only rates), one query."""
    games = (
        Game.objects.filter(
            series__tournament_id=tournament_id, analysis__source=AnalysisSource.NET,
            analysis__white_luck__isnull=False, analysis__black_luck__isnull=False,
        )
        .exclude(kind="draw")
        .exclude(winner__isnull=True)
        .select_related("analysis", "series__tournament")
        .order_by("pk")
    )  # fmt: skip
    samples: dict[str, tuple[list[float], list[float]]] = {}
    for game in games:
        analysis = game.analysis
        xs, ys = samples.setdefault(game.series.tournament.variant, ([], []))
        xs.append(((analysis.white_luck or 0.0) - (analysis.black_luck or 0.0)) / 1000)
        ys.append(game_figures(game, analysis, "white").result)
    return [_row(variant, xs, ys) for variant, (xs, ys) in sorted(samples.items())]


def _row(variant: str, xs: list[float], ys: list[float]) -> LuckShareRow:
    n = len(xs)
    fit = luck_share_of(xs, ys)
    name = variant_name(variant)
    if n < MIN_GAMES:
        sentence = ngettext(
            "%(kind)s: %(n)s analysed game is too few to measure how much the dice "
            "explain (it takes at least %(min)s).",
            "%(kind)s: %(n)s analysed games are too few to measure how much the dice "
            "explain (it takes at least %(min)s).",
            n,
        ) % {"kind": name, "n": n, "min": MIN_GAMES}
        return LuckShareRow(variant, name, n, None, None, None, fit.mean_abs_luck, sentence)
    sentence = ngettext(
        "%(kind)s: over %(n)s analysed game, the dice explain %(share)s %% of the "
        "differences in the results (R² of the result on the players' luck difference); "
        "the rest is the players' own play.",
        "%(kind)s: over %(n)s analysed games, the dice explain %(share)s %% of the "
        "differences in the results (R² of the result on the players' luck difference); "
        "the rest is the players' own play.",
        n,
    ) % {"kind": name, "n": n, "share": round(100 * fit.r2)}
    return LuckShareRow(
        variant, name, n, fit.r2, fit.slope, round(100 * fit.r2), fit.mean_abs_luck, sentence
    )


def luck_share_json(row: LuckShareRow) -> dict[str, object]:
    return {
        "variant": row.variant, "games": row.games,
        "r2": None if row.r2 is None else round(row.r2, 4),
        "slope": None if row.slope is None else round(row.slope, 4),
        "mean_abs_luck": round(row.mean_abs_luck, 4), "sentence": row.sentence,
    }  # fmt: skip
