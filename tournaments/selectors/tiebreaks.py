"""Tie-breaks and ranks for the standings: pure functions over series outcomes.

An `Outcome` is one player's side of one counted series; `standings.py` makes them from the
series and their games. Every tie-break here is "higher is better". The rules are written
for tournament directors in docs/standings.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from tournaments.models.tournament import TieBreak

ZERO = Decimal(0)
HALF = Decimal("0.5")
ONE = Decimal(1)

# The round a series belongs to: its round number, or None for a series without a round
# (counted after all numbered rounds, as one final pseudo-round).
RoundKey = int | None

TieBreakValues = tuple[tuple[str, Decimal | None], ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's side of one counted series; a bye has no opponent."""

    player_id: int
    opponent_id: int | None
    round_number: RoundKey
    weight: Decimal  # the series result: 1 won (a bye too), ½ drawn, 0 lost
    points: Decimal  # tournament points the player scored in this series
    game_points_for: Decimal = ZERO
    game_points_against: Decimal = ZERO
    mars_wins: int = 0


@dataclass(frozen=True, slots=True)
class Placing:
    """Where a player finished: the rank, whether it is shared, the tie-break values shown."""

    player_id: int
    rank: int
    shared: bool
    tiebreaks: TieBreakValues


def round_order(outcomes: Iterable[Outcome]) -> list[RoundKey]:
    """The rounds that have a counted series, in number order, the pseudo-round last."""
    keys = {o.round_number for o in outcomes}
    numbered: list[RoundKey] = [k for k in sorted(k for k in keys if k is not None)]
    return [*numbered, None] if None in keys else numbered


def cumulative_points(
    outcomes: Sequence[Outcome], player_ids: Iterable[int]
) -> dict[int, tuple[tuple[RoundKey, Decimal], ...]]:
    """Each player's running total of tournament points after each round."""
    scored: dict[tuple[int, RoundKey], Decimal] = defaultdict(Decimal)
    for o in outcomes:
        scored[o.player_id, o.round_number] += o.points
    rounds = round_order(outcomes)
    progress: dict[int, tuple[tuple[RoundKey, Decimal], ...]] = {}
    for player_id in player_ids:
        total = ZERO
        steps: list[tuple[RoundKey, Decimal]] = []
        for key in rounds:
            total += scored.get((player_id, key), ZERO)
            steps.append((key, total))
        progress[player_id] = tuple(steps)
    return progress


def head_to_head(group: Collection[int], outcomes: Iterable[Outcome]) -> dict[int, Decimal]:
    """Tournament points each player of `group` scored in series against the others."""
    values = dict.fromkeys(group, ZERO)
    for o in outcomes:
        if o.player_id in values and o.opponent_id in values:
            values[o.player_id] += o.points
    return values


def _opponents_points(
    outcomes: Iterable[Outcome], points: Mapping[int, Decimal]
) -> dict[int, list[tuple[Decimal, Decimal]]]:
    """Per player, one (opponent's points, result weight) pair per series; byes left out."""
    faced: dict[int, list[tuple[Decimal, Decimal]]] = defaultdict(list)
    for o in outcomes:
        if o.opponent_id is not None:
            faced[o.player_id].append((points.get(o.opponent_id, ZERO), o.weight))
    return faced


def _buchholz_cut1(faced: list[tuple[Decimal, Decimal]]) -> Decimal:
    if len(faced) < 2:
        return ZERO
    opponents = [p for p, _ in faced]
    return sum(opponents, ZERO) - min(opponents)


def global_values(
    key: str,
    *,
    player_ids: Iterable[int],
    outcomes: Sequence[Outcome],
    points: Mapping[int, Decimal],
) -> dict[int, Decimal]:
    """The value of one tie-break (any but head-to-head) for every player."""
    ids = list(player_ids)
    mine: dict[int, list[Outcome]] = {pid: [] for pid in ids}
    for o in outcomes:
        mine.setdefault(o.player_id, []).append(o)
    faced = _opponents_points(outcomes, points)
    if key == TieBreak.BUCHHOLZ:
        return {pid: sum((p for p, _ in faced[pid]), ZERO) for pid in ids}
    if key == TieBreak.BUCHHOLZ_CUT1:
        return {pid: _buchholz_cut1(faced[pid]) for pid in ids}
    if key == TieBreak.SONNEBORN_BERGER:
        return {pid: sum((p * w for p, w in faced[pid]), ZERO) for pid in ids}
    if key == TieBreak.SERIES_WON:
        return {pid: Decimal(sum(1 for o in mine[pid] if o.weight == ONE)) for pid in ids}
    if key == TieBreak.MARS_WINS:
        return {pid: Decimal(sum(o.mars_wins for o in mine[pid])) for pid in ids}
    if key == TieBreak.GAME_POINT_DIFFERENCE:
        return {
            pid: sum((o.game_points_for - o.game_points_against for o in mine[pid]), ZERO)
            for pid in ids
        }
    if key == TieBreak.PROGRESSIVE:
        progress = cumulative_points(outcomes, ids)
        return {pid: sum((total for _, total in progress[pid]), ZERO) for pid in ids}
    raise ValueError(f"unknown tie-break {key!r}; known: {', '.join(TieBreak.values)}")


def _split(group: list[int], value: Mapping[int, Decimal | None]) -> list[list[int]]:
    """The group cut into smaller groups of equal value, the best first, order kept within."""

    def sort_key(pid: int) -> Decimal:
        return value.get(pid) or ZERO

    ordered = sorted(group, key=sort_key, reverse=True)
    parts: list[list[int]] = []
    for pid in ordered:
        if parts and sort_key(parts[-1][0]) == sort_key(pid):
            parts[-1].append(pid)
        else:
            parts.append([pid])
    return parts


def rank_players(
    *,
    player_ids: Sequence[int],
    points: Mapping[int, Decimal],
    tie_breaks: Sequence[str],
    outcomes: Sequence[Outcome],
) -> list[Placing]:
    """Rank players by points, then by each tie-break in turn among those still tied.

    `player_ids` gives the order of players whose rank stays shared (e.g. by name); ranks
    are competition ranks (1, 2, 2, 4). Head-to-head is computed afresh for each group
    still tied when its turn comes; a player no longer tied gets None for it.
    """
    values = {
        key: global_values(key, player_ids=player_ids, outcomes=outcomes, points=points)
        for key in tie_breaks
        if key != TieBreak.HEAD_TO_HEAD
    }
    shown: dict[int, list[Decimal | None]] = {pid: [] for pid in player_ids}
    groups = _split(list(player_ids), points)
    for key in tie_breaks:
        refined: list[list[int]] = []
        for group in groups:
            value: Mapping[int, Decimal | None]
            if key != TieBreak.HEAD_TO_HEAD:
                value = values[key]
            elif len(group) > 1:
                value = head_to_head(group, outcomes)
            else:
                value = {}
            for pid in group:
                shown[pid].append(value.get(pid))
            refined.extend(_split(group, value))
        groups = refined
    placings: list[Placing] = []
    position = 0
    for group in groups:
        for pid in group:
            shown_values = tuple(zip(tie_breaks, shown[pid], strict=True))
            placings.append(Placing(pid, position + 1, len(group) > 1, shown_values))
        position += len(group)
    return placings
