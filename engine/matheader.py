"""The header line that tells a GNU Backgammon ``.mat`` file (`` 5 point match``) from a
record file: on its own, so that ``python -m engine verify`` tells them apart without
importing :mod:`engine.matfile` for every record file (its start-up, docs/performance.md)."""

from __future__ import annotations

import re

MAT_HEADER = re.compile(r"^\s*([0-9]{1,6})\s+point\s+match\s*$", re.IGNORECASE)


def looks_like_mat(text: str) -> bool:
    """Whether a text is a .mat file (its header line `` N point match``)."""
    return any(MAT_HEADER.match(line) for line in text.splitlines()[:40])
