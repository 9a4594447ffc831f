"""The inputs of the long-nardy net (TD-Gammon style), computed for many positions at
once: each position is the mover's and the opponent's boards in their own numbering
(RULES L1: index 0 borne off, 1-24 the points), the mover to move.

Per side: four units a point (at least one, two, three checkers, and the count above
three), the borne-off count, the pips, the head (L4), checkers at home and still in the
first half, the longest run of points along the opponent's route and the runs of four
and five (the six-point block of L5 is the end of such a run); then the race flag (no
checker of either side can meet one of the other's) and the pip difference.

Version 2 adds what a priming position needs (gnubg's escapes and containment, as long
nardy has them: one checker holds a point, L5), per side as the one that blocks: how many
of the other's checkers still have to pass its longest run, and for the other's
rearmost checker the share of the 36 rolls that take it past every blocking checker, the
share that move it at all, and how far a roll takes it on average. A file of version 1
loads as version 2 with no weight on the new inputs (:func:`widen`), so its values do not
change.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

ENCODER_VERSION = 2
POINT_UNITS = 4
SIDE_INPUTS = 24 * POINT_UNITS + 9
PRIMING_INPUTS = 4  # per side: trapped, escapes, mobility, mean reach
V1_INPUTS = 2 * SIDE_INPUTS + 2
INPUTS = V1_INPUTS + 2 * PRIMING_INPUTS

# the mover's points in the order the opponent travels past them (its 24 -> 1 is the
# mover's 12 -> 1, then 24 -> 13), so that a run of the opponent's route is contiguous
_ROUTE = np.array([*range(12, 0, -1), *range(24, 12, -1)])

Boards = npt.NDArray[np.int64]  # shape (n, 2, 25): the mover's board, the opponent's
Floats = npt.NDArray[np.float32]


def as_boards(pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Boards:
    """The (mover, opponent) board pairs (27 counts each, as the engine keeps them) as
    one array of shape (n, 2, 25)."""
    return np.array([(me[:25], opp[:25]) for me, opp in pairs], dtype=np.int64)


_INDEX = np.arange(24)


def _runs(held: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Per position and route index (``held``: the side's points along ``_ROUTE`` that
    hold a checker): the length of the run of held points ending there (0: not held)."""
    return _INDEX - np.maximum.accumulate(np.where(held, -1, _INDEX), axis=1)


_WEIGHTS = np.arange(1, 25, dtype=np.float64)


def _side(board: Boards, runs: npt.NDArray[np.int64]) -> Floats:
    """The inputs of one side for each board of shape (n, 25) (``runs``: its
    :func:`_runs`)."""
    n = board.shape[0]
    points = board[:, 1:25].astype(np.float64)
    out = np.empty((n, SIDE_INPUTS), np.float32)
    out[:, 0:24] = points >= 1
    out[:, 24:48] = points >= 2
    out[:, 48:72] = points >= 3
    out[:, 72:96] = np.maximum(points - 3, 0) / 4
    out[:, 96] = board[:, 0] / 15
    out[:, 97] = points @ _WEIGHTS / 180
    out[:, 98] = points[:, 23] / 15
    out[:, 99] = points[:, :6].sum(axis=1) / 15
    out[:, 100] = points[:, 12:].sum(axis=1) / 15
    out[:, 101] = runs.max(axis=1) / 6
    out[:, 102] = (runs == 4).sum(axis=1) / 2  # the runs reaching four and five points
    out[:, 103] = (runs == 5).sum(axis=1)
    out[:, 104] = board[:, 0] == 0  # nothing borne off yet: a mars looms (L8)
    return out


# the 21 rolls: the 15 mixed ones (2 of 36 each) and the 6 doubles (1 of 36), and the
# pips each single die, both dice, and each of a double's four steps takes a checker
_MIXED = np.array([(a, b) for a in range(1, 7) for b in range(a + 1, 7)])
_ONE, _TWO = _MIXED[:, 0], _MIXED[:, 1]
_DOUBLE_STEPS = np.arange(1, 5)[:, None] * np.arange(1, 7)  # (4 steps, 6 doubles)
_ROLL_WEIGHTS = np.array([2] * 15 + [1] * 6, np.float32)


def _priming(held: npt.NDArray[np.bool_], runs: npt.NDArray[np.int64], runner: Boards) -> Floats:
    """Per position: how the blocker's checkers (``held`` and ``runs``, as :func:`_runs`
    takes and gives them) hold back the ``runner``'s (a board of shape (n, 25) in its own
    numbering): version 2's inputs, 4 a side."""
    n = held.shape[0]
    # route index i: the runner's point 24 - i, the blocker's point _ROUTE[i]
    at = np.where(held, _INDEX, -1)
    end = runs.argmax(axis=1)  # the first of the longest runs (none: no point held)
    best = runs[np.arange(n), end]
    start = np.where(best > 0, end + 1 - best, 0)
    along = runner[:, 24 - _INDEX]  # the runner's checkers by route index
    trapped = (along * (start[:, None] > _INDEX)).sum(axis=1)
    rear = (along.cumsum(axis=1) == 0).sum(axis=1)  # the rearmost checker (24: none)
    last = at.max(axis=1)  # the blocker's furthest point along the route (-1: none)
    free = np.ones((n, 49), bool)
    free[:, :24] = ~held
    ahead = free[np.arange(n)[:, None], rear[:, None] + 1 + _INDEX]  # 1-24 pips on
    one, two = ahead[:, _ONE - 1], ahead[:, _TWO - 1]
    both = ahead[:, _ONE + _TWO - 1] & (one | two)
    steps = np.logical_and.accumulate(ahead[:, _DOUBLE_STEPS - 1], axis=1)
    reach = np.concatenate(
        [np.maximum(np.maximum(one * _ONE, two * _TWO), both * (_ONE + _TWO)),
         steps.sum(axis=1) * _DOUBLE_STEPS[0]], axis=1)  # fmt: skip
    out = np.empty((n, PRIMING_INPUTS), np.float32)
    out[:, 0] = trapped / 15
    out[:, 1] = ((rear[:, None] + reach) > last[:, None]) @ _ROLL_WEIGHTS / 36
    out[:, 2] = (reach > 0) @ _ROLL_WEIGHTS / 36
    out[:, 3] = reach @ _ROLL_WEIGHTS / (36 * 24)
    return out


def encode(boards: Boards) -> Floats:
    """The net's inputs for each position of ``boards`` (shape (n, INPUTS))."""
    n = boards.shape[0]
    me, opp = boards[:, 0], boards[:, 1]
    each = boards.reshape(2 * n, 25)  # the mover's board, the opponent's, the next pair's...
    held = each[:, _ROUTE] > 0
    runs = _runs(held)
    sides = _side(each, runs).reshape(n, 2 * SIDE_INPUTS)
    out = np.empty((n, INPUTS), np.float32)
    out[:, : 2 * SIDE_INPUTS] = sides
    # a race: each side's checkers are all in its second half (points 1-12), where the
    # other side has already passed (the opponent's 1-12 are the mover's 13-24)
    out[:, V1_INPUTS - 2] = (me[:, 13:25].sum(axis=1) == 0) & (opp[:, 13:25].sum(axis=1) == 0)
    diff = (opp[:, 1:] @ _WEIGHTS - me[:, 1:] @ _WEIGHTS) / 60
    out[:, V1_INPUTS - 1] = np.tanh(diff)
    both = _priming(held, runs, boards[:, ::-1].reshape(2 * n, 25))  # each against the other
    out[:, V1_INPUTS:] = both.reshape(n, 2 * PRIMING_INPUTS)
    return out


def widen(w1: Floats, version: int) -> Floats | None:
    """The first layer of a net trained under an older encoder ``version`` as the current
    encoder reads it (no weight on the inputs added since), or None when there is no way
    from that version."""
    if version == 1 and w1.shape[0] == V1_INPUTS:
        pad = np.zeros((INPUTS - V1_INPUTS, w1.shape[1]), w1.dtype)
        return np.concatenate([w1, pad])
    return None
