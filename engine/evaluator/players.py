"""Players that choose among a roll's legal ends: a random mover, a greedy heuristic
(pips, points made, runs, the head) and the net at a level (noise on its equities, or a
1-ply look-ahead). Each answers ``choose(cands, side, rng)`` with an index of ``cands``,
the (mover's, opponent's) boards after each legal end."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from engine.errors import EngineError
from engine.evaluator.levels import LEVELS
from engine.evaluator.net import Net, load_net
from engine.evaluator.play import BoardPair, best_index, equities0
from engine.rules import Rules


class Player:
    name = "player"

    def choose(self, cands: list[BoardPair], side: int, rng: random.Random) -> int:
        raise NotImplementedError


class RandomPlayer(Player):
    name = "random"

    def choose(self, cands: list[BoardPair], side: int, rng: random.Random) -> int:
        return rng.randrange(len(cands))


def heuristic_score(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """A greedy player's liking of the boards after its turn: fewer pips, more points
    held (each a point the opponent cannot land on, L3), long runs toward a block (L5),
    checkers off the head (L4) and borne off (L7)."""
    pips = sum(p * me[p] for p in range(1, 25))
    held = sum(1 for p in range(1, 24) if me[p])
    run = best = 0
    for p in (*range(12, 0, -1), *range(24, 12, -1)):  # along the opponent's route
        run = run + 1 if me[p] else 0
        best = max(best, run)
    stacked = sum(max(0, me[p] - 3) for p in range(1, 24))
    return -pips + 3 * held + 4 * min(best, 6) - 2 * me[24] - stacked + 5 * me[0]


class HeuristicPlayer(Player):
    name = "heuristic"

    def choose(self, cands: list[BoardPair], side: int, rng: random.Random) -> int:
        scores = [heuristic_score(me, opp) for me, opp in cands]
        return scores.index(max(scores))


class NetPlayer(Player):
    """The net choosing by equity: at ``ply`` 1 a look-ahead over the opponent's 21
    rolls on the ``width`` best ends; ``noise`` (points) is added to each 0-ply equity
    (a weaker level that still prefers good plays)."""

    def __init__(self, net: Net, *, ply: int = 0, noise: float = 0.0, width: int = 4,
                 rules: Rules | None = None, name: str = "net") -> None:  # fmt: skip
        self.net, self.ply, self.noise, self.width = net, ply, noise, width
        self.rules = rules or Rules()
        self.name = name

    def choose(self, cands: list[BoardPair], side: int, rng: random.Random) -> int:
        if len(cands) == 1:
            return 0
        if self.noise:
            eq = equities0(self.net, cands)
            noisy = eq + np.array([rng.gauss(0, self.noise) for _ in cands])
            return int(np.argmax(noisy))
        return best_index(self.net, cands, side, self.ply, self.width, self.rules)[0]


class PlayerError(EngineError):
    code = "bad-player"


def level_player(net: Net, level: str, rules: Rules | None = None) -> NetPlayer:
    """The net's player at ``level`` (one of :data:`LEVELS`)."""
    if level not in LEVELS:
        raise PlayerError(
            f"unknown level {level!r} (known: {', '.join(LEVELS)})",
            code="unknown-level",
            params={"level": level},
        )
    ply, noise = LEVELS[level]
    return NetPlayer(net, ply=ply, noise=noise, rules=rules, name=level)


def player_named(spec: str, ply: int = 0) -> Player:
    """``random``, ``heuristic``, ``net`` (the shipped net), ``net:FILE`` or a level
    name; ``ply`` applies to the nets."""
    if spec == "random":
        return RandomPlayer()
    if spec == "heuristic":
        return HeuristicPlayer()
    if spec in LEVELS:
        return level_player(load_net(), spec)
    if spec == "net" or spec.startswith("net:"):
        path = spec[4:] or None
        return NetPlayer(load_net(Path(path) if path else None), ply=ply, name=spec)
    raise PlayerError(
        f"unknown player {spec!r}: random, heuristic, net, net:FILE or a level "
        f"({', '.join(LEVELS)})",
        code="unknown-player",
        params={"player": spec},
    )
