"""A board written as {point: checkers} for the tests (27 counts as the engine keeps
them: off, the points 1-24, the bar, the start; the checkers not placed are off)."""

from __future__ import annotations


def board(points: dict[int, int]) -> tuple[int, ...]:
    b = [0] * 27
    for p, n in points.items():
        b[p] = n
    b[0] = 15 - sum(points.values())
    return tuple(b)
