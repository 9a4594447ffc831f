"""One TD(lambda) self-play game of Lurč (``python -m engine train --variant lurc``), for
:func:`engine.evaluator.train.train`: the same traces as long nardy's, one output (Z11),
and a turn that does not pass after a paš played in full (Z7, Z8: the same side rolls
again, so its next position is valued without turning it over)."""

from __future__ import annotations

import random

import numpy as np

from engine.evaluator.lurc_play import best_end
from engine.evaluator.net import Net
from engine.evaluator.train import Traces
from engine.variants import BLACK, CHECKERS, LURC, OFF

MAX_TURNS = 1500  # a guard: self-play games of Lurč last about 90 rolls
WIDTH = 24  # the beam over a paš's steps in training (every end otherwise)


def play_lurc_game(net: Net, rng: random.Random, alpha: float, lam: float) -> int:
    """One self-play game of Lurč, learning as it goes; returns the number of rolls."""
    me, opp, side = LURC.start, LURC.start, BLACK  # Z1: black starts
    x = net.inputs_of([(me, opp)])
    out, hidden = net.forward(x)
    x, out, hidden = x[0], out[0], hidden[0]
    traces = Traces(net)
    for turns in range(1, MAX_TURNS + 1):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        (new_me, new_opp, again), _ = best_end(net, me, opp, side, (max(a, b), min(a, b)), WIDTH)
        traces.step(net, x, hidden, out, lam)
        if new_me[OFF] == CHECKERS:  # Z11: the mover has won
            traces.apply(net, np.array([1.0], np.float32) - out, alpha)
            return turns
        # after a paš played in full the same side rolls again (Z7)
        pair = (new_me, new_opp) if again else (new_opp, new_me)
        xs = net.inputs_of([pair])
        outs, hiddens = net.forward(xs)
        target = outs[0] if again else 1 - outs[0]
        traces.apply(net, target - out, alpha, passes=not again)
        if not again:
            side = 1 - side
        me, opp = pair
        x, out, hidden = xs[0], outs[0], hiddens[0]
    return MAX_TURNS
