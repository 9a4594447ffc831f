"""The inputs of the long-nardy net (TD-Gammon style), computed for many positions at
once: each position is the mover's and the opponent's boards in their own numbering
(RULES L1: index 0 borne off, 1-24 the points), the mover to move.

Per side: four units a point (at least one, two, three checkers, and the count above
three), the borne-off count, the pips, the head (L4), checkers at home and still in the
first half, the longest run of points along the opponent's route and the runs of four
and five (the six-point block of L5 is the end of such a run); then the race flag (no
checker of either side can meet one of the other's) and the pip difference.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

ENCODER_VERSION = 1
POINT_UNITS = 4
SIDE_INPUTS = 24 * POINT_UNITS + 9
INPUTS = 2 * SIDE_INPUTS + 2

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


def _runs(occupied: npt.NDArray[np.bool_]) -> tuple[Floats, Floats, Floats]:
    """Per position: the longest run of occupied points along ``_ROUTE`` and how many
    runs reach four and five points."""
    last_empty = np.maximum.accumulate(np.where(occupied, -1, _INDEX), axis=1)
    run = _INDEX - last_empty
    return run.max(axis=1), (run == 4).sum(axis=1), (run == 5).sum(axis=1)


_WEIGHTS = np.arange(1, 25, dtype=np.float64)


def _side(board: Boards) -> Floats:
    """The inputs of one side for each board of shape (n, 25)."""
    n = board.shape[0]
    points = board[:, 1:25].astype(np.float64)
    out = np.empty((n, SIDE_INPUTS), np.float32)
    out[:, 0:24] = points >= 1
    out[:, 24:48] = points >= 2
    out[:, 48:72] = points >= 3
    out[:, 72:96] = np.maximum(points - 3, 0) / 4
    best, fours, fives = _runs(board[:, _ROUTE] > 0)
    out[:, 96] = board[:, 0] / 15
    out[:, 97] = points @ _WEIGHTS / 180
    out[:, 98] = points[:, 23] / 15
    out[:, 99] = points[:, :6].sum(axis=1) / 15
    out[:, 100] = points[:, 12:].sum(axis=1) / 15
    out[:, 101] = best / 6
    out[:, 102] = fours / 2
    out[:, 103] = fives
    out[:, 104] = board[:, 0] == 0  # nothing borne off yet: a mars looms (L8)
    return out


def encode(boards: Boards) -> Floats:
    """The net's inputs for each position of ``boards`` (shape (n, INPUTS))."""
    n = boards.shape[0]
    me, opp = boards[:, 0], boards[:, 1]
    sides = _side(boards.reshape(2 * n, 25)).reshape(n, 2 * SIDE_INPUTS)
    out = np.empty((n, INPUTS), np.float32)
    out[:, : 2 * SIDE_INPUTS] = sides
    # a race: each side's checkers are all in its second half (points 1-12), where the
    # other side has already passed (the opponent's 1-12 are the mover's 13-24)
    out[:, -2] = (me[:, 13:25].sum(axis=1) == 0) & (opp[:, 13:25].sum(axis=1) == 0)
    diff = (opp[:, 1:] @ _WEIGHTS - me[:, 1:] @ _WEIGHTS) / 60
    out[:, -1] = np.tanh(diff)
    return out
