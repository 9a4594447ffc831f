"""Analysis of a Lurč game (docs/analysis.md, "Lurč"): each turn's error and luck as
long nardy's, with Lurč's own rolls.

- Equities are 2p - 1 for the side that moved (Z11: a win is one point, no mars).
- A play's candidates are the ends of the roll by a beam over the steps
  (:func:`engine.evaluator.lurc_play.beam_choices`), and the play itself; after a
  houšek the ends of all six paš choices (Z8: choosing a poor paš is an error of the
  play, not bad luck).
- An end after a paš played in full is valued with the mover to roll again (Z7): the
  extra roll's expectation is part of what the paš roll won, so a paš's luck includes
  it. The extra roll is then a roll of its own, with its own luck against the mean of
  the 36; the two add up to what the dice gave.
- Luck: the best equity of the roll rolled minus the mean over the 36 rolls of each
  roll's best (a 1-2 is the houšek with its best paš).

0-ply only: ``ply`` 1 is answered at 0-ply (a look-ahead over Lurč's rolls, each a paš
with another roll behind it, is beyond the analysis's time)."""

from __future__ import annotations

import numpy as np

from engine.evaluator.judge import EQUAL_MP
from engine.evaluator.lurc_play import ROLL_WEIGHTS, ROLLS, beam_choices, best_end, values
from engine.evaluator.net import Net
from engine.movegen import after
from engine.moves import write_steps
from engine.replay import PlayedAction, Replay
from engine.variants import CHECKERS, OFF

WIDTH = 32  # the beam for the plays of the roll rolled
LUCK_WIDTH = 8  # the beam for each roll's best (the luck's mean over the 36)


def roll_values(net: Net, me: tuple[int, ...], opp: tuple[int, ...], side: int) -> np.ndarray:
    """The best equity of each of the 21 rolls for the side to move."""
    return np.array([best_end(net, me, opp, side, roll, LUCK_WIDTH)[1] for roll in ROLLS])


def lurc_turns(played: Replay, net: Net) -> list[dict[str, object]]:
    """Every turn of a replayed Lurč game judged by ``net`` (a Lurč net): the fields
    of each :class:`engine.analysis.TurnAnalysis`."""
    turns = [p for p in played.played if p.action.kind == "turn" and p.action.dice is not None]
    return [_turn(net, i, p) for i, p in enumerate(turns)]


def _turn(net: Net, index: int, p: PlayedAction) -> dict[str, object]:
    side = p.side
    assert p.action.dice is not None
    a, b = p.action.dice
    roll = (max(a, b), min(a, b))
    me, opp = p.before.board(side), p.before.board(1 - side)
    done_me, done_opp = p.after.board(side), p.after.board(1 - side)
    again = p.after.turn == side and done_me[OFF] < CHECKERS
    choices = beam_choices(net, me, opp, side, list(roll), WIDTH)
    eq = values(net, [(c.me, c.opp, c.again) for c in choices])
    mine = float(values(net, [(done_me, done_opp, again)])[0])
    k = int(np.argmax(eq))
    best_eq = float(eq[k])
    forced = len(choices) == 1 and (choices[0].me, choices[0].opp) == (done_me, done_opp)
    per_roll = roll_values(net, me, opp, side)
    mean = float(per_roll @ ROLL_WEIGHTS)
    rolled = max(float(per_roll[ROLLS.index(roll)]), best_eq, mine)
    better = best_eq - mine >= EQUAL_MP / 1000  # within EQUAL_MP: one of the best plays
    best = choices[k]
    nxt = side if best.again else 1 - side
    return dict(
        index=index,
        turn=p.number,
        side=side,
        dice=(a, b),
        played=write_steps(p.steps),
        best=write_steps(best.steps) if better else write_steps(p.steps),
        error_mp=0 if forced or not better else round(1000 * (best_eq - mine)),
        luck_mp=round(1000 * (rolled - mean)),
        equity_before_mp=round(1000 * mean),
        equity_after_mp=round(1000 * mine),
        forced=forced,
        best_position=after(p.before, best.me, best.opp, nxt) if better else p.after,
    )
