"""Lurč's players: a random mover, a greedy heuristic and the net. Each answers
``choose(position, dice, rng)`` with a legal :class:`engine.movegen.Turn` (a houšek's
paš chosen, Z8)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from engine.evaluator.lurc_play import Cand, Choice, beam_choices, values
from engine.evaluator.net import Floats, Net, load_net, net_path
from engine.evaluator.players import PlayerError
from engine.movegen import Turn, after, side_lists
from engine.position import Position
from engine.rules import Rules
from engine.selfplay import _phased_turn
from engine.variants import BAR, LURC, OFF, START

WIDTH = 32  # the beam over a paš's steps (the best positions kept after each step)


def lurc_heuristic(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """A greedy Lurč player's liking of the boards after its turn: fewer pips (a checker
    to enter counts 25), the opponent's hit checkers (Z5), bridges (Z4: points the
    opponent cannot land on), few lone checkers, checkers borne off (Z9)."""
    pips = sum(p * me[p] for p in range(1, 25)) + 25 * (me[BAR] + me[START])
    their_pips = sum(p * opp[p] for p in range(1, 25)) + 25 * (opp[BAR] + opp[START])
    bridges = sum(1 for p in range(1, 25) if me[p] >= 2)
    blots = sum(1 for p in range(1, 25) if me[p] == 1)
    return their_pips - pips + 3 * bridges - 4 * blots + 5 * me[OFF]


def heuristic_scores(cands: list[Cand]) -> Floats:
    """:func:`lurc_heuristic` of each end, a paš's extra roll worth 10 pips."""
    return np.array([lurc_heuristic(m, o) + 10 * a for m, o, a in cands])


class LurcPlayer:
    name = "player"

    def choose(self, position: Position, dice: list[int], rng: random.Random) -> Turn:
        raise NotImplementedError


def _turn(position: Position, roll: tuple[int, int], c: Choice) -> Turn:
    nxt = position.turn if c.again else 1 - position.turn
    return Turn(roll, c.steps, after(position, c.me, c.opp, nxt), c.pas)


class LurcRandom(LurcPlayer):
    """A random mover: random steps while they last, a random legal end otherwise (a
    random paš after a houšek)."""

    name = "random"

    def choose(self, position: Position, dice: list[int], rng: random.Random) -> Turn:
        roll = (max(dice[:2]), min(dice[:2]))
        return _phased_turn(position, roll, Rules(), rng)


class LurcHeuristic(LurcPlayer):
    """The greedy heuristic (:func:`lurc_heuristic`) over a beam of a paš's steps."""

    name = "heuristic"

    def choose(self, position: Position, dice: list[int], rng: random.Random) -> Turn:
        me, opp = side_lists(position)
        choices = beam_choices(heuristic_scores, tuple(me), tuple(opp), position.turn,
                               dice, WIDTH)  # fmt: skip
        scores = heuristic_scores([(c.me, c.opp, c.again) for c in choices])
        roll, _ = LURC.roll_choices(dice, me)
        return _turn(position, roll, choices[int(np.argmax(scores))])


class LurcNetPlayer(LurcPlayer):
    """The net by 0-ply equity over a beam of a paš's steps; ``noise`` (points) on
    each end's equity for a weaker level."""

    def __init__(self, net: Net, *, noise: float = 0.0, width: int = WIDTH,
                 name: str = "net") -> None:  # fmt: skip
        self.net, self.noise, self.width, self.name = net, noise, width, name

    def choose(self, position: Position, dice: list[int], rng: random.Random) -> Turn:
        me, opp = side_lists(position)
        choices = beam_choices(self.net, tuple(me), tuple(opp), position.turn, dice,
                               self.width)  # fmt: skip
        eq = values(self.net, [(c.me, c.opp, c.again) for c in choices])
        if self.noise:
            eq = eq + np.array([rng.gauss(0, self.noise) for _ in choices])
        roll, _ = LURC.roll_choices(dice, me)
        return _turn(position, roll, choices[int(np.argmax(eq))])


def lurc_player_named(spec: str) -> LurcPlayer:
    """``random``, ``heuristic``, ``net`` (the shipped lurc.net) or ``net:FILE``."""
    if spec == "random":
        return LurcRandom()
    if spec == "heuristic":
        return LurcHeuristic()
    if spec == "net" or spec.startswith("net:"):
        path = spec[4:] or None
        net = load_net(Path(path) if path else net_path("lurc"))
        return LurcNetPlayer(net, name=spec)
    raise PlayerError(
        f"unknown player {spec!r}: random, heuristic, net or net:FILE",
        code="lurc-unknown-player",
        params={"player": spec},
    )
