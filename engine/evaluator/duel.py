"""Duels between two players in duplicate-dice pairs (``python -m engine duel``): game
pair k is played twice on the same dice, the players' colours swapped, so that the
luck of the dice cancels within a pair. The 95 % confidence interval is taken over the
pairs (the two games of a pair are not independent)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.evaluator.play import ends, terminal
from engine.evaluator.players import Player
from engine.variants import WHITE, variant_named

MAX_TURNS = 2000  # no game of long nardy lasts this long: a guard, never reached


@dataclass(frozen=True, slots=True)
class DuelResult:
    games: int
    wins: int  # the first player's
    points: float  # the first player's points won minus lost
    rate: float
    low: float
    high: float

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    def line(self, a: str, b: str) -> str:
        return (f"{a} vs {b}: {self.games} games, {a} won {self.wins} ({100 * self.rate:.1f} %, "
                f"95 % CI {100 * self.low:.1f}-{100 * self.high:.1f} %), "
                f"{self.points_per_game:+.3f} points per game")  # fmt: skip


def play_game(white: Player, black: Player, dice: random.Random, choice: random.Random) -> int:
    """One game from the start; the points white won (negative: black won), 1 or 2."""
    start = variant_named("long").start
    me, opp, side = start, start, WHITE
    players = (white, black)
    for _ in range(MAX_TURNS):
        a, b = dice.randint(1, 6), dice.randint(1, 6)
        cands = ends(me, opp, side, (max(a, b), min(a, b)))
        me, opp = cands[players[side].choose(cands, side, choice)]
        won = terminal(me, opp)
        if won is not None:
            return int(won) if side == WHITE else -int(won)
        me, opp, side = opp, me, 1 - side
    raise RuntimeError("a duel game did not end")


def duplicate_duel(game: Callable[[bool, random.Random, random.Random], int], games: int,
                   seed: int) -> DuelResult:  # fmt: skip
    """``games`` games (rounded up to pairs) on duplicate dice: pair k plays ``game`` twice
    on the same dice, the first player first and then second. ``game(first, dice, choice)``
    gives the points the first player won (negative: lost)."""
    pairs = max(1, (games + 1) // 2)
    wins = 0
    points = 0.0
    scores = []
    for k in range(pairs):
        pair = 0
        for first in (True, False):
            dice = random.Random(seed * 1_000_003 + k)
            choice = random.Random(seed * 1_000_003 + k + (0 if first else 1 << 40))
            result = game(first, dice, choice)
            wins += result > 0
            pair += result > 0
            points += result
        scores.append(pair / 2)
    n = len(scores)
    rate = sum(scores) / n
    var = sum((s - rate) ** 2 for s in scores) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return DuelResult(2 * n, wins, points, rate, max(0.0, rate - half), min(1.0, rate + half))


def duel(a: Player, b: Player, games: int, seed: int) -> DuelResult:
    """``games`` games (rounded up to pairs) of ``a`` against ``b`` on duplicate dice."""

    def game(a_white: bool, dice: random.Random, choice: random.Random) -> int:
        return play_game(a, b, dice, choice) if a_white else -play_game(b, a, dice, choice)

    return duplicate_duel(game, games, seed)
