"""``python -m engine bearoff-build``: the bear-off databases of
:mod:`engine.evaluator.bearoff`, computed from the engine's own legal moves (the ends of
:func:`engine.evaluator.play.ends`, i.e. ``engine.steps`` and the search of L6: no second
set of bear-off rules here).

- One-sided: positions in order of pips, so every play leads to one already done. A
  position's distribution of rolls to finish is the mean over the 21 rolls (1/36 or
  2/36) of the distribution of the roll's best end one roll later, the best end being
  the one with the fewest rolls expected. The first-checker distribution of a 15-checker
  position is built alike: a roll that can bear one off ends it.
- Two-sided (at most :data:`TWO_SIDED` checkers a side): the exact chance P(a, b) that
  the side to move with ``a`` wins against ``b``, the mean over the rolls of the best
  end's 1 - P(b, a'), taken in order of the two sides' pips together."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from engine.evaluator.bearoff import (
    CHECKERS,
    ROLLS_MAX,
    SHIPPED,
    TWO_SIDED,
    Floats,
    Home,
    home_positions,
    pips,
    save_bearoff,
)
from engine.evaluator.play import ROLL_WEIGHTS, ROLLS, ends
from engine.evaluator.train import commit_id
from engine.variants import WHITE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

# the opponent's checkers, all on its point 1 (the mover's 13): out of the mover's way
# and ahead of any six points the mover holds at home (L5), as in every bear-off
_OPP = (0, CHECKERS, *([0] * 25))


def board_of(h: Home) -> tuple[int, ...]:
    """An engine board (27 counts) with the home counts ``h`` and the rest borne off."""
    return (CHECKERS - sum(h), *h, *([0] * 20))


def roll_ends(h: Home) -> list[list[Home]]:
    """The home counts after each legal end of each of the 21 rolls (:data:`ROLLS`),
    white to move (the two sides' rules are the same)."""
    return [[tuple(b[1:7]) for b, _ in ends(board_of(h), _OPP, WHITE, roll)] for roll in ROLLS]


def one_sided(positions: list[Home], log: TextIO | None = None
              ) -> tuple[Floats, Floats, dict[int, list[list[int]]]]:  # fmt: skip
    """The distributions (finish, first) of every position and, for the positions of
    the two-sided database, every roll's ends (as indices)."""
    index = {h: i for i, h in enumerate(positions)}
    count = len(positions)
    finish = np.zeros((count, ROLLS_MAX))
    first = np.zeros((count, ROLLS_MAX))
    finish[0, 0] = first[0, 0] = 1.0
    expect = np.zeros(count)
    f_expect = np.zeros(count)
    small: dict[int, list[list[int]]] = {}
    weights = ROLL_WEIGHTS[:, None]
    for i in range(1, count):
        h = positions[i]
        found = [[index[e] for e in roll] for roll in roll_ends(h)]
        if sum(h) <= TWO_SIDED:
            small[i] = found
        best = [min(roll, key=expect.__getitem__) for roll in found]
        finish[i, 1:] = (weights * finish[best, :-1]).sum(axis=0)
        expect[i] = 1 + float(ROLL_WEIGHTS @ expect[best])
        if log is not None and i % 5000 == 0:
            print(f"one-sided: {i} of {count} positions", file=log, flush=True)
        if sum(h) < CHECKERS:
            first[i, 0] = 1.0
            continue
        # none borne off yet: a roll that bears one off ends the count (a lower total)
        dist = np.zeros(ROLLS_MAX)
        mean = 1.0
        for w, roll in zip(ROLL_WEIGHTS, found, strict=True):
            if any(sum(positions[e]) < CHECKERS for e in roll):
                dist[1] += w
                continue
            e = min(roll, key=f_expect.__getitem__)
            dist[1:] += w * first[e, :-1]
            mean += w * f_expect[e]
        first[i], f_expect[i] = dist, mean
    if finish[:, -1].any() or first[:, -1].any():
        raise AssertionError("a bear-off took ROLLS_MAX rolls: raise ROLLS_MAX")
    return finish, first, small


def two_sided(positions: list[Home], small_ends: dict[int, list[list[int]]]) -> Floats:
    """The exact P(win) for the side to move, over the positions of at most
    :data:`TWO_SIDED` checkers (their order in ``positions``, the empty one first)."""
    small = [i for i, h in enumerate(positions) if sum(h) <= TWO_SIDED]
    sub = {i: k for k, i in enumerate(small)}
    size = len(small)
    pip = np.array([pips(positions[i]) for i in small])
    grouped: dict[int, list[int]] = {}
    for k in range(1, size):
        grouped.setdefault(int(pip[k]), []).append(k)
    by_pip = {p: np.array(ks) for p, ks in grouped.items()}
    cats: list[np.ndarray] = [np.zeros(0, np.int64)]
    starts: list[np.ndarray] = [np.zeros(0, np.int64)]
    for k in range(1, size):
        rolls = [[sub[e] for e in roll] for roll in small_ends[small[k]]]
        cats.append(np.array([e for roll in rolls for e in roll]))
        starts.append(np.cumsum([0, *(len(r) for r in rolls[:-1])]))
    win = np.zeros((size, size))  # win[b, 0] = 0: b to move, its opponent has finished
    for total in range(2, 2 * int(pip.max()) + 1):
        for a in range(1, size):
            bs = by_pip.get(total - int(pip[a]))
            if bs is None:
                continue
            low = np.minimum.reduceat(win[np.ix_(bs, cats[a])], starts[a], axis=1)
            win[a, bs] = (1 - low) @ ROLL_WEIGHTS
    return win


def build(out: str | Path | None = None, log: TextIO = sys.stdout) -> int:
    """Compute both databases and write them to ``out`` (the shipped file by default)."""
    path = Path(out) if out else SHIPPED
    cpu, wall = time.process_time(), time.perf_counter()
    positions = home_positions()
    finish, first, small = one_sided(positions, log)
    one_cpu = time.process_time() - cpu
    print(f"one-sided: {len(positions)} positions in {one_cpu:.1f} s CPU", file=log, flush=True)
    two = two_sided(positions, small)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"two-sided: {two.shape[0]} x {two.shape[1]} pairs in {cpu - one_cpu:.1f} s CPU",
          file=log)  # fmt: skip
    save_bearoff(path, finish, first, two, {"positions": len(positions), "two_sided": TWO_SIDED,
                 "rolls_max": ROLLS_MAX, "cpu_seconds": round(cpu, 1),
                 "wall_seconds": round(wall, 1), "commit": commit_id()})  # fmt: skip
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB) in {cpu:.1f} s CPU, "
          f"{wall:.1f} s wall", file=log)  # fmt: skip
    return 0
