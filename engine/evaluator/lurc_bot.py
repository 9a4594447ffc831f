"""The bot's turn in Lurč: the net's best end of the roll found by a beam over the
steps (:func:`engine.evaluator.lurc_play.beam_choices`), at a level's noise, written as
a legal turn with its steps, the paš chosen after a houšek (Z8) and who rolls next
(the same side after a paš played in full, Z7)."""

from __future__ import annotations

import random

import numpy as np

from engine.evaluator.levels import LEVELS
from engine.evaluator.lurc_play import beam_choices, values
from engine.evaluator.net import Net
from engine.movegen import Turn, after, side_lists
from engine.position import Position
from engine.variants import LURC

WIDTH = 64  # the beam's width for the bot: the best 64 positions after each step


def lurc_turn(net: Net, position: Position, dice: object, level: str, rng: random.Random
              ) -> Turn:  # fmt: skip
    """The bot's turn for ``dice`` ([a, b], or [2, 1, n, n] with the paš fixed) at
    ``level`` (its noise on each end's equity; Lurč's bot looks no further than 0-ply)."""
    me, opp = side_lists(position)
    roll, _ = LURC.roll_choices(dice, me)
    side = position.turn
    choices = beam_choices(net, tuple(me), tuple(opp), side, list(dice), WIDTH)  # type: ignore[call-overload]
    eq = values(net, [(c.me, c.opp, c.again) for c in choices])
    _, noise = LEVELS[level]
    if noise:
        eq = eq + np.array([rng.gauss(0, noise) for _ in choices])
    best = choices[int(np.argmax(eq))]
    nxt = side if best.again else 1 - side
    return Turn(roll, best.steps, after(position, best.me, best.opp, nxt), best.pas)
