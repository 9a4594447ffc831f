"""One BLAS thread for the evaluator, set before numpy is first imported (the package's
``__init__`` imports this module first, so whichever module of the engine is imported
first, numpy comes after it). The evaluator's matrices are small: BLAS threads only cost
(a 12 x 212 product ran 2.5 times slower with OpenBLAS's threads on a busy machine; a
game's 1-ply analysis took 24 CPU s with them against 6 s without, when
``engine.analysis`` brought numpy in before the evaluator's package set this). An
operator's own setting of these variables is kept."""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
