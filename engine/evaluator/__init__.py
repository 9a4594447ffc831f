"""The long-nardy evaluator (docs/analysis.md): a TD(lambda)-trained net shipped as data
(``long.net``, read by :mod:`engine.evaluator.net`), its encoding, the players built on
it and the training. numpy only at run time; this package's ``__init__`` imports none,
so that ``python -m engine`` lists its commands without loading numpy."""

from __future__ import annotations

import os

# The net's matrices are tiny: BLAS threads only cost (a 12 x 212 product ran 2.5 times
# slower with OpenBLAS's threads on a busy machine). Set before numpy is first imported.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
