"""What the result of a game of a series can be: the outcomes that exist, their points,
the cube and the Crawford game, who starts and with which colour, and the tags its
record must carry. ONE place, derived from what the engine declares, from which quick
entry, the forms, the record check, submissions, the API and imports all take their
rules - so no door can accept what another refuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from tournaments.engine import SIDE_NAMES, WHITE, Position, Rules, outcome_for, variant_named
from tournaments.models import (
    Game,
    GameEnd,
    GameKind,
    Player,
    Series,
    SeriesMode,
    Tournament,
    points_of,
)
from tournaments.services.engine_bridge import tournament_tags
from tournaments.services.errors import ResultError
from tournaments.services.series import series_next_starter, series_scores

WIN_KINDS = (GameKind.OIN, GameKind.MARS, GameKind.KOKS)  # in the engine's order of value


@cache
def best_win(variant: str) -> str:
    """The highest win the engine scores in ``variant`` (with mars on): a win over a
    loser who has not moved at all. Long nardy: mars; short backgammon: koks (S6);
    Lurč: oin, every win is 1 point (Z11)."""
    return outcome_for(Position.start(variant), WHITE, Rules(mars=True)).kind


def first_colour(variant: str) -> str:
    """The colour that moves first: white, but black in Lurč (Z1; L12 as amended)."""
    v = variant_named(variant)
    return SIDE_NAMES[getattr(v, "first_mover", v.first_side)]


def tournament_kinds(t: Tournament) -> tuple[str, ...]:
    """The outcomes a game of ``t`` can have (L8, L10, S6, Z11)."""
    best = WIN_KINDS.index(best_win(t.variant))
    kinds = [str(k) for k in WIN_KINDS[: best + 1 if t.mars else 1]]
    if t.last_roll and "LastRoll" in tournament_tags(t):
        kinds.append(str(GameKind.DRAW))  # L10: only the right of last roll draws
    return tuple(kinds)


def tournament_has_cube(t: Tournament) -> bool:
    """Whether the games of ``t`` use the doubling cube (S7: short backgammon only)."""
    return t.cube and "Cube" in tournament_tags(t)


@dataclass(frozen=True)
class ResultRules:
    """What game ``number`` of a series can be."""

    variant: str
    number: int
    kinds: tuple[str, ...]  # the outcomes that exist, lowest first
    cube: bool  # the doubling cube is used
    crawford: bool  # the Crawford game (S7): played without the cube
    first_colour: str  # "white" or "black": the colour that moves first
    starter: Player | None  # who must start (None: by lot)
    tags: dict[str, str] = field(default_factory=dict)  # a record's tags must agree

    @property
    def draw(self) -> bool:
        return GameKind.DRAW in self.kinds

    @property
    def endings(self) -> tuple[str, ...]:
        played = (str(GameEnd.PLAYED), str(GameEnd.RESIGNED))
        return (*played, str(GameEnd.DROPPED)) if self.cube and not self.crawford else played

    def points(self, kind: str, cube: int = 1) -> int:
        return points_of(kind, cube)

    def white_for(self, starter: Player, other: Player) -> Player:
        """Who has white when ``starter`` starts (L12: the starter takes the colour that
        moves first)."""
        return starter if self.first_colour == "white" else other

    def check(
        self, *, series: Series, winner: Player | None, kind: str, ended: str, cube: int
    ) -> None:
        """Refuse a result this game cannot have (ResultError naming the field)."""
        if kind not in GameKind.values:
            raise ResultError(f"unknown result {kind!r}: {', '.join(self.kinds)}", field="kind")
        if ended not in GameEnd.values:
            raise ResultError(f"unknown ending {ended!r}", field="ended")
        if (kind == GameKind.DRAW) != (winner is None):
            raise ResultError("a draw has no winner, and any other result has one", field="winner")
        if winner is not None and winner.pk not in (series.player1_id, series.player2_id):
            raise ResultError(f"{winner} does not play in this series", field="winner")
        if kind not in self.kinds:
            raise ResultError(self._why_not(kind, series.tournament), field="kind")
        if isinstance(cube, bool) or cube < 1 or cube & (cube - 1):
            raise ResultError("the cube shows 1, 2, 4, 8, ...", field="cube")
        if (cube > 1 or ended == GameEnd.DROPPED) and not self.cube:
            raise ResultError(
                "this tournament plays without the doubling cube (S7)"
                if "Cube" in tournament_tags(series.tournament)
                else "only short backgammon has the doubling cube (S7)",
                field="cube",
            )
        if (cube > 1 or ended == GameEnd.DROPPED) and self.crawford:
            raise ResultError(
                f"game {self.number} is the Crawford game, played without the doubling cube (S7)",
                field="cube",
            )
        if ended == GameEnd.DROPPED and kind != GameKind.OIN:
            raise ResultError("a dropped double scores the cube's value as an oin", field="kind")

    def _why_not(self, kind: str, t: Tournament) -> str:
        if kind == GameKind.DRAW:
            return "a game can end in a draw only with the right of last roll (L10)"
        if best_win(t.variant) == GameKind.OIN:
            return f"every win in {variant_named(t.variant).title} is 1 point (Z11)"
        if kind == GameKind.KOKS and best_win(t.variant) != GameKind.KOKS:
            return "koks exists only in short backgammon (S6)"
        return "with mars off every win is an oin (L8)"


def crawford_next(series: Series, games: Sequence[Game]) -> bool:
    """Whether the game after ``games`` is the Crawford game: the first game after a
    player reaches N-1 points in a series to N with the cube (S7)."""
    t = series.tournament
    if not (tournament_has_cube(t) and t.series_mode == SeriesMode.POINTS):
        return False
    target = series.target
    for n in range(len(games) + 1):
        if target - 1 in series_scores(series, games[:n]):
            return n == len(games)  # the first game at N-1 is the Crawford game
    return False


def result_rules(
    *, series: Series, games: Sequence[Game], number: int | None = None
) -> ResultRules:
    """The rules of game ``number`` (default: the next) of ``series`` whose games, in
    order, are ``games`` (only those before ``number`` count)."""
    t = series.tournament
    number = len(games) + 1 if number is None else number
    before = list(games[: max(number - 1, 0)])
    cube = tournament_has_cube(t)
    crawford = crawford_next(series, before)
    tags = dict(tournament_tags(t))
    if cube and t.series_mode == SeriesMode.POINTS:
        tags |= {"MatchLength": str(series.target), "Crawford": "on" if crawford else "off"}
    return ResultRules(
        variant=t.variant,
        number=number,
        kinds=tournament_kinds(t),
        cube=cube,
        crawford=crawford,
        first_colour=first_colour(t.variant),
        starter=series_next_starter(series, before),
        tags=tags,
    )
