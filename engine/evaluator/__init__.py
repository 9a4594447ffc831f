"""The long-nardy evaluator (issue 23): a TD(lambda)-trained net shipped as data
(``long.net``), its encoding, and the move choice built on it. numpy only at run time."""

from __future__ import annotations

import os
from pathlib import Path

# The net's matrices are tiny: BLAS threads only cost (a 12 x 212 product ran 2.5 times
# slower with OpenBLAS's threads on a busy machine). Set before numpy is first imported.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from engine.evaluator.net import Net, WeightsError, equity, flip  # noqa: E402 (threads set first)

SHIPPED = Path(__file__).with_name("long.net")
_LOADED: dict[str, Net] = {}


def load_net(path: str | Path | None = None) -> Net:
    """The net in ``path`` (the shipped ``long.net`` by default), loaded once a process."""
    key = str(SHIPPED if path is None else path)
    net = _LOADED.get(key)
    if net is None:
        net = _LOADED[key] = Net.load(key)
    return net


__all__ = ["SHIPPED", "Net", "WeightsError", "equity", "flip", "load_net"]
