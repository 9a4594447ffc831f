"""What the rollout targets teach and what they cost the play (docs/analysis.md, "Round 5").

The positions and rollout targets of a distill run (its weights and ``.state.npz``) are
fitted from the shipped net as ``engine.evaluator.distill`` fits a first pass (a chunk
of 500 positions at a time, ``--steps`` minibatch steps after each), toward targets of
one kind:

- ``ply1``: the shipped net's 1-ply values of the same positions (computed once and kept
  beside the state as ``.ply1.npy``);
- ``rollout``: the run's rollout targets;
- ``shuffled``: the 1-ply values plus the rollouts' residuals (rollout - 1-ply) dealt to
  other positions: the rollouts' noise without what they know;
- ``ridge``: the 1-ply values plus a ridge regression of the residual on the net's
  inputs (``--ridge`` its penalty): what they know, smoothed;
- ``const``: the 1-ply values plus the residual's mean;
- ``noise``: the 1-ply values plus Gaussian noise of ``--sd``.

    python tools/training/target_kinds.py RUN.net KIND --positions 3000 --steps 20 --out F.net
    python -m engine duel net:F.net net --games 1000 --seed 2028
    python -m engine benchmark --net F.net
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from engine.evaluator.distill import CHUNK, fit, given_targets, targets, weights
from engine.evaluator.net import Floats, load_net, net_path
from engine.evaluator.race_train import Adam

KINDS = ("ply1", "rollout", "shuffled", "ridge", "const", "noise")


def kind_targets(kind: str, roll: Floats, ply1: Floats, x: Floats, ridge: float, sd: float,
                 rng: np.random.Generator) -> Floats:  # fmt: skip
    """The targets of ``kind`` from the rollouts' and the 1-ply values of the positions."""
    residual = roll - ply1
    if kind == "rollout":
        return roll
    if kind == "ply1":
        return ply1
    if kind == "shuffled":
        extra = residual[rng.permutation(len(residual))]
    elif kind == "const":
        extra = np.broadcast_to(residual.mean(axis=0), residual.shape)
    elif kind == "noise":
        extra = rng.normal(0.0, sd, residual.shape)
    else:  # ridge: least squares on the inputs and a constant, the constant not penalised
        a = np.hstack([x.astype(np.float64), np.ones((len(x), 1))])
        gram = a.T @ a + ridge * np.eye(a.shape[1])
        gram[-1, -1] -= ridge
        extra = a @ np.linalg.solve(gram, a.T @ residual)
    out: Floats = np.clip(ply1 + extra, 0.0, 1.0)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run", help="a distill run's weights (its .state.npz beside)")
    p.add_argument("kind", choices=KINDS)
    p.add_argument("--positions", type=int, default=3000)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--ridge", type=float, default=100.0)
    p.add_argument("--sd", type=float, default=0.02)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    given, _boards, _sides, rolled, *_ = given_targets([a.run], "long")
    n = min(a.positions, len(given))
    spots, roll = given[:n], rolled[:n]
    net = load_net(net_path("long"))
    cache = Path(a.run + ".ply1.npy")
    ply1 = np.load(cache) if cache.exists() else np.empty((0, 3))
    if len(ply1) < n:
        ply1 = np.concatenate([ply1, targets(net, "long", spots[len(ply1) :])])
        np.save(cache, ply1)
    ply1 = ply1[:n]
    x = net.inputs_of([s[:2] for s in spots]).astype(np.float32)
    rng = np.random.default_rng(a.seed)
    t = kind_targets(a.kind, roll, ply1, x, a.ridge, a.sd, rng)
    residual = roll - ply1
    print(f"{n} positions; rollout - 1-ply: mean {residual.mean(0).round(4)}, "
          f"sd {residual.std(0).round(4)}")  # fmt: skip
    opt = Adam(weights(net), 1e-4)
    for k in range(CHUNK, n + CHUNK, CHUNK):
        fit(net, x[: min(k, n)], t[: min(k, n)], a.steps, opt, rng)
    net.header.update(trained=f"target_kinds {a.kind}, {n} positions of {Path(a.run).name}",
                      distill_steps=a.steps)  # fmt: skip
    net.save(a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
