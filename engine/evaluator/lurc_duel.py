"""Duels of Lurč players on duplicate dice (``python -m engine duel --variant lurc``):
game pair k is played twice on the same stream of dice, the players' colours swapped
(black starts, Z1), so that the luck of the dice mostly cancels within a pair. The 95 %
confidence interval is over the pairs."""

from __future__ import annotations

import math
import random

from engine.evaluator.duel import DuelResult
from engine.evaluator.lurc_players import LurcPlayer
from engine.position import Position
from engine.variants import BLACK, CHECKERS

MAX_TURNS = 2000  # a guard: self-play games last about 100 rolls


def play_lurc_game(black: LurcPlayer, white: LurcPlayer, dice: random.Random,
                   choice: random.Random) -> int:  # fmt: skip
    """One game from the start: +1 when black wins, -1 when white wins (Z11)."""
    pos = Position.start("lurc")
    players = {BLACK: black, 1 - BLACK: white}
    for _ in range(MAX_TURNS):
        roll = [dice.randint(1, 6), dice.randint(1, 6)]
        mover = pos.turn
        pos = players[mover].choose(pos, roll, choice).position
        if pos.off(mover) == CHECKERS:
            return 1 if mover == BLACK else -1
    raise RuntimeError("a duel game did not end")


def lurc_duel(a: LurcPlayer, b: LurcPlayer, games: int, seed: int) -> DuelResult:
    """``games`` games (rounded up to pairs) of ``a`` against ``b`` on duplicate dice."""
    pairs = max(1, (games + 1) // 2)
    wins = 0
    scores = []
    for k in range(pairs):
        pair = 0
        for a_black in (True, False):
            dice = random.Random(seed * 1_000_003 + k)
            choice = random.Random(seed * 1_000_003 + k + (0 if a_black else 1 << 40))
            result = play_lurc_game(a, b, dice, choice) if a_black else -play_lurc_game(
                b, a, dice, choice)  # fmt: skip
            wins += result > 0
            pair += result > 0
        scores.append(pair / 2)
    n = len(scores)
    rate = sum(scores) / n
    var = sum((s - rate) ** 2 for s in scores) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return DuelResult(2 * n, wins, 2.0 * wins - 2 * n, rate, max(0.0, rate - half),
                      min(1.0, rate + half))  # fmt: skip
