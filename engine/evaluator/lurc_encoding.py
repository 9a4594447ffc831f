"""The inputs of the Lurč net, computed for many positions at once: each position is
the mover's and the opponent's boards in their own numbering (27 counts: off, the
points 1-24, the bar, the start), the mover to move.

Per side: three units a point (a checker, a bridge of two that the opponent cannot
land on (Z4), the count above two); the checkers still to enter (Z3), the hit ones
waiting to re-enter (Z5), the borne-off ones, the pips (a checker to enter counts
25), the lone checkers, the lone checkers an opponent's checker can still reach and
hit, and the checkers at home (Z9). Then the two routes: whether any checker of one
side can still meet one of the other's (Z2: the routes meet twice, running against
each other; without contact the game is a race), and the pip difference.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.variants import LURC, WHITE

ENCODER_VERSION = 1
POINT_UNITS = 3
SIDE_INPUTS = 24 * POINT_UNITS + 9
INPUTS = 2 * SIDE_INPUTS + 2
OUTPUTS = 1  # Z11: a win is one point, no mars: the mover's chance of winning

Boards = npt.NDArray[np.int64]  # shape (n, 2, 27): the mover's board, the opponent's
Floats = npt.NDArray[np.float32]

# the opponent's point that is the same field as the mover's point p (the same for
# both colours: the map is an involution of the two routes)
_SAME = np.array([LURC.opp_map[WHITE][p] for p in range(1, 25)])
# _AHEAD[p-1, q-1]: an opponent's checker on its point q can still land on the field of
# the mover's point p (it is further along its route: its point there is lower than q)
_AHEAD = np.array([[_SAME[p] < q for q in range(1, 25)] for p in range(24)], np.float64)
# _MEET[p-1, q-1]: a mover's checker on p and an opponent's on q can still meet (a field
# the mover reaches from p, p itself included, that the opponent reaches from q)
_MEET = np.array(
    [[any(_SAME[r] < q for r in range(p)) for q in range(1, 25)] for p in range(1, 25)],
    np.float64,
)
_WEIGHTS = np.arange(1, 25, dtype=np.float64)


def as_boards(pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Boards:
    """The (mover, opponent) board pairs (27 counts each) as an array (n, 2, 27)."""
    return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2, 27)


def _side(board: Boards, other: Boards) -> Floats:
    """The inputs of one side (boards (n, 27)) against the other side's boards."""
    n = board.shape[0]
    points = board[:, 1:25].astype(np.float64)
    theirs = other[:, 1:25].astype(np.float64)
    out = np.empty((n, SIDE_INPUTS), np.float32)
    out[:, 0:24] = points >= 1
    out[:, 24:48] = points >= 2
    out[:, 48:72] = np.maximum(points - 2, 0) / 4
    waiting = board[:, 25] + board[:, 26]
    blots = points == 1
    # a lone checker is in reach when the opponent still has a checker behind it on its
    # route, or one to enter (it enters on its points 19-24 and goes on from there)
    reach = (theirs > 0).astype(np.float64) @ _AHEAD.T > 0
    reach |= ((other[:, 25] + other[:, 26]) > 0)[:, None]
    out[:, 72] = board[:, 26] / 15
    out[:, 73] = board[:, 25] / 2
    out[:, 74] = board[:, 0] / 15
    out[:, 75] = (points @ _WEIGHTS + 25 * waiting) / 200
    out[:, 76] = blots.sum(axis=1) / 5
    out[:, 77] = (blots & reach).sum(axis=1) / 5
    out[:, 78] = points[:, :6].sum(axis=1) / 15
    out[:, 79] = (points >= 2).sum(axis=1) / 8
    out[:, 80] = waiting > 0
    return out


def encode(boards: Boards) -> Floats:
    """The net's inputs for each position of ``boards`` (shape (n, INPUTS))."""
    n = boards.shape[0]
    me, opp = boards[:, 0], boards[:, 1]
    out = np.empty((n, INPUTS), np.float32)
    out[:, :SIDE_INPUTS] = _side(me, opp)
    out[:, SIDE_INPUTS : 2 * SIDE_INPUTS] = _side(opp, me)
    mine = (me[:, 1:25] > 0).astype(np.float64)
    theirs = (opp[:, 1:25] > 0).astype(np.float64)
    waiting = (me[:, 25] + me[:, 26] + opp[:, 25] + opp[:, 26]) > 0
    contact = ((mine @ _MEET) * theirs).sum(axis=1) > 0
    out[:, -2] = contact | waiting
    pips_me = me[:, 1:25] @ _WEIGHTS + 25 * (me[:, 25] + me[:, 26])
    pips_opp = opp[:, 1:25] @ _WEIGHTS + 25 * (opp[:, 25] + opp[:, 26])
    out[:, -1] = np.tanh((pips_opp - pips_me) / 60)
    return out
