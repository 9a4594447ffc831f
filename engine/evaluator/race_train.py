"""``python -m engine race-train``: the race net of :mod:`engine.evaluator.race`, trained
one-sided (a racing side's future is its own dice and choices) toward 1-ply targets.

A position's target is the mean over the 21 rolls (1/36 or 2/36) of its best end's
distributions one roll later, the best end being the one with the fewest rolls expected
(to finish; to the first checker off while none is). An end at home is read from the
bear-off database (exact, one-sided), one still outside from the net itself. The
positions are taken in order of pips, a chunk at a time, so that the ends of a chunk
(fewer pips) were learnt before it: the database's values spread back from the home
board. Sweeps then recompute every target with the net as it is and train again.

Positions: race positions of the shipped net's 0-ply self-play games and random ones
(each checker on a point up to a random highest one), seeded. The run checkpoints to
``--out`` and ``--out.state.npz`` after each chunk and resumes from them."""

from __future__ import annotations

import itertools
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.evaluator.bearoff import ROLLS_MAX, Bearoff, Floats, load_bearoff
from engine.evaluator.bench import bot_game
from engine.evaluator.npzfile import save_npz
from engine.evaluator.play import ROLL_WEIGHTS, ROLLS, ends
from engine.evaluator.race import FIRST_MAX, RaceNet, encode_sides, is_race
from engine.variants import WHITE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

Side = tuple[int, ...]  # off, points 1-12
_OPP = (0, 15, *([0] * 25))  # the other side on its point 1: ahead of the racer, never met
CHUNK = 400


def board_of(side: Side) -> tuple[int, ...]:
    return (*side, *([0] * 14))


def sample_sides(rng: random.Random, count: int, high: float = 0.0) -> list[Side]:
    """Random racing sides with a checker outside home: 1-15 checkers, each on a point
    up to a highest one drawn from 7-12; a share ``high`` of them as a race begins
    instead (8-15 checkers, each point as likely as its number: up to ~170 pips)."""
    found = []
    for _ in range(count):
        late = bool(high) and rng.random() < high
        left = rng.randint(8, 15) if late else rng.randint(1, 15)
        top = 12 if late else rng.randint(7, 12)
        pts = [0] * 13
        for _ in range(left):
            if late:
                pts[rng.choices(range(1, 13), weights=range(1, 13))[0]] += 1
            else:
                pts[rng.randint(1, top)] += 1
        if not any(pts[7:]):  # all at home: a bear-off, not a race; one goes back out
            pts[max(p for p in range(1, 7) if pts[p])] -= 1
            pts[top] += 1
        pts[0] = 15 - sum(pts[1:])
        found.append(tuple(pts))
    return found


def every_side(most: int) -> list[Side]:
    """Every racing side of 1-``most`` checkers with one outside home (few enough to
    list; random draws rarely stack a few checkers on one high point)."""
    found = []
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(range(1, 13), k):
            if max(combo) > 6:
                pts = [15 - k] + [0] * 12
                for p in combo:
                    pts[p] += 1
                found.append(tuple(pts))
    return found


def game_sides(games: int, seed: int) -> list[Side]:
    """The racing sides outside home of the shipped net's 0-ply self-play games."""
    found: set[Side] = set()
    for g in range(games):
        _, seen = bot_game(2000, seed + g)
        for pos, _ in seen:
            a, b = pos.board(0), pos.board(1)
            if is_race(a, b):
                found.update(tuple(s[:13]) for s in (a, b) if any(s[7:13]))
    return sorted(found)


def pips(side: Side) -> int:
    return sum(p * n for p, n in enumerate(side) if p)


def expected(dist: Floats) -> Floats:
    e: Floats = dist @ np.arange(dist.shape[-1])
    return e


def targets(net: RaceNet, table: Bearoff, sides: list[Side]
            ) -> tuple[Floats, Floats]:  # fmt: skip
    """The 1-ply (finish, first) targets of racing sides (first: zeros once one is off)."""
    per_side = [[[tuple(e[:13]) for e, _ in ends(board_of(s), _OPP, WHITE, r)] for r in ROLLS]
                for s in sides]  # fmt: skip
    unique = sorted({e for rolls in per_side for roll in rolls for e in roll})
    at = {e: i for i, e in enumerate(unique)}
    fin, fst = net.distributions(np.array(unique, dtype=np.int64), table)
    e_fin, e_fst = expected(fin), expected(fst)
    t_fin = np.zeros((len(sides), ROLLS_MAX))
    t_fst = np.zeros((len(sides), FIRST_MAX))
    for k, (side, rolls) in enumerate(zip(sides, per_side, strict=True)):
        for w, roll in zip(ROLL_WEIGHTS, rolls, strict=True):
            idx = [at[e] for e in roll]
            best = min(idx, key=e_fin.__getitem__)
            t_fin[k, 1:] += w * fin[best, :-1]
            if side[0]:
                continue
            if any(unique[i][0] for i in idx):
                t_fst[k, 1] += w
            else:
                best = min(idx, key=e_fst.__getitem__)
                t_fst[k, 1:] += w * fst[best, : FIRST_MAX - 1]
    return t_fin, t_fst


Weights = dict[str, npt.NDArray[Any]]  # a net's arrays by name (float32 or float64)


class Adam:
    """Adam's steps on a net's arrays, in place."""

    def __init__(self, weights: Weights, lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in weights.items()}
        self.v = {k: np.zeros_like(v) for k, v in weights.items()}

    def step(self, weights: Weights, grads: Weights) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            v_hat = self.v[k] / (1 - 0.999**self.t)
            weights[k] -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def fit(net: RaceNet, x: Floats, t_fin: Floats, t_fst: Floats, mask: Floats, steps: int,
        opt: Adam, rng: np.random.Generator) -> float:  # fmt: skip
    """Minibatch steps of cross-entropy toward the targets; the mean loss of the last."""
    w = net.w
    loss = 0.0
    # each count of checkers left draws as often: the few sides with 1-3 left would
    # otherwise be a small corner of the data, fitted last
    left = np.rint(15 * (1 - x[:, 48])).astype(np.int64)
    share = 1 / np.bincount(left)[left]
    share /= share.sum()
    for _ in range(steps):
        b = rng.choice(len(x), min(256, len(x)), p=share)
        h, f, g = net.forward(x[b])
        df = (f - t_fin[b]) / len(b)
        dg = (g - t_fst[b]) * mask[b, None] / len(b)
        dh = (df @ w["wf"].T + dg @ w["wg"].T) * h * (1 - h)
        grads = {"wf": h.T @ df, "bf": df.sum(0), "wg": h.T @ dg, "bg": dg.sum(0),
                 "w1": x[b].T @ dh, "b1": dh.sum(0)}  # fmt: skip
        opt.step(w, grads)
        loss = float(-(t_fin[b] * np.log(f + 1e-12)).sum(1).mean())
    return loss


def train_race(out: str, *, seed: int, samples: int, games: int, resume: bool,
               hidden: int = 64, sweeps: int = 1, high: float = 0.0, small: int = 0,
               log: TextIO = sys.stdout) -> int:  # fmt: skip
    """The whole run (resumable): the ordered pass, then ``sweeps`` sweeps of every
    target (a resumed run with more sweeps goes on where the last one stopped)."""
    path, state_path = Path(out), Path(out + ".state.npz")
    cpu, wall = time.process_time(), time.perf_counter()
    table = load_bearoff()
    if resume and state_path.exists():
        net = RaceNet.load(path)
        with np.load(state_path) as st:
            sides_arr, done = st["sides"], int(st["done"])
            t_fin, t_fst = list(st["t_fin"]), list(st["t_fst"])
            spent = float(st["cpu"])
        sides = [tuple(int(n) for n in s) for s in sides_arr]
    else:
        rng = random.Random(seed)
        drawn = sample_sides(rng, samples, high) + every_side(small)
        sides = sorted(set(drawn) | set(game_sides(games, seed)), key=pips)
        net, done, t_fin, t_fst, spent = RaceNet.fresh(hidden, seed), 0, [], [], 0.0
        print(f"{len(sides)} racing sides ({games} games, {samples} random), seed {seed}",
              file=log, flush=True)  # fmt: skip
    x_all = encode_sides(np.array(sides, dtype=np.int64))
    mask_all = (np.array(sides)[:, 0] == 0).astype(np.float64)
    opt = Adam(net.w, 3e-3)
    nrng = np.random.default_rng(seed + done)
    total = (1 + sweeps) * len(sides)  # the ordered pass, then the sweeps
    while done < total:
        lo = done % len(sides)
        chunk = sides[lo : lo + CHUNK]
        f, g = targets(net, table, chunk)
        if done < len(sides):
            t_fin.extend(f)
            t_fst.extend(g)
        else:
            t_fin[lo : lo + len(chunk)], t_fst[lo : lo + len(chunk)] = list(f), list(g)
        done += len(chunk)
        seen = len(t_fin)
        loss = fit(net, x_all[:seen], np.array(t_fin), np.array(t_fst), mask_all[:seen],
                   400 if done <= len(sides) else 800, opt, nrng)  # fmt: skip
        used = spent + time.process_time() - cpu
        clock = time.perf_counter() - wall
        print(f"{done} of {total}: pips {pips(chunk[0])}-{pips(chunk[-1])}  loss {loss:.4f}  "
              f"cpu {used:.0f} s  wall {clock:.0f} s", file=log, flush=True)  # fmt: skip
        net.header.update(samples=samples, games=games, sweeps=sweeps, high=high, small=small,
                          done=done,
                          cpu_seconds=round(used))  # fmt: skip
        net.save(path)
        save_npz(state_path, sides=np.array(sides), done=done, t_fin=np.array(t_fin),
                 t_fst=np.array(t_fst), cpu=used)  # fmt: skip
    return 0


def one_sided_error(net: RaceNet, sides: list[Side]) -> tuple[float, float]:
    """Mean and largest difference in expected rolls to finish between the net and its
    1-ply target on ``sides`` (how far it is from consistent)."""
    table = load_bearoff()
    f, _ = targets(net, table, sides)
    got, _ = net.distributions(np.array(sides, dtype=np.int64), table)
    diff = np.abs(expected(got) - expected(f))
    return float(diff.mean()), float(diff.max())


def as_int(a: npt.NDArray[np.int64]) -> list[Side]:
    return [tuple(int(n) for n in row) for row in a]


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m engine.evaluator.race_train",
        description="train the long-nardy race net (docs/analysis.md)",
    )
    p.add_argument("--out", required=True, help="the weights (and OUT.state.npz to resume)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", type=int, default=8000, help="random racing sides")
    p.add_argument("--games", type=int, default=300, help="self-play games to take races from")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--sweeps", type=int, default=1, help="sweeps after the ordered pass")
    p.add_argument("--high", type=float, default=0.0, help="share of sides as a race begins")
    p.add_argument("--small", type=int, default=0, help="add every side of up to N checkers")
    p.add_argument("--resume", action="store_true")
    a = p.parse_args(argv)
    return train_race(a.out, seed=a.seed, samples=a.samples, games=a.games, resume=a.resume,
                      hidden=a.hidden, sweeps=a.sweeps, high=a.high, small=a.small)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
