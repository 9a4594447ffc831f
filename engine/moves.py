"""A step (one checker moved by one die) and how steps are written (NOTATION 1)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.variants import BAR, OFF, START


class Step(NamedTuple):
    """One checker moved by one die: ``frm`` 1-24, 25 (bar) or 26 (start); ``to`` 0 is
    off."""

    frm: int
    to: int
    die: int
    hit: bool = False


def point_text(index: int) -> str:
    """A point as written: ``off``, ``bar`` (the start too) or its number."""
    if index == OFF:
        return "off"
    if index in (BAR, START):
        return "bar"
    return str(index)


def write_steps(steps: Iterable[Step]) -> str:
    """Canonical moves: in the order played, a checker that goes on chained in full,
    ``(N)`` for consecutive repeats, ``*`` on hits.

    >>> write_steps([Step(24, 18, 6), Step(18, 14, 4)])
    '24/18/14'
    """
    chains: list[list[Step]] = []
    for s in steps:
        if chains and chains[-1][-1].to == s.frm and s.frm != OFF:
            chains[-1].append(s)
        else:
            chains.append([s])
    texts = [
        point_text(c[0].frm) + "".join(f"/{point_text(s.to)}{'*' if s.hit else ''}" for s in c)
        for c in chains
    ]
    out: list[str] = []
    count = 0
    for i, t in enumerate(texts):
        count += 1
        if i + 1 < len(texts) and texts[i + 1] == t:
            continue
        out.append(t if count == 1 else f"{t}({count})")
        count = 0
    return " ".join(out)
