"""Lurč's turns as the evaluator sees them: every legal end of a roll as boards and
whether the mover rolls again (Z7, Z8), and their equities for the mover (Z11: a win is
one point, equity 2p - 1).

A houšek's candidates are the ends of all six paš choices together (Z8: the player
chooses the one that suits best). After a paš played in full the same side rolls again,
so such an end is valued with the mover still to move; any other end with the opponent
to move (its value turned over).

A crowded paš has tens of thousands of ends; :func:`beam_ends` keeps instead the best
``width`` positions by the net after each step, and falls back on every end when the
beam cannot play as many moves as the rules ask (Z10)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from engine.endsearch import ORDER, search_ends
from engine.evaluator.net import Floats, Net, equity
from engine.moves import Step
from engine.steps import TurnState, turn_state
from engine.variants import CHECKERS, LURC, OFF, Rules, Variant

Board = tuple[int, ...]
Cand = tuple[Board, Board, bool]  # mover's board, opponent's, the mover rolls again
RULES = Rules()
Scorer = Callable[[list[Cand]], Floats]  # a player's liking of ends (higher better)
# Lurč's 21 distinct rolls (higher die first) and their chances among the 36
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
ROLL_WEIGHTS = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])


def lurc_ends(
    me: Board, opp: Board, side: int, roll: tuple[int, int], variant: Variant = LURC,
    rules: Rules = RULES,
) -> list[Cand]:  # fmt: skip
    """Every distinct legal end of ``roll`` (higher die first): boards and whether the
    mover rolls again (a paš played in full, the game not over)."""
    out: dict[tuple[Board, Board], bool] = {}
    _, choices = variant.roll_choices(list(roll), me)
    state = turn_state(variant, rules, side, roll)
    for pas in choices:
        phases, again = variant.roll_phases(me, roll, pas)
        total = sum(len(p) for p in phases)
        for steps, m, o in search_ends(state, list(me), list(opp), phases, steps=False):
            full = again and len(steps) == total and m[OFF] < CHECKERS
            out[(m, o)] = out.get((m, o), False) or full
    return [(m, o, a) for (m, o), a in out.items()]


def values(net: Net, cands: list[Cand]) -> Floats:
    """The equity of each end for the side that played it (a finished game: +1)."""
    out = np.empty(len(cands))
    again = [i for i, c in enumerate(cands) if c[2] and c[0][OFF] < CHECKERS]
    passed = [i for i, c in enumerate(cands) if not c[2] and c[0][OFF] < CHECKERS]
    for i, c in enumerate(cands):
        if c[0][OFF] == CHECKERS:
            out[i] = 1.0
    if again:
        out[again] = equity(net.outputs(net.inputs_of([(cands[i][0], cands[i][1]) for i in again])))
    if passed:
        pairs = [(cands[i][1], cands[i][0]) for i in passed]
        out[passed] = -equity(net.outputs(net.inputs_of(pairs)))
    return out


def position_value(net: Net, me: Board, opp: Board) -> float:
    """The net's equity of a position for the side to move, before its roll."""
    return float(equity(net.outputs(net.inputs_of([(me, opp)])))[0])


def best_end(net: Net, me: Board, opp: Board, side: int, roll: tuple[int, int],
             width: int = 0) -> tuple[Cand, float]:  # fmt: skip
    """The best end of ``roll`` by the net and its equity; ``width`` > 0 searches a
    beam of that width over the steps instead of every end."""
    cands = beam_ends(net, me, opp, side, roll, width) if width else lurc_ends(me, opp, side, roll)
    eq = values(net, cands)
    i = int(np.argmax(eq))
    return cands[i], float(eq[i])


def roll_values(net: Net, me: Board, opp: Board, side: int, width: int = 0) -> Floats:
    """The best equity of each of the 21 rolls (:data:`ROLLS`) for the side to move."""
    return np.array([best_end(net, me, opp, side, roll, width)[1] for roll in ROLLS])


class Choice(NamedTuple):
    """An end found by the beam: the boards, whether the mover rolls again, the steps
    that play it and the paš chosen after a houšek (Z8)."""

    me: Board
    opp: Board
    again: bool
    steps: tuple[Step, ...]
    pas: tuple[int, int] | None


def beam_ends(net: Net, me: Board, opp: Board, side: int, roll: tuple[int, int],
              width: int) -> list[Cand]:  # fmt: skip
    """The ends of :func:`beam_choices` as candidates."""
    return [(c.me, c.opp, c.again) for c in beam_choices(net, me, opp, side, roll, width)]


def beam_choices(net: Net | Scorer, me: Board, opp: Board, side: int, roll: Sequence[int],
                 width: int) -> list[Choice]:  # fmt: skip
    """Ends of ``roll`` found by a beam over the steps: after each step of a paš, the
    ``width`` best positions by the net (as if the turn ended there) go on. Every end
    when the beam could not play every die of the paš (the rules may then ask fewer
    moves of some plays: only the full search knows which, Z10). ``roll`` is two dice,
    or a houšek's 2, 1 and its chosen paš n, n (that paš only)."""
    variant = LURC
    high, choices = variant.roll_choices(list(roll), me)
    state = turn_state(variant, RULES, side, high)
    found: dict[tuple[Board, Board], Choice] = {}
    for pas in choices:
        phases, again = variant.roll_phases(me, high, pas)
        if len(phases[-1]) <= 2:  # two dice: few ends, all of them
            for steps, m, o in search_ends(state, list(me), list(opp), phases):
                found.setdefault((m, o), Choice(m, o, False, steps, pas))
            continue
        starts: list[tuple[tuple[Step, ...], Board, Board]] = [((), me, opp)]
        if len(phases) > 1:
            starts = search_ends(state, list(me), list(opp), phases[:-1])
        beam = _beam(net, state, starts, phases[-1], width)
        if beam is None:
            return _every_choice(me, opp, state, choices)
        total = sum(len(p) for p in phases)
        for steps, m, o in beam:
            # Z7, Z8: the extra roll only when every move was played (a houšek's 1 and 2
            # as well as the paš's eight)
            full = again and len(steps) == total and m[OFF] < CHECKERS
            if (m, o) not in found or (full and not found[(m, o)].again):
                found[(m, o)] = Choice(m, o, full, steps, pas)
    return list(found.values())


def _every_choice(me: Board, opp: Board, state: TurnState,
                  choices: tuple[tuple[int, int] | None, ...]) -> list[Choice]:  # fmt: skip
    """Every end of every paš choice (the full search)."""
    found: dict[tuple[Board, Board], Choice] = {}
    for pas in choices:
        phases, again = LURC.roll_phases(me, state.dice, pas)
        total = sum(len(p) for p in phases)
        for steps, m, o in search_ends(state, list(me), list(opp), phases):
            full = again and len(steps) == total and m[OFF] < CHECKERS
            if (m, o) not in found or (full and not found[(m, o)].again):
                found[(m, o)] = Choice(m, o, full, steps, pas)
    return list(found.values())


def _beam(net: Net | Scorer, state: TurnState, starts: list[tuple[tuple[Step, ...], Board, Board]],
          dice: tuple[int, ...], width: int
          ) -> list[tuple[tuple[Step, ...], Board, Board]] | None:  # fmt: skip
    """The positions after every die of ``dice`` by the beam (with their steps), or
    None when the beam ran out of steps before the last die."""
    level = [(steps, list(m), list(o), dice) for steps, m, o in starts]
    for _ in range(len(dice)):
        children: dict[tuple[Board, Board], tuple[tuple[int, ...], tuple[Step, ...]]] = {}
        for steps, me, opp, left in level:
            for d in dict.fromkeys(left):
                i = left.index(d)
                rest = left[:i] + left[i + 1 :]
                for frm in ORDER:
                    if not me[frm]:
                        continue
                    to = state.target(me, opp, frm, d)
                    if to < 0:
                        continue
                    m2, o2 = me[:], opp[:]
                    hit = state.move(m2, o2, frm, to)
                    key = (tuple(m2), tuple(o2))
                    if key not in children:
                        children[key] = (rest, (*steps, Step(frm, to, d, hit)))
        if not children:
            return None
        keys = list(children)
        if len(keys) > width:
            cands = [(m, o, False) for m, o in keys]
            eq = values(net, cands) if isinstance(net, Net) else net(cands)
            keys = [keys[i] for i in np.argsort(-eq, kind="stable")[:width]]
        level = [(children[k][1], list(k[0]), list(k[1]), children[k][0]) for k in keys]
    return [(steps, tuple(m), tuple(o)) for steps, m, o, _ in level]
