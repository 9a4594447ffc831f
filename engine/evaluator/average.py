"""``python -m engine.evaluator.average OUT IN [IN ...]``: the mean of the weights of
checkpoints of one training run (stochastic weight averaging). TD(lambda) self-play
at a learning rate that stays high wanders about what it learns; the mean of its
checkpoints sits nearer the middle and plays more steadily than any one of them
(docs/analysis_lurc.md, "Encoder 2"). The header is the latest checkpoint's, with
``averaged``: the games of each checkpoint averaged."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from engine.errors import refused_with_2
from engine.evaluator.net import Floats, Net, WeightsError


def average(paths: list[Path]) -> Net:
    """The mean net of the checkpoints ``paths``; :class:`WeightsError` when they are
    not of one run (another game, encoder, size or seed)."""
    nets = [Net.load(p) for p in paths]
    first = nets[0]

    def run_of(net: Net) -> tuple[object, ...]:
        return (net.variant, net.header.get("encoder"), net.w1.shape, net.w2.shape,
                net.header.get("seed"))  # fmt: skip

    for path, net in zip(paths[1:], nets[1:], strict=True):
        if run_of(net) != run_of(first):
            raise WeightsError(
                f"{path}: not a checkpoint of the same run as {paths[0]} "
                "(the game, the encoder, the sizes and the seed must agree)",
                code="weights-mixed",
                params={"path": str(path), "first": str(paths[0])},
            )
    latest = max(nets, key=lambda n: n.games)
    header = {**latest.header, "averaged": [n.games for n in nets]}
    header.pop("widened_from", None)

    def mean(name: str) -> Floats:
        stacked: Floats = np.stack([getattr(n, name) for n in nets])
        out: Floats = stacked.mean(axis=0).astype(np.float32)
        return out

    return Net(mean("w1"), mean("b1"), mean("w2"), mean("b2"), header)


@refused_with_2
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m engine.evaluator.average",
        description="average the weights of checkpoints of one training run",
    )
    p.add_argument("out", help="the averaged weights")
    p.add_argument("inputs", nargs="+", help="checkpoints of one run")
    a = p.parse_args(argv)
    net = average([Path(x) for x in a.inputs])
    net.save(a.out)
    print(f"{a.out}: the mean of {len(a.inputs)} checkpoints ({net.header['averaged']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
