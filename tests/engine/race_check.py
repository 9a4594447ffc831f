"""How close the race evaluator is to exact, where exact can be computed (docs/analysis.md):
every racing side of 1-3 checkers (points 1-12, at least one outside home: its exact
fewest-rolls distribution by recursion over the engine's plays) and every pair of such
sides (the exact chance of winning by the two-sided recursion; both have checkers off,
so no mars). Also the net's consistency with its own 1-ply targets on racing sides of
self-play games it was not trained on, and its equities against the contact net's there.

    .venv/bin/python tests/engine/race_check.py [RACE_NET]
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np

from engine.evaluator.bearoff import load_bearoff, win_chances
from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import equity, load_net
from engine.evaluator.play import ROLL_WEIGHTS, ROLLS, ends
from engine.evaluator.race import RaceNet, load_race
from engine.evaluator.race_train import _OPP, board_of, game_sides, one_sided_error, pips
from engine.variants import WHITE

Side = tuple[int, ...]


def small_sides(most: int) -> list[Side]:
    found = []
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(range(1, 13), k):
            pts = [15 - k] + [0] * 12
            for p in combo:
                pts[p] += 1
            found.append(tuple(pts))
    return sorted(found, key=lambda s: (pips(s), s))


def exact_tables(sides: list[Side]) -> tuple[np.ndarray, np.ndarray, list[list[list[int]]]]:
    """One-sided fewest-rolls distributions and the two-sided P(win) over ``sides``
    (index 0: the finished side)."""
    allsides = [(15, *([0] * 12)), *sides]
    at = {s: i for i, s in enumerate(allsides)}
    n = len(allsides)
    fin = np.zeros((n, 48))
    fin[0, 0] = 1.0
    mean = np.zeros(n)
    succ: list[list[list[int]]] = [[]]
    for i in range(1, n):
        rolls = [[at[tuple(e[:13])] for e, _ in ends(board_of(allsides[i]), _OPP, WHITE, r)]
                 for r in ROLLS]  # fmt: skip
        succ.append(rolls)
        best = [min(r, key=mean.__getitem__) for r in rolls]
        fin[i, 1:] = (ROLL_WEIGHTS[:, None] * fin[best, :-1]).sum(0)
        mean[i] = 1 + ROLL_WEIGHTS @ mean[best]
    pip = np.array([pips(s) for s in allsides])
    win = np.zeros((n, n))
    cats = [np.array([e for r in rolls for e in r]) for rolls in succ]
    starts = [np.cumsum([0, *(len(r) for r in rolls[:-1])]) for rolls in succ]
    grouped: dict[int, list[int]] = {}
    for k in range(1, n):
        grouped.setdefault(int(pip[k]), []).append(k)
    by_pip = {p: np.array(ks) for p, ks in grouped.items()}
    for total in range(2, 2 * int(pip.max()) + 1):
        for a in range(1, n):
            bs = by_pip.get(total - int(pip[a]))
            if bs is None:
                continue
            low = np.minimum.reduceat(win[np.ix_(bs, cats[a])], starts[a], axis=1)
            win[a, bs] = (1 - low) @ ROLL_WEIGHTS
    return fin, win, succ


def main() -> int:
    cpu = time.process_time()
    race = RaceNet.load(Path(sys.argv[1])) if len(sys.argv) > 1 else load_race()
    assert race is not None, "no race net"
    table = load_bearoff()
    sides = small_sides(3)
    fin, win, _ = exact_tables(sides)
    allsides = [(15, *([0] * 12)), *sides]
    outside = [i for i, s in enumerate(allsides) if i and any(s[7:])]
    got, _ = race.distributions(np.array([allsides[i] for i in outside]), table)
    diff = np.abs(got @ np.arange(48) - fin[outside] @ np.arange(48))
    print(f"{len(outside)} racing sides of 1-3 checkers: expected rolls off the exact by "
          f"{diff.mean():.3f} on average, {diff.max():.3f} at most")  # fmt: skip
    pairs = [(a, b) for a in range(1, len(allsides)) for b in range(1, len(allsides))
             if any(allsides[a][7:]) or any(allsides[b][7:])]  # fmt: skip
    board = [(*s, *([0] * 14)) for s in allsides]
    est = race.outputs([(board[a], board[b]) for a, b in pairs])
    exact = np.array([win[a, b] for a, b in pairs])
    err = 2 * np.abs(est[:, 0] - exact)  # equity, no mars possible
    print(f"{len(pairs)} race pairs of 1-3 checkers a side: race equity off the exact by "
          f"{1000 * err.mean():.1f} mp on average, {1000 * err.max():.1f} mp at most")  # fmt: skip
    net = load_net()
    cont = equity(net.outputs(encode(as_boards([(board[a], board[b]) for a, b in pairs]))))
    err_net = np.abs(cont - (2 * exact - 1))
    print(f"  (the contact net there: {1000 * err_net.mean():.1f} mp on average, "
          f"{1000 * err_net.max():.1f} at most)")  # fmt: skip
    first = np.zeros_like(fin)
    first[:, 0] = 1.0  # every side here has checkers off
    a_idx, b_idx = [a for a, _ in pairs], [b for _, b in pairs]
    floor = win_chances(fin[a_idx], first[a_idx], fin[b_idx], first[b_idx])[:, 0]
    err_floor = 2 * np.abs(floor - exact)
    print(f"  (exact one-sided distributions taken as independent: {1000 * err_floor.mean():.1f}"
          f" mp on average, {1000 * err_floor.max():.1f} at most)")  # fmt: skip
    held = game_sides(60, 900_000)
    mean, most = one_sided_error(race, held)
    print(f"{len(held)} racing sides of 60 unseen self-play games: expected rolls off the "
          f"net's own 1-ply target by {mean:.3f} on average, {most:.3f} at most")  # fmt: skip
    print(f"{time.process_time() - cpu:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
