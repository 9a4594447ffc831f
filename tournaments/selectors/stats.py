"""Statistics from the stored records (engine/stats.py): per game for the replay page,
per player and per tournament over the games the viewer may see, with a chi-square
verdict on the dice."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Q, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from scipy.stats import chi2

from tournaments import engine
from tournaments.engine import FACES, GameStats, PlayerStats, record_stats
from tournaments.models import Game, GameAnalysis, Player, Tournament
from tournaments.selectors.access import User, visible_tournaments

# A chi-square test is trusted when every class expects at least 5 (Cochran's rule).
MIN_EXPECTED = 5
# fair dice: each face 1/6; the totals 2..12 of two dice 1/36, 2/36, ..., 6/36, ..., 1/36
FACE_P = tuple(1 / FACES for _ in range(FACES))
TOTAL_P = tuple((6 - abs(7 - total)) / 36 for total in range(2, 13))


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A chi-square test of counts against fair dice: the statistic, its degrees of
    freedom and the p-value; ``None`` figures when there are too few rolls."""

    counts: tuple[int, ...]
    needed: int  # the fewest trials for which every class expects MIN_EXPECTED
    statistic: float | None = None
    df: int = 0
    p_value: float | None = None


def chi_square(counts: tuple[int, ...], probabilities: tuple[float, ...]) -> ChiSquare:
    """Pearson's test of ``counts`` against ``probabilities`` (the survival function of
    the chi-square distribution from scipy)."""
    n = sum(counts)
    needed = math.ceil(MIN_EXPECTED / min(probabilities) - 1e-9)
    if n < needed:
        return ChiSquare(counts, needed)
    statistic = sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probabilities, strict=True))
    df = len(counts) - 1
    return ChiSquare(counts, needed, statistic, df, float(chi2.sf(statistic, df)))


def holm(ps: Sequence[float]) -> tuple[float, ...]:
    """Holm's step-down adjustment of ``ps`` (in their order): a test is rejected at
    level a when its adjusted p-value is below a, and the chance that any test of a
    family of fair samples is rejected stays at most a, whatever their dependence.

    >>> holm([0.01, 0.04])
    (0.02, 0.04)
    >>> holm([0.3, 0.02])
    (0.3, 0.04)
    """
    m = len(ps)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: ps[i])):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        adjusted[i] = running
    return tuple(adjusted)


@dataclass(frozen=True, slots=True)
class DiceVerdict:
    faces: ChiSquare
    totals: ChiSquare
    verdict: str  # in plain words
    explanation: str  # what the p-value means, in one sentence
    # the verdict's figure: the smallest of the tests' p-values after Holm's correction
    # for the tests made (one or two); None when there were too few rolls for any
    p_value: float | None = None


def dice_verdict(stats: PlayerStats) -> DiceVerdict:
    """The faces (two a roll) and the totals of the rolls against fair dice. Two tests
    give fair dice two chances of a false alarm, so their p-values are corrected by
    Holm's method before the smallest decides: 5 % and 1 % are the usual thresholds,
    and fair dice are called unusual in at most 5 % of samples."""
    faces = chi_square(stats.faces, FACE_P)
    totals = chi_square(stats.totals, TOTAL_P)
    ps = [t.p_value for t in (faces, totals) if t.p_value is not None]
    if not ps:
        verdict = _("Too few rolls for a test: at least %(n)d are needed.") % {
            "n": -(-faces.needed // 2)
        }
        return DiceVerdict(faces, totals, verdict, "")
    p = min(holm(ps))
    if p < 0.01:
        verdict = _("Unlikely with fair dice.")
    elif p < 0.05:
        verdict = _("Somewhat unusual, but such dice turn up now and then.")
    else:
        verdict = _("Nothing unusual: the dice look fair.")
    figures = {"percent": number_format(p * 100, 1), "p": number_format(p, 3)}
    if len(ps) == 1:
        sentence = _(
            "With fair dice, counts of the faces at least this far from the expected ones "
            "would turn up in %(percent)s %% of samples of this size (p = %(p)s; too few "
            "rolls yet to test the totals of two dice)."
        )
    else:
        sentence = _(
            "With fair dice, the faces or the totals of two dice would be at least this "
            "far from the expected counts in at most %(percent)s %% of samples of this "
            "size (p = %(p)s: the smaller of the two tests' p-values, corrected for making "
            "two tests by Holm's method)."
        )
    return DiceVerdict(faces, totals, verdict, sentence % figures, p)


@lru_cache(maxsize=4096)
def _record_stats(record: str) -> GameStats | None:
    """The figures of a record's first game (cached by the record's text, so that a
    corrected record is counted afresh); ``None`` when it cannot be read."""
    try:
        games = engine.read_records(record)
        return record_stats(games[0]) if games else None
    except engine.EngineError:
        return None


def game_stats(game: Game) -> GameStats | None:
    """The figures of a game with a record (``None`` without one)."""
    return _record_stats(game.record) if game.record else None


@dataclass(slots=True)
class PlayerTotals:
    """A player's figures added up over their recorded games."""

    player: Player
    games: int = 0
    stats: PlayerStats = field(default_factory=PlayerStats)

    @property
    def verdict(self) -> DiceVerdict:
        return dice_verdict(self.stats)


def _recorded_games(user: User | None) -> QuerySet[Game]:
    return (
        Game.objects.filter(series__tournament__in=visible_tournaments(user))
        .exclude(record="")
        .select_related("white", "black")
        .order_by("series_id", "number")
    )


def _add(totals: dict[int, PlayerTotals], games: QuerySet[Game], only: int | None = None) -> None:
    for game in games:
        stats = game_stats(game)
        if stats is None:
            continue
        for side, player in ((engine.WHITE, game.white), (engine.BLACK, game.black)):
            if only is not None and player.pk != only:
                continue
            row = totals.setdefault(player.pk, PlayerTotals(player))
            row.games += 1
            row.stats = row.stats + stats.player(side)


def player_stats(*, player: Player, user: User | None) -> PlayerTotals:
    """A player's figures over every recorded game the user may see (one query)."""
    totals: dict[int, PlayerTotals] = {player.pk: PlayerTotals(player)}
    games = _recorded_games(user).filter(Q(white=player) | Q(black=player))
    _add(totals, games, only=player.pk)
    return totals[player.pk]


@dataclass(frozen=True, slots=True)
class DiceTotals:
    """Every roll of a tournament's recorded games added up, both players of each game."""

    games: int
    stats: PlayerStats

    @property
    def verdict(self) -> DiceVerdict:
        return dice_verdict(self.stats)


def tournament_dice(rows: list[PlayerTotals]) -> DiceTotals:
    """The tournament's dice as one sample: each recorded game counts both its players'
    rolls, so the games are the players' games halved."""
    stats = sum((row.stats for row in rows), PlayerStats())
    return DiceTotals(games=sum(row.games for row in rows) // 2, stats=stats)


def tournament_stats(*, tournament: Tournament) -> list[PlayerTotals]:
    """Every player's figures over the tournament's recorded games, by name (one query;
    the caller checks that the tournament is visible)."""
    totals: dict[int, PlayerTotals] = {}
    games = (
        Game.objects.filter(series__tournament=tournament)
        .exclude(record="")
        .select_related("white", "black")
    )
    _add(totals, games)
    return sorted(totals.values(), key=lambda row: row.player.name)


@dataclass(frozen=True, slots=True)
class ChartPoint:
    index: int  # the replay's position index (?turn=)
    x: float
    y_white: float
    y_black: float
    label: str


@dataclass(frozen=True, slots=True)
class PipChart:
    """The pip counts over a game as SVG coordinates, drawn by _stats_game.html."""

    width: int
    height: int
    top: int  # the highest pip count, at y = 0
    white: str  # polyline points
    black: str
    points: list[ChartPoint]
    xs: str  # the marker's x for every replay position 0..last, comma-separated


@dataclass(frozen=True, slots=True)
class GameStatsPage:
    stats: GameStats
    chart: PipChart
    lead_changed: str  # "Turn 12, black" or ""


def pip_chart(stats: GameStats, positions: int, *, width: int = 600, height: int = 180
              ) -> PipChart:  # fmt: skip
    """Both players' pip counts after every turn; ``positions`` is the number of the
    replay's positions (cube actions and resignations keep the last turn's x)."""
    values = [(0, stats.start[0], stats.start[1], _("Start"))]
    for t in stats.turns:
        label = _("Turn %(n)d, %(side)s %(dice)s: white %(w)d pips, black %(b)d") % {
            "n": t.number, "side": _("white") if t.side == 0 else _("black"),
            "dice": t.dice, "w": t.white, "b": t.black,
        }  # fmt: skip
        values.append((t.index, t.white, t.black, label))
    top = max(max(v[1], v[2]) for v in values) or 1
    step = width / max(len(values) - 1, 1)

    def y(pips: int) -> float:
        return round(height - pips / top * (height - 10), 1)

    points = [
        ChartPoint(index, round(i * step, 1), y(w), y(b), label)
        for i, (index, w, b, label) in enumerate(values)
    ]
    xs, k = [], 0
    for index in range(positions):
        while k + 1 < len(points) and points[k + 1].index <= index:
            k += 1
        xs.append(str(points[k].x))
    return PipChart(
        width, height, top,
        " ".join(f"{p.x},{p.y_white}" for p in points),
        " ".join(f"{p.x},{p.y_black}" for p in points),
        points, ",".join(xs),
    )  # fmt: skip


def game_stats_page(*, game: Game, positions: int) -> GameStatsPage | None:
    """The replay page's statistics: the figures and the pip chart (no query)."""
    stats = game_stats(game)
    if stats is None or not stats.turns:
        return None
    change = stats.last_lead_change
    lead = ""
    if change is not None:
        lead = _("turn %(n)d, %(side)s") % {
            "n": change.number,
            "side": _("white") if change.side == 0 else _("black"),
        }
    return GameStatsPage(stats, pip_chart(stats, positions), lead)


def game_analysis(game: Game) -> GameAnalysis | None:
    """GNU Backgammon's figures for the game, if it was analysed (one query)."""
    return GameAnalysis.objects.filter(game=game).first()
