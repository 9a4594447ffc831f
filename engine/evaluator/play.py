"""Turns as the evaluator sees them: every legal end of a roll as a pair of boards (the
engine's one move generator, :func:`engine.movegen.generate`, with no Position or
notation built), and their equities for the side that played them, at 0-ply (the net
on each end) or 1-ply (the opponent's best answer to each of its 21 rolls, averaged)."""

from __future__ import annotations

import numpy as np

from engine.evaluator.fastgen import fast_ends
from engine.evaluator.judge import position_outputs
from engine.evaluator.net import Floats, Net, equity, flip
from engine.movegen import generate
from engine.steps import turn_state
from engine.variants import BAR, CHECKERS, OFF, START, Rules, Variant, variant_named

BoardPair = tuple[tuple[int, ...], tuple[int, ...]]

LONG = variant_named("long")
RULES = Rules()
# the 21 distinct rolls, higher die first, and their weight among the 36 (1/36 a double)
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
ROLL_WEIGHTS = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])


def ends(
    me: tuple[int, ...], opp: tuple[int, ...], side: int, dice: tuple[int, int],
    variant: Variant = LONG, rules: Rules = RULES,
) -> list[BoardPair]:  # fmt: skip
    """The boards (mover's, opponent's) after each legal end of ``dice`` (higher first);
    one end, the boards unchanged, when nothing can be played (L6)."""
    state = turn_state(variant, rules, side, dice)
    if not (state.hits or state.every_step or me[BAR] or me[START]) and state.one_phase:
        return [(b, opp) for b in fast_ends(state, me, opp)]
    return [(e.me, e.opp) for e in generate(state, list(me), list(opp))]


def terminal(me: tuple[int, ...], opp: tuple[int, ...], mars: bool = True) -> float | None:
    """The points the mover has won when it has borne off everything (L8), else None."""
    if me[OFF] < CHECKERS:
        return None
    return 2.0 if mars and opp[OFF] == 0 else 1.0


def outcomes(net: Net, cands: list[BoardPair]) -> Floats:
    """The outputs (win, win mars, lose mars) for the side that played each end, the
    opponent to move next; a finished game is its certain outcome."""
    out = np.empty((len(cands), 3))
    live = []
    for i, (me, opp) in enumerate(cands):
        won = terminal(me, opp)
        if won is None:
            live.append(i)
        else:
            out[i] = (1.0, 1.0 if won == 2.0 else 0.0, 0.0)
    if live:  # the opponent moves; the bear-off table or a net judges (judge.py)
        out[live] = flip(position_outputs(net, [(cands[i][1], cands[i][0]) for i in live]))
    return out


def equities0(net: Net, cands: list[BoardPair]) -> Floats:
    """The 0-ply equity of each end for the side that played it."""
    return equity(outcomes(net, cands))


def position_equity0(net: Net, me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """The evaluator's equity of a live position for the side to move, before its roll
    (the bear-off table's where it applies, :mod:`engine.evaluator.judge`)."""
    return float(equity(position_outputs(net, [(me, opp)]))[0])


def equities1(net: Net, cands: list[BoardPair], side: int, rules: Rules = RULES) -> Floats:
    """The 1-ply equity of each end for the side that played it (``side``): for each of
    the opponent's 21 rolls, the opponent's best answer by the net, weighted by the
    roll's chance."""
    values = np.empty(len(cands))
    for i, (me, opp) in enumerate(cands):
        won = terminal(me, opp)
        if won is not None:
            values[i] = won
            continue
        replies: list[BoardPair] = []
        sizes = []
        for roll in ROLLS:
            found = ends(opp, me, 1 - side, roll, rules=rules)
            replies.extend(found)
            sizes.append(len(found))
        eq = equities0(net, replies)  # for the opponent
        best = np.maximum.reduceat(eq, np.cumsum([0, *sizes[:-1]]))
        values[i] = -float(best @ ROLL_WEIGHTS)
    return values


def best_index(
    net: Net, cands: list[BoardPair], side: int, ply: int = 0, width: int = 4,
    rules: Rules = RULES,
) -> tuple[int, Floats]:  # fmt: skip
    """The index of the best end and the equities it was chosen by (0-ply for every end;
    at 1-ply the ``width`` best by 0-ply are looked at again, the others keep their 0-ply
    figure minus a point so that they are never chosen)."""
    eq = equities0(net, cands)
    if ply == 0 or len(cands) == 1:
        return int(np.argmax(eq)), eq
    top = np.argsort(-eq)[:width]
    deep = np.full(len(cands), -3.0)
    deep[top] = equities1(net, [cands[i] for i in top], side, rules)
    return int(np.argmax(deep)), deep
