"""Swiss pairings as one maximum-weight matching per round.

Every allowed pair (no rematch, not prohibited by the director) is an edge of a graph;
with an odd number of players a bye node joins it, linked to everyone who has not had a
bye. networkx's ``max_weight_matching(maxcardinality=True)`` then finds, among the
matchings that pair everyone, the one of greatest weight. The integer weights rank the
pairings lexicographically by the cost levels in ``LEVELS`` (see docs/pairings.md): the
bye as low as possible, the fewest floats, the smallest score differences, then
tie-breaks in the spirit of the FIDE Dutch system."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Generic

import networkx as nx

from tournaments.pairing.types import (
    FloatDirection,
    Id,
    PairExplanation,
    PairingError,
    Score,
    SwissPairing,
    SwissPlayer,
    Why,
)


def _exact(score: Score) -> Fraction:
    # str() first, so that a float 0.1 means one tenth rather than its binary value.
    return Fraction(Decimal(str(score))) if isinstance(score, float) else Fraction(score)


def _show(score: Score) -> str:
    value = _exact(score)
    return str(value.numerator) if value.denominator == 1 else str(float(value))


@dataclass(frozen=True, slots=True)
class _Seat(Generic[Id]):
    """A player placed in the standings: score group (0 = top) and place in it."""

    player: SwissPlayer[Id]
    order: int
    group: int
    place: int
    group_size: int
    points: int  # the score scaled to an integer


# The levels of an edge's cost, most significant first (see docs/pairings.md).
LEVELS = (
    "bye_group",  # the bye recipient's score group, counted from the bottom
    "floats",  # 1 for a pair across score groups
    "difference",  # the squared score difference of the pair
    "history",  # players floating the same way as in their previous round
    "bye_rank",  # the bye recipient's place in its group, counted from the bottom
    "downfloater",  # the downfloater's place in its group, counted from the bottom
    "upfloater",  # the upfloater's place in its group, counted from the top
    "order",  # squared distance from the Dutch S1[i]-S2[i] pairing
)


class _Weights:
    """Edge weights: the cost levels packed into one integer per edge.

    A level's unit is one more than the largest total that the levels below it can reach
    over a whole matching, so one unit of a level outweighs any change below it. Every
    perfect matching has the same number of edges, so ``base - cost`` keeps the order
    and makes every weight positive, as maxcardinality wants."""

    def __init__(self, seats: Sequence[_Seat[Id]], groups: int) -> None:
        n = len(seats)
        edges = (n + 1) // 2
        spread = seats[0].points - seats[-1].points
        largest_total = {
            "bye_group": groups,
            "floats": edges,
            "difference": edges * spread * spread,
            "history": 2 * edges,
            "bye_rank": n,
            "downfloater": edges * n,
            "upfloater": edges * n,
            "order": edges * n * n,
        }
        unit = 1
        self.units: dict[str, int] = {}
        for level in reversed(LEVELS):
            self.units[level] = unit
            unit *= largest_total[level] + 1
        self.base = unit
        self.groups = groups

    def _weight(self, cost: dict[str, int]) -> int:
        return self.base - sum(self.units[level] * value for level, value in cost.items())

    def pair(self, high: _Seat[Id], low: _Seat[Id]) -> int:
        """The weight of a pair; ``high`` stands above ``low`` in the standings."""
        if high.group == low.group:
            ideal = high.group_size // 2
            return self._weight({"order": (low.place - high.place - ideal) ** 2})
        difference = high.points - low.points
        repeats = (_last_float(high.player) == "down") + (_last_float(low.player) == "up")
        return self._weight(
            {
                "floats": 1,
                "difference": difference * difference,
                "history": repeats,
                "downfloater": high.group_size - 1 - high.place,
                "upfloater": low.place,
                # Several floats between two groups: the better floater meets the better
                # resident, as S1[i] meets S2[i] in the Dutch system.
                "order": (high.place - low.place) ** 2,
            }
        )

    def bye(self, seat: _Seat[Id]) -> int:
        return self._weight(
            {
                "bye_group": self.groups - 1 - seat.group,
                "bye_rank": seat.group_size - 1 - seat.place,
            }
        )


def _last_float(player: SwissPlayer[Id]) -> FloatDirection | None:
    return player.floats[-1] if player.floats else None


def _seat_players(players: Sequence[SwissPlayer[Id]]) -> list[_Seat[Id]]:
    if len({p.id for p in players}) != len(players):
        raise PairingError("a player appears twice in the list to pair", code="player-twice")
    if len({p.rank for p in players}) != len(players):
        raise PairingError("two players have the same rank", code="same-rank")
    exact = {p.id: _exact(p.score) for p in players}
    scores = sorted(set(exact.values()), reverse=True)
    scale = math.lcm(*(s.denominator for s in scores))
    sizes, placed = Counter(exact.values()), Counter[Fraction]()
    seats = []
    for order, player in enumerate(sorted(players, key=lambda p: (-exact[p.id], p.rank))):
        score = exact[player.id]
        group, place = scores.index(score), placed[score]
        seats.append(_Seat(player, order, group, place, sizes[score], int(score * scale)))
        placed[score] += 1
    return seats


def _may_meet(
    a: SwissPlayer[Id], b: SwissPlayer[Id], prohibited: Collection[frozenset[Id]]
) -> bool:
    return (
        b.id not in a.opponents
        and a.id not in b.opponents
        and frozenset((a.id, b.id)) not in prohibited
    )


def pair_swiss_round(
    players: Sequence[SwissPlayer[Id]],
    *,
    prohibited: Collection[frozenset[Id]] = frozenset(),
) -> SwissPairing[Id]:
    """Pair one Swiss round; raises ``PairingError`` if no complete legal pairing exists.

    >>> ps = [SwissPlayer(n, s, r) for r, (n, s) in enumerate(
    ...     [("Ann", 1), ("Bob", 1), ("Cy", 0), ("Di", 0)], start=1)]
    >>> [(p.first, p.second) for p in pair_swiss_round(ps).pairs]
    [('Ann', 'Bob'), ('Cy', 'Di')]
    """
    if not players:
        raise PairingError("there are no players to pair", code="no-players")
    seats = _seat_players(players)
    weights = _Weights(seats, seats[-1].group + 1)
    edges = [
        (high.order, low.order, weights.pair(high, low), high.points - low.points)
        for i, high in enumerate(seats)
        for low in seats[i + 1 :]
        if _may_meet(high.player, low.player, prohibited)
    ]
    bye_node = len(seats)
    if len(seats) % 2:
        edges += [(s.order, bye_node, weights.bye(s), 0) for s in seats if not s.player.had_bye]
    bound = _lower_bound(seats, prohibited)
    limit = None if bound is None else bound.limit(bound.levels[2])

    def kept(edge: tuple[int, int, int, int]) -> bool:
        u, v, _, difference = edge
        if limit is None or bound is None or difference == 0:  # all, or inside a group, or bye
            return True
        sending = bound.sending
        return difference <= limit and seats[u].group in sending and seats[v].group in sending

    while True:
        graph = nx.Graph()
        graph.add_nodes_from(range(len(seats) + len(seats) % 2))
        graph.add_weighted_edges_from(e[:3] for e in edges if kept(e))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        partner = {a: b for a, b in matching} | {b: a for a, b in matching}
        if limit is None or bound is None:
            break
        # Exact, not a heuristic (see _Bound); otherwise retry with more pairs.
        reached = _levels(seats, partner, bye_node)
        if reached is None or reached[:2] != bound.levels[:2]:
            limit = None
        elif bound.proves(reached[2], limit):
            break
        else:
            limit = bound.limit(reached[2])
    unpaired = [s.player.id for s in seats if s.order not in partner]
    if unpaired:
        raise _no_pairing(seats, unpaired)
    return _explain(seats, partner, bye_node, prohibited)


Levels = tuple[int, int, int]  # (bye's group from the bottom, floats, sum of squared differences)


@dataclass(frozen=True, slots=True)
class _Bound:
    """Lower bounds on the first three levels over all complete pairings, and the score
    groups that must send players out.

    Most pairs are never chosen, so the matching is first solved without them: across
    groups, only pairs between groups that must send players out and at most ``limit``
    apart in score. A score group (less the bye) whose largest pairing inside leaves k
    players out sends at least k floats out. With the fewest floats, each group sends
    exactly that many, and pairing these players in score order gives the smallest sum of
    squares (a bound, as it may pair two players of one group). So when the smaller graph
    reaches the bye and float bounds, ``proves`` tells whether a pairing with a pair left
    out could still do better: it would have more floats, a float from a group that sends
    none, or a float longer than ``limit`` and so a larger sum of squares."""

    levels: Levels
    sending: frozenset[int]
    gap: int  # the smallest score difference between two sending groups

    def _others(self) -> int:
        return max(self.levels[1] - 1, 0) * self.gap**2

    def limit(self, squares: int) -> int:
        """The longest float in a pairing of this sum of squares, the others at least
        ``gap`` long."""
        return math.isqrt(max(squares - self._others(), 0))

    def proves(self, squares: int, limit: int) -> bool:
        return squares < (limit + 1) ** 2 + self._others()


def _lower_bound(
    seats: Sequence[_Seat[Id]], prohibited: Collection[frozenset[Id]]
) -> _Bound | None:
    groups = seats[-1].group + 1
    members: list[list[_Seat[Id]]] = [[] for _ in range(groups)]
    for s in seats:
        members[s.group].append(s)
    bye_level, bye_group = 0, None
    if len(seats) % 2:
        eligible = [s.group for s in seats if not s.player.had_bye]
        if not eligible:
            return None
        bye_group = max(eligible)
        bye_level = groups - 1 - bye_group
    leaving: list[int] = []
    for g, group in enumerate(members):
        to_pair = len(group) - (g == bye_group)
        pairs = min(to_pair // 2, _pairs_inside([s.player for s in group], prohibited))
        leaving += [group[0].points] * (to_pair - 2 * pairs)
    squares = sum((leaving[i] - leaving[i + 1]) ** 2 for i in range(0, len(leaving), 2))
    sending = sorted(set(leaving), reverse=True)
    gap = min((a - b for a, b in itertools.pairwise(sending)), default=0)
    groups_out = frozenset(g for g, group in enumerate(members) if group[0].points in sending)
    return _Bound((bye_level, len(leaving) // 2, squares), groups_out, gap)


def _pairs_inside(players: Sequence[SwissPlayer[Id]], prohibited: Collection[frozenset[Id]]) -> int:
    """The most pairs that can be made among ``players`` alone."""
    inside = nx.Graph()
    inside.add_nodes_from(range(len(players)))
    inside.add_edges_from(
        (i, j)
        for i, a in enumerate(players)
        for j in range(i + 1, len(players))
        if _may_meet(a, players[j], prohibited)
    )
    # Dirac: a minimum degree of half the players gives a Hamiltonian cycle, hence pairs
    # for all but at most one of them, with no matching to compute.
    if min((d for _, d in inside.degree), default=0) >= len(players) / 2:
        return len(players) // 2
    return len(nx.max_weight_matching(inside))


def _levels(seats: Sequence[_Seat[Id]], partner: dict[int, int], bye_node: int) -> Levels | None:
    """The first three levels reached by a matching; None if it leaves someone unpaired."""
    if len(partner) < len(seats) + len(seats) % 2:
        return None
    groups = seats[-1].group + 1
    bye_level = floats = squares = 0
    for seat in seats:
        other = partner[seat.order]
        if other == bye_node:
            bye_level = groups - 1 - seat.group
        elif other > seat.order and seats[other].group != seat.group:
            floats += 1
            squares += (seat.points - seats[other].points) ** 2
    return bye_level, floats, squares


def _no_pairing(seats: Sequence[_Seat[Id]], unpaired: Sequence[Id]) -> PairingError:
    if len(seats) % 2 and all(s.player.had_bye for s in seats):
        return PairingError(
            "no legal pairing: the number of players is odd and everyone has had a bye",
            code="no-pairing-byes",
        )
    names = ", ".join(str(p) for p in unpaired[:6])
    more = "…" if len(unpaired) > 6 else ""
    return PairingError(
        f"no legal pairing: whatever the arrangement, {len(unpaired)} players have no "
        f"opponent left whom they have not met and may meet (for example {names}{more})",
        code="no-pairing",
        params={"count": len(unpaired), "players": list(unpaired)},
    )


def _explain(
    seats: Sequence[_Seat[Id]],
    partner: dict[int, int],
    bye_node: int,
    prohibited: Collection[frozenset[Id]],
) -> SwissPairing[Id]:
    bye_seat = next((s for s in seats if partner[s.order] == bye_node), None)
    pairs = []
    for high in seats:
        if partner[high.order] == bye_node or partner[high.order] < high.order:
            continue
        low = seats[partner[high.order]]
        a, b = high.player, low.player
        if high.group == low.group:
            reason = f"{a.id} and {b.id} both have {_show(a.score)}: paired inside their group"
            same = Why("same-group", (("first", a.id), ("second", b.id), ("score", _show(a.score))))
            pairs.append(PairExplanation(a.id, b.id, a.score, b.score, reason, why=same))
            continue
        why, cause = _why_float(seats, high.group, bye_seat, prohibited)
        reason = (
            f"{a.id} ({_show(a.score)}) floated down to score group {_show(b.score)} "
            f"to play {b.id}: {why}"
        )
        floated = Why(
            "floated",
            (("first", a.id), ("first_score", _show(a.score)), ("group", _show(b.score)),
             ("second", b.id), ("cause", cause.as_dict())),
        )  # fmt: skip
        pairs.append(PairExplanation(a.id, b.id, a.score, b.score, reason, a.id, b.id, floated))
    if bye_seat is None:
        return SwissPairing(tuple(pairs))
    bye_reason, bye_why = _why_bye(seats, bye_seat)
    return SwissPairing(tuple(pairs), bye_seat.player.id, bye_reason, bye_why)


def _why_float(
    seats: Sequence[_Seat[Id]],
    group: int,
    bye_seat: _Seat[Id] | None,
    prohibited: Collection[frozenset[Id]],
) -> tuple[str, Why]:
    members = [s.player for s in seats if s.group == group and s is not bye_seat]
    score = _show(members[0].score)
    # Pairs that stay above a score line use up an even number of the players above it.
    above = sum(1 for s in seats if s.group <= group and s is not bye_seat)
    if above % 2:
        if above == len(members):
            return (
                f"score group {score} has an odd number of players",
                Why("odd-group", (("score", score),)),
            )
        return (
            f"an odd number of players ({above}) have {score} points or more",
            Why("odd-above", (("count", above), ("score", score))),
        )
    if 2 * _pairs_inside(members, prohibited) < len(members):
        return (
            f"the players of score group {score} cannot all be paired among themselves "
            "(earlier meetings or prohibited pairs)",
            Why("group-blocked", (("score", score),)),
        )
    return (
        "the fewest floats that give every player of the round a legal opponent",
        Why("fewest-floats"),
    )


def _why_bye(seats: Sequence[_Seat[Id]], bye_seat: _Seat[Id]) -> tuple[str, Why]:
    name, score = bye_seat.player.id, _show(bye_seat.player.score)
    eligible = [s for s in seats if not s.player.had_bye]
    params = (("player", name), ("score", score))
    if bye_seat is eligible[-1]:
        return (
            f"{name} ({score}) has the bye: the lowest-placed player who has not had one",
            Why("bye-lowest", params),
        )
    return (
        f"{name} ({score}) has the bye: lower-placed players without a bye are paired, "
        "so that everyone else has a legal opponent with the fewest floats",
        Why("bye-others-paired", params),
    )
