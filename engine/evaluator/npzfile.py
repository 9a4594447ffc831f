"""Writing the evaluator's numpy files (weights, tables, a training run's state)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import numpy.typing as npt


def save_npz(path: str | Path, **arrays: npt.ArrayLike) -> None:
    """Write ``arrays`` to ``path`` (compressed ``.npz``) atomically: the file is the
    old one or the new one, never half, whenever the process is stopped (a long run's
    state holds hours of targets)."""
    path = Path(path)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)
