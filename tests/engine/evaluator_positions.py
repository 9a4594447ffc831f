"""Positions of random long-nardy games with a random roll each, for the evaluator's
tests (seeded: always the same)."""

from __future__ import annotations

import random

from engine import Position, legal_turns

Roll = tuple[int, int]


def random_positions(count: int, seed: int) -> list[tuple[Position, Roll]]:
    """``count`` (position, roll) pairs met along random games, each roll higher die
    first; positions where the game is over are skipped."""
    rng = random.Random(seed)
    out: list[tuple[Position, Roll]] = []
    pos = Position.start("long")
    while len(out) < count:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        roll = (max(a, b), min(a, b))
        out.append((pos, roll))
        pos = rng.choice(legal_turns(pos, [a, b])).position
        if pos.off(1 - pos.turn) == 15:
            pos = Position.start("long")
    return out
