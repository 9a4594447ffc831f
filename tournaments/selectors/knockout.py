"""Places in an elimination event, from its bracket: a pure function over plain data.

A knockout is not ranked by points and tie-breaks but by where each player went out:
single elimination 1 (champion), 2 (the final's loser), 3 and 4 (the third-place series
when played, else 3= for both semi-final losers), then 5= for the quarter-final losers,
9= for those of the round before, and so on; double elimination by the losers' round in
which a player was eliminated, the grand final (and its reset) deciding 1 and 2.
Places are competition ranks: one more than the number of players placed above. While
the event runs, the players still in share the top place. The rules for directors:
docs/standings.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from tournaments.pairing.elimination import Bracket
from tournaments.pairing.types import BracketState

P = TypeVar("P", bound=Hashable)

# (how far the player got, 1 for the third-place series' winner): higher is better.
_Key = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Place(Generic[P]):
    """A player's place: ``rank`` is shared with others when ``shared``; ``out_in`` is the
    stage of the series that eliminated the player ("" while still in, or the champion)."""

    player: P
    rank: int
    shared: bool
    out_in: str = ""


def _keys(bracket: Bracket[P], state: BracketState[P]) -> tuple[dict[P, _Key], dict[P, str], _Key]:
    """How far each eliminated player got, the stage they went out in, and the key of the
    players still in (the champion's)."""
    losers_rounds = max((m.round for m in bracket.matches if m.bracket == "losers"), default=0)
    if bracket.kind == "single":
        final = next(m for m in bracket.matches if m.id == bracket.finals[-1])
        top: _Key = (final.round + 1, 0)
    else:
        top = (losers_rounds + 2, 0)
    deciding = [f for f in bracket.finals if state.matches[f].status != "skipped"][-1:]
    keys: dict[P, _Key] = {}
    stages: dict[P, str] = {}
    for m in bracket.matches:
        played = state.matches[m.id]
        if played.status != "played" or played.loser is None or played.winner is None:
            continue  # byes and walkovers only advance a player
        loser, winner = played.loser, played.winner
        # out: a loser in single elimination's only bracket, or in the losers' bracket
        if m.bracket == "losers" or (bracket.kind == "single" and m.bracket == "winners"):
            keys[loser], stages[loser] = (m.round, 0), m.stage
        elif m.bracket == "third_place":
            keys[winner], keys[loser] = (m.round - 1, 1), (m.round - 1, 0)
            stages[winner] = stages[loser] = m.stage
        elif m.bracket == "final" and m.id in deciding:
            keys[loser], stages[loser] = (losers_rounds + 1, 0), m.stage
    return keys, stages, top


def knockout_places(
    bracket: Bracket[P], results: Mapping[str, int], players: Sequence[P] = ()
) -> list[Place[P]]:
    """The places of the bracket's players (and of ``players`` outside it, last and
    shared), best first; players sharing a place keep the order of ``players``, then of
    the seeding. ``results`` as for ``Bracket.advance``: match id -> winning side.

    >>> from tournaments.pairing.elimination import single_elimination
    >>> b = single_elimination(["A", "B", "C", "D"])
    >>> [(p.player, p.rank, p.shared) for p in knockout_places(b, {"W1-1": 0, "W1-2": 0})]
    [('A', 1, True), ('B', 1, True), ('C', 3, True), ('D', 3, True)]
    >>> [(p.player, p.rank) for p in knockout_places(b, {"W1-1": 0, "W1-2": 0, "W2-1": 1})]
    [('B', 1), ('A', 2), ('C', 3), ('D', 3)]
    """
    state = bracket.advance(results)
    keys, stages, top = _keys(bracket, state)
    order = list(dict.fromkeys([*players, *bracket.seeds]))
    outside: _Key = (-1, 0)
    in_bracket = set(bracket.seeds)

    def key(player: P) -> _Key:
        if player not in in_bracket:
            return outside
        return keys.get(player, top)

    ranked = sorted(order, key=lambda p: key(p), reverse=True)  # stable: ties keep ``order``
    counts: dict[_Key, int] = {}
    for player in ranked:
        counts[key(player)] = counts.get(key(player), 0) + 1
    places: list[Place[P]] = []
    above = 0
    for i, player in enumerate(ranked):
        if i and key(ranked[i - 1]) != key(player):
            above = i
        places.append(Place(player, above + 1, counts[key(player)] > 1, stages.get(player, "")))
    return places


__all__ = ["Place", "knockout_places"]
