"""Crosstables for the tournament and print pages, in the standings' order: a round robin
has a column per opponent (the series' score), a Swiss a column per round (the opponent's
number in this table, the colour the player had in the series' first game and the series'
result, as Swiss-Manager prints them: "3w 1", "5b ½", a bye "+"). Both number the
players by their row, so a number in a cell points at a row of the same table."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from tournaments.models import SeriesStatus
from tournaments.selectors.rows import SeriesRow
from tournaments.selectors.standings import StandingRow

WHITE, BLACK = "w", "b"


@dataclass(frozen=True, slots=True)
class CrossCell:
    """A round robin cell: one series against the column's player."""

    series: SeriesRow
    score_for: Decimal
    score_against: Decimal
    won: bool | None  # None: not decided


@dataclass(frozen=True, slots=True)
class SwissCell:
    """A Swiss cell: the player's series in the column's round."""

    series: SeriesRow
    opponent: int | None  # the opponent's row number (None: a bye)
    opponent_name: str
    colour: str  # WHITE / BLACK in the series' first game; "" before it is played
    result: str  # "1", "0", "½"; "+" / "-" without play (bye, forfeit); "" unfinished

    @property
    def bye(self) -> bool:
        return self.series.player2_id is None


CrossRows = list[tuple[StandingRow, list[list[CrossCell] | None]]]
SwissRows = list[tuple[StandingRow, list[list[SwissCell]]]]


def round_robin_crosstable(standings: list[StandingRow], series: list[SeriesRow]) -> CrossRows:
    """Each row a player, each column an opponent (``None`` on the diagonal)."""
    cells: dict[tuple[int, int], list[CrossCell]] = defaultdict(list)
    for s in series:
        if s.player1_id is None or s.player2_id is None or not s.closed:
            continue
        for me, opp, mine, theirs in (
            (s.player1_id, s.player2_id, s.score1, s.score2),
            (s.player2_id, s.player1_id, s.score2, s.score1),
        ):
            won = None if s.winner_id is None else s.winner_id == me
            cells[(me, opp)].append(CrossCell(s, mine, theirs, won))
    order = [row.player_id for row in standings]
    return [
        (
            row,
            [
                None if opp == row.player_id else cells.get((row.player_id, opp), [])
                for opp in order
            ],
        )
        for row in standings
    ]


def _result(s: SeriesRow, me: int) -> str:
    if not s.closed:
        return ""
    if s.player2_id is None:  # a bye
        return "+"
    won = s.winner_id == me
    if s.status == SeriesStatus.FORFEITED:
        return "+" if won else "-"
    if s.winner_id is None:
        return "½"
    return "1" if won else "0"


def swiss_crosstable(
    standings: list[StandingRow],
    series: list[SeriesRow],
    first_whites: dict[int, int],
    round_numbers: dict[int, int],
) -> tuple[list[int], SwissRows]:
    """The round numbers (the columns) and each row's series per round.

    ``first_whites`` maps a series id to the player who had white in its first game,
    ``round_numbers`` a round id to its number; ``series`` come with their players (not
    their rounds: a query each)."""
    number = {row.player_id: i for i, row in enumerate(standings, start=1)}
    rounds = sorted({round_numbers[s.round_id] for s in series if s.round_id is not None})
    column = {n: i for i, n in enumerate(rounds)}
    cells: dict[int, list[list[SwissCell]]] = {
        row.player_id: [[] for _ in rounds] for row in standings
    }
    for s in series:
        if s.round_id is None:
            continue
        for me, opp in ((s.player1_id, s.player2_id), (s.player2_id, s.player1_id)):
            if me is None or me not in cells:
                continue
            white = first_whites.get(s.pk)
            colour = "" if white is None or opp is None else WHITE if white == me else BLACK
            other = s.player2 if me == s.player1_id else s.player1
            cells[me][column[round_numbers[s.round_id]]].append(
                SwissCell(
                    series=s,
                    opponent=None if opp is None else number.get(opp),
                    opponent_name=other.name if other is not None else "",
                    colour=colour,
                    result=_result(s, me),
                )
            )
    return rounds, [(row, cells[row.player_id]) for row in standings]
