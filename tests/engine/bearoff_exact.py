"""An exact two-sided bear-off recursion written for the tests, independently of
engine.evaluator.bearoff: pure Python, its plays from ``legal_turns`` (the engine's
legal moves, RULES L6-L7), its scoring from L8 (the first side off wins; every position
here has checkers off on both sides, so no mars)."""

from __future__ import annotations

import itertools
from functools import cache

from engine.movegen import legal_turns
from engine.position import Position

Home = tuple[int, ...]  # counts on points 1..6
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]  # all 36, each 1/36


def homes(low: int, high: int) -> list[Home]:
    """Every arrangement of ``low``..``high`` checkers on points 1-6."""
    return [h for h in itertools.product(range(high + 1), repeat=6) if low <= sum(h) <= high]


def board(h: Home) -> tuple[int, ...]:
    return (15 - sum(h), *h, *([0] * 20))


def position(me: Home, opp: Home) -> Position:
    """White to move with ``me`` at home, black with ``opp`` at home (each in its own
    numbering)."""
    return Position("long", 0, board(me), board(opp))


@cache
def plays(me: Home, dice: tuple[int, int]) -> tuple[Home, ...]:
    """The mover's home after each legal turn (the opponent's home does not matter
    for a bear-off: it is points the mover never reaches)."""
    found = legal_turns(position(me, (1, 0, 0, 0, 0, 0)), list(dice))
    return tuple(sorted({tuple(t.position.white[1:7]) for t in found}))


@cache
def win(me: Home, opp: Home) -> float:
    """The exact chance that the side to move with ``me`` wins against ``opp``."""
    total = 0.0
    for dice in ROLLS:
        total += max(1.0 if not sum(h) else 1.0 - win(opp, h) for h in plays(me, dice))
    return total / 36


def equity(me: Home, opp: Home) -> float:
    """The exact equity (no mars possible: both sides have borne off)."""
    return 2 * win(me, opp) - 1


def pair_boards(me: Home, opp: Home) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return board(me), board(opp)
