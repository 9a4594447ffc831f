"""The long-nardy bear-off databases (docs/analysis.md), read with numpy at run time.

A *bear-off position* has every checker of both sides that is still on the board in its
own home (points 1-6, RULES L7) and neither side finished: no checker can meet one of
the other side's again, so each side's future is its own dice and its own choices.

- The **one-sided** database, as GNU Backgammon's: for each of the 54,264 arrangements
  of 0-15 checkers on the six home points, the distribution of the number of rolls to
  bear them all off (playing each roll to the fewest rolls expected), and for the
  arrangements of all 15 checkers the distribution of the rolls to bear off the first
  one (the mars of L8, played to the fewest rolls expected for that).
- The **two-sided** database: the exact chance of winning for the side to move when
  neither side has more than :data:`TWO_SIDED` checkers left (both have borne off, so
  no mars is possible), from an exact recursion over both sides' plays.

Both are built by ``python -m engine bearoff-build`` (:mod:`engine.evaluator.bearoff_build`)
from the engine's own legal moves and shipped as ``bearoff.npz``."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.errors import EngineError
from engine.evaluator.npzfile import save_npz

Floats = npt.NDArray[np.float64]
HOME = 6
CHECKERS = 15
TWO_SIDED = 6  # the two-sided database holds every pair with at most 6 checkers a side
ROLLS_MAX = 48  # the longest bear-off takes fewer rolls (the build checks it)
FORMAT = "nardy-bearoff"
VERSION = 1
SHIPPED = Path(__file__).with_name("bearoff.npz")

Home = tuple[int, ...]  # the counts on points 1..6


class BearoffError(EngineError):
    """A bear-off database that cannot be used (missing, or of another format)."""

    code = "bad-bearoff"


def home_positions(checkers: int = CHECKERS) -> list[Home]:
    """Every arrangement of 0..``checkers`` checkers on points 1-6, in the databases'
    order: by pips, then by the counts (so a play always leads to a lower index)."""
    found = []
    for n in range(checkers + 1):  # n checkers: a multiset of n points of the six
        for combo in itertools.combinations_with_replacement(range(HOME), n):
            h = [0] * HOME
            for p in combo:
                h[p] += 1
            found.append(tuple(h))
    found.sort(key=lambda h: (pips(h), h))
    return found


def pips(h: Home) -> int:
    return sum((p + 1) * n for p, n in enumerate(h))


def home_of(board: tuple[int, ...]) -> Home | None:
    """The home counts of an engine board (27 counts, RULES L1 numbering), or None when
    a checker of it is still outside its home."""
    if any(board[7:]):
        return None
    return tuple(board[1:7])


def is_bearoff(me: tuple[int, ...], opp: tuple[int, ...]) -> bool:
    """Both sides' checkers all in their homes and neither finished (no contact ever
    again in long nardy: a side's home is points the other side has left behind)."""
    return me[0] < CHECKERS and opp[0] < CHECKERS and not any(me[7:]) and not any(opp[7:])


def win_chances(
    finish_me: Floats, first_me: Floats, finish_opp: Floats, first_opp: Floats
) -> Floats:
    """(win, win mars, lose mars) for the side to move from the two sides' distributions
    of rolls to finish and to bear off the first checker (index n: done on the n-th roll
    of that side; a side that has borne off already has all of ``first`` at 0). The
    sides are taken as independent, as GNU Backgammon's one-sided database does. Rows
    broadcast: the arrays may be (n, ROLLS_MAX)."""
    # the mover wins on its roll n when the other side needs n or more of its rolls
    opp_not_before = 1 - np.cumsum(finish_opp, axis=-1) + finish_opp  # P(N_opp >= n)
    win = (finish_me * opp_not_before).sum(axis=-1)
    first_not_before = 1 - np.cumsum(first_opp, axis=-1) + first_opp  # P(F_opp >= n)
    win_mars = (finish_me * first_not_before).sum(axis=-1)
    # the other side finishes on its roll n (after the mover's n-th): a mars when the
    # mover has not borne off one in n rolls
    me_not_yet = 1 - np.cumsum(first_me, axis=-1)  # P(F_me > n)
    lose_mars = (finish_opp * me_not_yet).sum(axis=-1)
    return np.stack([win, win_mars, np.clip(lose_mars, 0.0, 1.0)], axis=-1)


class Bearoff:
    """The loaded databases: ``finish[i]`` and ``first[i]`` the distributions of position
    ``i`` of :func:`home_positions`, ``two[i, j]`` the exact chance that the side to move
    with small position ``i`` wins against small position ``j``."""

    def __init__(self, finish: Floats, first: Floats, two: Floats, header: dict[str, object]):
        self.finish, self.first, self.two, self.header = finish, first, two, header
        self.positions = home_positions()
        self.index = {h: i for i, h in enumerate(self.positions)}
        small = [h for h in self.positions if sum(h) <= TWO_SIDED]
        self.small = {h: i for i, h in enumerate(small)}
        if two.shape != (len(small), len(small)) or finish.shape[0] != len(self.positions):
            raise BearoffError("the bear-off database's sizes do not match its positions",
                               code="bearoff-shape")  # fmt: skip

    def expected_rolls(self, h: Home) -> float:
        """The mean number of rolls to bear off ``h`` (one-sided)."""
        return float(self.finish[self.index[h]] @ np.arange(ROLLS_MAX))

    def exact(self, me: Home, opp: Home) -> bool:
        """Whether the two-sided (exact) database holds this pair."""
        return sum(me) <= TWO_SIDED and sum(opp) <= TWO_SIDED

    def outputs(self, pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Floats:
        """(win, win mars, lose mars) for the side to move of each bear-off position
        (engine boards, mover's first; :func:`is_bearoff` must hold)."""
        out = np.zeros((len(pairs), 3))
        rest: list[int] = []
        mine: list[int] = []
        theirs: list[int] = []
        for k, (me, opp) in enumerate(pairs):
            a, b = tuple(me[1:7]), tuple(opp[1:7])
            if self.exact(a, b):
                out[k, 0] = self.two[self.small[a], self.small[b]]
            else:
                rest.append(k)
                mine.append(self.index[a])
                theirs.append(self.index[b])
        if rest:
            out[rest] = win_chances(self.finish[mine], self.first[mine],
                                    self.finish[theirs], self.first[theirs])  # fmt: skip
        return out


def save_bearoff(path: Path, finish: Floats, first: Floats, two: Floats,
                 header: dict[str, object]) -> None:  # fmt: skip
    """Write the databases: probabilities as 16-bit fractions of 65,535 (GNU Backgammon
    stores its database so; the rounding moves an equity by under 0.02 mp), the
    two-sided table as float32."""
    head = np.frombuffer(
        json.dumps({"format": FORMAT, "version": VERSION, **header}).encode(), np.uint8
    )
    save_npz(path, header=head, finish=_q(finish), first=_q(first), two=two.astype(np.float32))


def _q(a: Floats) -> npt.NDArray[np.uint16]:
    return np.rint(np.clip(a, 0, 1) * 65535).astype(np.uint16)


def _rows(a: npt.NDArray[np.uint16]) -> Floats:
    """16-bit fractions back to distributions, each row scaled to sum to 1 again."""
    out = a.astype(np.float64)
    total = out.sum(axis=1, keepdims=True)
    scaled: Floats = np.divide(out, total, out=np.zeros_like(out), where=total > 0)
    return scaled


_LOADED: dict[str, Bearoff] = {}


def load_bearoff(path: str | Path | None = None) -> Bearoff:
    """The databases in ``path`` (the shipped ``bearoff.npz`` by default), once a process;
    :class:`BearoffError` when missing or not one."""
    key = str(SHIPPED if path is None else path)
    found = _LOADED.get(key)
    if found is not None:
        return found
    try:
        with np.load(key, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            finish = _rows(data["finish"])
            first = _rows(data["first"])
            two = data["two"].astype(np.float64)
    except (OSError, ValueError, KeyError) as exc:
        raise BearoffError(
            f"{key}: no bear-off database ({exc}); build it with python -m engine bearoff-build",
            code="bearoff-unreadable",
            params={"path": key, "exc": str(exc)},
        ) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BearoffError(f"{key}: not a {FORMAT} file", code="bearoff-format",
                           params={"key": key})  # fmt: skip
    found = _LOADED[key] = Bearoff(finish, first, two, header)
    return found
