"""The long-nardy evaluator (docs/analysis.md): a TD(lambda)-trained net shipped as data
(``long.net``, read by :mod:`engine.evaluator.net`), its encoding, the players built on
it and the training. numpy only at run time; this package's ``__init__`` imports none,
so that ``python -m engine`` lists its commands without loading numpy."""

from __future__ import annotations

# BLAS runs one thread: engine/__init__.py sets it before numpy is first imported.
