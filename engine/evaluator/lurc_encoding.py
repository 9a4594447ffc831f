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

Version 2 adds, per side, what its hit and unplaced checkers face (Z3, Z5: they enter on
the side's points 19-24, one a die, before anything else moves): the share of those six
points the opponent's bridges hold, the chance that neither die of a roll enters while
checkers wait (the share squared), the side's bridges still in the way of an
opponent's checker (Z4: the opponent cannot land there), and the share of the 36 rolls
with which the opponent hits one of the side's lone checkers in one step: a die's step
from a checker on the board, or an entry while the opponent has checkers to enter (Z3,
Z5: then nothing else moves); a paš steps its n and its 7 - n (Z7), a houšek any of
1-6 (Z8: it chooses its paš).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.variants import LURC, WHITE

ENCODER_VERSION = 2
POINT_UNITS = 3
SIDE_INPUTS = 24 * POINT_UNITS + 9
V1_INPUTS = 2 * SIDE_INPUTS + 2
BLOCK_INPUTS = 4  # per side, version 2
INPUTS = V1_INPUTS + 2 * BLOCK_INPUTS
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
# the opponent's points that are the fields of the mover's entry points 19-24 (Z3)
_ENTRY_FIELDS = _SAME[18:24] - 1
# _STEP[p-1, (k-1) * 24 + q-1]: an opponent's checker on its point q lands on the field of
# the mover's point p with a step of k (both sides count down their own points)
_STEP = np.array([[q - _SAME[p] == k for k in range(1, 7) for q in range(1, 25)]
                  for p in range(24)], np.float64)  # fmt: skip
# _ENTER[p-1, k-1]: an opponent's checker entering with a die k lands on the mover's p
_ENTER = np.array([[25 - _SAME[p] == k for k in range(1, 7)] for p in range(24)], np.float64)
_BITS = (1 << np.arange(6)).astype(np.float64)


def _steps_of(a: int, b: int) -> set[int]:
    """The single steps a roll offers: its two dice; a paš n-n its n and 7 - n (Z7); a
    houšek any step, its paš chosen (Z8)."""
    if (a, b) in ((1, 2), (2, 1)):
        return set(range(1, 7))
    return {a, 7 - a} if a == b else {a, b}


# _SHOTS[mask]: the share of the 36 rolls offering a step k whose bit k-1 is in mask
_SHOTS = np.array([sum(any(mask >> (k - 1) & 1 for k in _steps_of(a, b))
                       for a in range(1, 7) for b in range(1, 7)) / 36
                   for mask in range(64)])  # fmt: skip


def as_boards(pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Boards:
    """The (mover, opponent) board pairs (27 counts each) as an array (n, 2, 27)."""
    return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2, 27)


def _to_enter(board: Boards) -> npt.NDArray[np.bool_]:
    """(n,): the side has checkers to enter, hit (Z5) or not yet placed (Z3)."""
    return (board[:, 25] + board[:, 26]) > 0


def _reach(other: Boards) -> npt.NDArray[np.bool_]:
    """(n, 24): the fields of the mover's points that an opponent's checker can still
    land on: one behind on its route, or one to enter (it enters on its points 19-24
    and goes on from there)."""
    reach: npt.NDArray[np.bool_] = (other[:, 1:25] > 0).astype(np.float64) @ _AHEAD.T > 0
    reach |= _to_enter(other)[:, None]
    return reach


def _side(board: Boards, other: Boards) -> Floats:
    """The inputs of one side (boards (n, 27)) against the other side's boards."""
    n = board.shape[0]
    points = board[:, 1:25].astype(np.float64)
    out = np.empty((n, SIDE_INPUTS), np.float32)
    out[:, 0:24] = points >= 1
    out[:, 24:48] = points >= 2
    out[:, 48:72] = np.maximum(points - 2, 0) / 4
    waiting = board[:, 25] + board[:, 26]
    blots = points == 1
    out[:, 72] = board[:, 26] / 15
    out[:, 73] = board[:, 25] / 2
    out[:, 74] = board[:, 0] / 15
    out[:, 75] = (points @ _WEIGHTS + 25 * waiting) / 200
    out[:, 76] = blots.sum(axis=1) / 5
    out[:, 77] = (blots & _reach(other)).sum(axis=1) / 5  # lone checkers in reach
    out[:, 78] = points[:, :6].sum(axis=1) / 15
    out[:, 79] = (points >= 2).sum(axis=1) / 8
    out[:, 80] = _to_enter(board)
    return out


def _blocks(board: Boards, other: Boards) -> Floats:
    """Version 2's inputs of one side (boards (n, 27)) against the other side's."""
    n = board.shape[0]
    out = np.empty((n, BLOCK_INPUTS), np.float32)
    blocked = (other[:, 1:25][:, _ENTRY_FIELDS] >= 2).sum(axis=1) / 6
    out[:, 0] = blocked
    out[:, 1] = np.where(_to_enter(board), blocked * blocked, 0.0)
    out[:, 2] = ((board[:, 1:25] >= 2) & _reach(other)).sum(axis=1) / 8
    theirs = (other[:, 1:25] > 0).astype(np.float64)
    blots = (board[:, 1:25] == 1).astype(np.float64)
    moved = ((blots @ _STEP).reshape(n, 6, 24) * theirs[:, None, :]).sum(axis=2) > 0
    entered = blots @ _ENTER > 0
    hits = np.where(_to_enter(other)[:, None], entered, moved)
    out[:, 3] = _SHOTS[(hits @ _BITS).astype(np.int64)]
    return out


def widen(w1: Floats, version: int) -> Floats | None:
    """The first layer of a net trained under encoder ``version`` as this encoder reads
    it (no weight on the inputs added since), or None when there is no way from it."""
    if version == 1 and w1.shape[0] == V1_INPUTS:
        return np.concatenate([w1, np.zeros((INPUTS - V1_INPUTS, w1.shape[1]), w1.dtype)])
    return None


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
    out[:, V1_INPUTS - 2] = contact | waiting
    pips_me = me[:, 1:25] @ _WEIGHTS + 25 * (me[:, 25] + me[:, 26])
    pips_opp = opp[:, 1:25] @ _WEIGHTS + 25 * (opp[:, 25] + opp[:, 26])
    out[:, V1_INPUTS - 1] = np.tanh((pips_opp - pips_me) / 60)
    out[:, V1_INPUTS : V1_INPUTS + BLOCK_INPUTS] = _blocks(me, opp)
    out[:, V1_INPUTS + BLOCK_INPUTS :] = _blocks(opp, me)
    return out
