"""``eval`` and ``hint`` for Lurč (docs/analysis_lurc.md): the values the analysis uses
(:mod:`engine.evaluator.lurc_analysis`), for one position.

- A play's value is the net's equity of its end for the mover (Z11: a win is one point,
  equity 2p - 1, no mars); an end after a paš played in full is valued with the mover to
  roll again (Z7), so a paš's extra roll is part of the play's value.
- A roll's plays are the ends found by the beam over the steps
  (:func:`engine.evaluator.lurc_play.beam_choices`, :data:`WIDTH` wide); after a houšek
  (1-2) without its paš those of all six paš choices (Z8: the paš is part of the
  play), with ``[2, 1, n, n]`` those of the paš n-n only.
- Before its roll a position's value is the mean over the 21 rolls of each roll's best
  (a houšek its best paš), each searched :data:`ROLL_WIDTH` wide.
- 1-ply: the :data:`DEEP` best ends by 0-ply are valued again by the mean over the next
  roll (the mover's own after a paš played in full, else the opponent's, turned over) of
  that roll's best by 0-ply; ``hint`` lists those."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from engine.evaluator.lurc_play import (
    ROLL_WEIGHTS,
    ROLLS,
    Board,
    Cand,
    Choice,
    beam_choices,
    roll_values,
    values,
)
from engine.evaluator.net import Net
from engine.movegen import Turn, after
from engine.position import Position
from engine.variants import CHECKERS, OFF

WIDTH = 32  # the beam for the plays of the roll asked (the analysis's)
ROLL_WIDTH = 8  # the beam for each of the 21 rolls' best (the analysis's luck)
DEEP = 4  # the plays of a roll valued again at 1-ply (the best by 0-ply)


class LurcPlay(NamedTuple):
    """One play of a roll: the legal turn (steps, paš chosen, position after, who rolls
    next) and its equity for the mover."""

    turn: Turn
    equity: float
    again: bool


def _deep(net: Net, cand: Cand, side: int) -> float:
    """The 1-ply value of an end for the side that played it."""
    me, opp, again = cand
    if me[OFF] == CHECKERS:
        return 1.0
    if again:  # the mover rolls again (Z7): its own next roll
        return float(roll_values(net, me, opp, side, ROLL_WIDTH) @ ROLL_WEIGHTS)
    return -float(roll_values(net, opp, me, 1 - side, ROLL_WIDTH) @ ROLL_WEIGHTS)


def _valued(net: Net, cands: list[Cand], side: int, ply: int) -> np.ndarray:
    eq = values(net, cands)
    if ply == 0:
        return eq
    top = np.argsort(-eq, kind="stable")[:DEEP]
    out = np.full(len(cands), -np.inf)  # the others rank below the plays looked at again
    for i in top:
        out[i] = _deep(net, cands[int(i)], side)
    return out


def lurc_position_value(net: Net, position: Position, ply: int = 0) -> float:
    """The equity of the side to move before its roll: the mean over the 21 rolls of
    each roll's best (at 1-ply, of the best looked at again)."""
    side = position.turn
    me, opp = position.board(side), position.board(1 - side)
    if ply == 0:
        return float(roll_values(net, me, opp, side, ROLL_WIDTH) @ ROLL_WEIGHTS)
    best = []
    for roll in ROLLS:
        choices = beam_choices(net, me, opp, side, list(roll), ROLL_WIDTH)
        cands = [(c.me, c.opp, c.again) for c in choices]
        best.append(float(np.max(_valued(net, cands, side, 1))))
    return float(np.array(best) @ ROLL_WEIGHTS)


def lurc_plays(net: Net, position: Position, dice: Sequence[int], ply: int = 0
               ) -> list[LurcPlay]:  # fmt: skip
    """The plays of ``dice`` ([a, b], or a houšek's [2, 1, n, n]) found by the beam,
    best first, each with its equity for the mover at ``ply``."""
    side = position.turn
    me: Board = position.board(side)
    opp: Board = position.board(1 - side)
    choices = beam_choices(net, me, opp, side, list(dice), WIDTH)
    eq = _valued(net, [(c.me, c.opp, c.again) for c in choices], side, ply)
    order = sorted(range(len(choices)), key=lambda i: -float(eq[i]))
    roll = (max(dice[0], dice[1]), min(dice[0], dice[1]))
    return [LurcPlay(_turn(position, roll, choices[i]), float(eq[i]), choices[i].again)
            for i in order if np.isfinite(eq[i])]  # fmt: skip


def _turn(position: Position, roll: tuple[int, int], choice: Choice) -> Turn:
    side = position.turn
    nxt = side if choice.again else 1 - side
    return Turn(roll, choice.steps, after(position, choice.me, choice.opp, nxt), choice.pas)
