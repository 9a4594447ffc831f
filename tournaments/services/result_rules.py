"""What the result of a game of a series can be: the outcomes that exist, their points,
the cube and the Crawford game, who starts and with which colour, and the tags its
record must carry. ONE place, derived from what the engine declares, from which quick
entry, the forms, the record check, submissions, the API and imports all take their
rules - so no door can accept what another refuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from django.utils.translation import gettext as _

from tournaments.engine import (
    SIDE_NAMES,
    WHITE,
    WIN_POINTS,
    Position,
    Rules,
    outcome_for,
    variant_named,
)
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
from tournaments.services.errors import ApplicationError
from tournaments.services.records import has_option, match_tags, tournament_tags
from tournaments.services.series import draw_points, series_next_starter, series_scores

WIN_KINDS = tuple(WIN_POINTS)  # the engine's ways of winning, in order of value


@cache
def best_win(variant: str) -> str:
    """The highest win the engine scores in ``variant`` (with mars on): a win over a
    loser who has not moved at all. Long nardy: mars; short backgammon: koks (S6);
    Lurč: oin, every win is 1 point (Z11)."""
    return outcome_for(Position.start(variant), WHITE, Rules(mars=True)).kind


def colour_name(colour: str) -> str:
    """A colour ("white", "black") in the active language."""
    return {"white": _("white"), "black": _("black")}.get(colour, colour)


def kind_name(kind: str) -> str:
    """An outcome ("oin", "mars", ...) in the active language."""
    return str(dict(GameKind.choices).get(kind, kind))


def first_colour(variant: str) -> str:
    """The colour that moves first: white, but black in Lurč (Z1; L12 as amended)."""
    v = variant_named(variant)
    return SIDE_NAMES[getattr(v, "first_mover", v.first_side)]


def tournament_kinds(t: Tournament) -> tuple[str, ...]:
    """The outcomes a game of ``t`` can have (L8, L10, S6, Z11)."""
    best = WIN_KINDS.index(best_win(t.variant))
    kinds = [str(k) for k in WIN_KINDS[: best + 1 if t.mars else 1]]
    if t.last_roll and has_option(t, "last_roll"):
        kinds.append(str(GameKind.DRAW))  # L10: only the right of last roll draws
    return tuple(kinds)


def tournament_has_cube(t: Tournament) -> bool:
    """Whether the games of ``t`` use the doubling cube (S7: short backgammon only)."""
    return t.cube and has_option(t, "cube")


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
    post_crawford: bool = False  # after the Crawford game: the cube is back (S7)

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
        """Refuse a result this game cannot have (ApplicationError naming the field)."""
        if kind not in GameKind.values:
            raise ApplicationError(
                _("unknown result %(kind)s: the results are %(kinds)s"),
                code="unknown-result",
                params={"kind": repr(kind), "kinds": ", ".join(kind_name(k) for k in self.kinds)},
                field="kind",
            )
        if ended not in GameEnd.values:
            raise ApplicationError(
                _("unknown ending %(ended)s"),
                code="unknown-ending",
                params={"ended": repr(ended)},
                field="ended",
            )
        if (kind == GameKind.DRAW) != (winner is None):
            raise ApplicationError(
                _("a draw has no winner, and any other result has one"),
                code="draw-winner",
                field="winner",
            )
        if winner is not None and winner.pk not in (series.player1_id, series.player2_id):
            raise ApplicationError(
                _("%(player)s does not play in this series"),
                code="player-not-in-series",
                params={"player": winner.name},
                field="winner",
            )
        if kind not in self.kinds:
            raise self._why_not(kind, series.tournament)
        self._check_cube(series=series, kind=kind, ended=ended, cube=cube)

    def _check_cube(self, *, series: Series, kind: str, ended: str, cube: int) -> None:
        """S7: the cube's value, whether this game may be doubled, a dropped double."""
        if isinstance(cube, bool) or cube < 1 or cube & (cube - 1):
            raise ApplicationError(
                _("the cube shows 1, 2, 4, 8, ..."), code="cube-value", field="cube"
            )
        if (cube > 1 or ended == GameEnd.DROPPED) and not self.cube:
            if has_option(series.tournament, "cube"):
                raise ApplicationError(
                    _("this tournament plays without the doubling cube (S7)"),
                    code="cube-off",
                    field="cube",
                    rule="S7",
                )
            raise ApplicationError(
                _("only short backgammon has the doubling cube (S7)"),
                code="cube-short-only",
                field="cube",
                rule="S7",
            )
        if (cube > 1 or ended == GameEnd.DROPPED) and self.crawford:
            raise ApplicationError(
                _("game %(number)s is the Crawford game, played without the doubling cube (S7)"),
                code="crawford-cube",
                params={"number": self.number},
                field="cube",
                rule="S7",
            )
        if ended == GameEnd.DROPPED and kind != GameKind.OIN:
            raise ApplicationError(
                _("a dropped double scores the cube's value as an oin"),
                code="dropped-not-oin",
                field="kind",
            )

    def _why_not(self, kind: str, t: Tournament) -> ApplicationError:
        if kind == GameKind.DRAW:
            return ApplicationError(
                _("a game can end in a draw only with the right of last roll (L10)"),
                code="draw-without-last-roll",
                field="kind",
                rule="L10",
            )
        if best_win(t.variant) == GameKind.OIN:
            return ApplicationError(
                _("every win in %(variant)s is 1 point (Z11)"),
                code="single-point-wins",
                params={"variant": t.get_variant_display()},
                field="kind",
                rule="Z11",
            )
        if kind == GameKind.KOKS and best_win(t.variant) != GameKind.KOKS:
            return ApplicationError(
                _("koks exists only in short backgammon (S6)"),
                code="koks-short-only",
                field="kind",
                rule="S6",
            )
        return ApplicationError(
            _("with mars off every win is an oin (L8)"), code="mars-off", field="kind", rule="L8"
        )


def crawford_game(series: Series, games: Sequence[Game]) -> int | None:
    """The number of the Crawford game of ``series`` as far as ``games`` (in order) tell:
    the first game after a player reaches N-1 points in a series to N with the cube
    (S7); None where there is none (yet)."""
    t = series.tournament
    if not (tournament_has_cube(t) and t.series_mode == SeriesMode.POINTS):
        return None
    target = series.target
    for n in range(len(games) + 1):
        if target - 1 in series_scores(series, games[:n]):
            return n + 1  # the first game at N-1 is the Crawford game
    return None


def crawford_notice(series: Series, games: Sequence[Game]) -> str:
    """What the pages and entry forms say of the next game of ``series`` (after
    ``games``): that it is the Crawford game, played without doubling, or a post-Crawford
    game, where the cube is back (S7); empty otherwise."""
    crawford = crawford_game(series, games)
    number = len(games) + 1
    if crawford is None or series.closed:
        return ""
    if crawford == number:
        return _("Game %(number)s is the Crawford game: no doubling (S7).") % {"number": number}
    return _("Game %(number)s is post-Crawford: the doubling cube is used again (S7).") % {
        "number": number
    }


def games_still_possible(series: Series, games: Sequence[Game]) -> int:
    """The most games ``series`` can still take after ``games``: N games less those
    played, or in a series to N points the longest way to N from the score - every game
    a win of 1 point or, where the tournament has draws (L10), a draw (L11)."""
    t = series.tournament
    if t.series_mode == SeriesMode.GAMES:
        return max(series.target - len(games), 0)
    target = 2 * series.target  # in half points
    one, two = (int(score * 2) for score in series_scores(series, games))
    steps = [(2, 0), (0, 2)]
    if GameKind.DRAW in tournament_kinds(t):
        half = int(draw_points(series) * 2)
        steps.append((half, half))

    @cache
    def longest(a: int, b: int) -> int:
        if a >= target or b >= target:
            return 0
        return 1 + max(longest(a + da, b + db) for da, db in steps)

    return longest(one, two)


def result_rules(
    *, series: Series, games: Sequence[Game], number: int | None = None
) -> ResultRules:
    """The rules of game ``number`` (default: the next) of ``series`` whose games, in
    order, are ``games`` (only those before ``number`` count)."""
    t = series.tournament
    number = len(games) + 1 if number is None else number
    before = list(games[: max(number - 1, 0)])
    cube = tournament_has_cube(t)
    crawford_number = crawford_game(series, before)
    crawford = crawford_number == len(before) + 1
    tags = dict(tournament_tags(t))
    if cube and t.series_mode == SeriesMode.POINTS:
        tags |= match_tags(length=series.target, crawford=crawford)
    return ResultRules(
        variant=t.variant,
        number=number,
        kinds=tournament_kinds(t),
        cube=cube,
        crawford=crawford,
        first_colour=first_colour(t.variant),
        starter=series_next_starter(series, before),
        tags=tags,
        post_crawford=crawford_number is not None and crawford_number <= len(before),
    )
