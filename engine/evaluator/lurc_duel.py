"""Duels of Lurč players on duplicate dice (``python -m engine duel --variant lurc``):
game pair k is played twice on the same stream of dice, the players' colours swapped
(black starts, Z1), so that the luck of the dice mostly cancels within a pair. The 95 %
confidence interval is over the pairs."""

from __future__ import annotations

import random

from engine.evaluator.duel import DuelResult, duplicate_duel
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

    def game(a_black: bool, dice: random.Random, choice: random.Random) -> int:
        if a_black:
            return play_lurc_game(a, b, dice, choice)
        return -play_lurc_game(b, a, dice, choice)

    return duplicate_duel(game, games, seed)
