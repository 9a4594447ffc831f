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


Key = tuple[BoardPair, int, tuple[int, int]]  # (mover's board, opponent's), side, roll


class Memo:
    """One game's analysis' move searches and their 0-ply equities, by position and
    roll, kept for two turns: a turn's 1-ply look-ahead searches the opponent's answers
    to the play made, which are the next turn's rolls, and the luck and the errors look
    at the same best plays (a fifth of a 1-ply analysis' searches and values are asked
    twice). Only the last two turns are kept, so that a long game does not hold them
    all. The values are those computed without it: a position's value does not depend
    on what else is evaluated with it (tests/engine/test_analysis_speed.py)."""

    __slots__ = ("now", "old")

    def __init__(self) -> None:
        self.now: dict[Key, tuple[list[BoardPair], Floats]] = {}
        self.old: dict[Key, tuple[list[BoardPair], Floats]] = {}

    def next_turn(self) -> None:
        self.old, self.now = self.now, {}

    def rolls(
        self, net: Net, positions: list[tuple[tuple[int, ...], tuple[int, ...], int]],
        rules: Rules,
    ) -> list[tuple[list[BoardPair], Floats]]:  # fmt: skip
        """For each position (mover's board, opponent's, side) and each of the 21
        :data:`ROLLS`, in that order: the ends (:func:`ends`) and their 0-ply equities
        for the mover (:func:`equities0`), those not known yet evaluated in one batch."""
        keys: list[Key] = [((me, opp), side, roll) for me, opp, side in positions for roll in ROLLS]
        todo: dict[Key, list[BoardPair]] = {}
        for key in keys:
            if key in self.now or key in todo:
                continue
            known = self.old.get(key)
            if known is not None:
                self.now[key] = known
                continue
            (me, opp), side, roll = key
            todo[key] = ends(me, opp, side, roll, rules=rules)
        if todo:
            cands = [c for found in todo.values() for c in found]
            eq = equities0(net, cands)
            lo = 0
            for key, found in todo.items():
                self.now[key] = (found, eq[lo : lo + len(found)])
                lo += len(found)
        return [self.now[key] for key in keys]


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


def equities1(
    net: Net, cands: list[BoardPair], side: int, rules: Rules = RULES, memo: Memo | None = None
) -> Floats:
    """The 1-ply equity of each end for the side that played it (``side``): for each of
    the opponent's 21 rolls, the opponent's best answer by the net, weighted by the
    roll's chance. The answers of every end are judged in one batch; ``memo`` remembers
    them for a game's next turn."""
    values = np.empty(len(cands))
    live: list[int] = []
    for i, (me, opp) in enumerate(cands):
        won = terminal(me, opp)
        if won is None:
            live.append(i)
        else:
            values[i] = won
    if not live:
        return values
    if memo is None:
        memo = Memo()
    answers = memo.rolls(net, [(cands[i][1], cands[i][0], 1 - side) for i in live], rules)
    best = np.array([eq.max() for _found, eq in answers]).reshape(len(live), len(ROLLS))
    for row, i in enumerate(live):
        values[i] = -float(best[row] @ ROLL_WEIGHTS)  # the opponent's, negated
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
