"""Every legal end of a roll by a breadth-first search over the steps, for the variants
with no block rule (short backgammon, Lurč): a Lurč paš is eight moves, and a crowded
one has tens of thousands of ends, too many for :class:`engine.movegen.StepSearch`'s
walk of every order of the steps.

The rules stay :mod:`engine.steps`' (``target`` says where a checker may land,
``hit_index`` what it hits); this module only orders the search:

- *steps in canonical order*: each step starts from a point no higher than the one
  before (the bar, then the start, then the points from 24 down). Any legal play can
  be reordered so: a checker only moves down, so every checker that reaches a point
  does so before the steps from it; a step needs only a checker where it starts and an
  open point where it lands, and what the mover does cannot open or close a point (a
  hit lifts a lone checker, which closed nothing: ``closed_at`` 2); the bar and the
  start enter first in any play; and the bear-off that needs every checker home comes
  after the steps from outside home. So each end is found, with far fewer orders.
- *levels*: the positions after k steps are all known before step k+1, so a position
  reached along several canonical orders is expanded once, from the highest point any
  of them allows;
- *boards as integers*: four bits a place (a count is at most 15), and the opponent's
  checkers hit as a bit mask (the opponent's board follows from it);
- *several starts at once* (a houšek's paš after each play of its 1-2, Z8): each
  start's own most dice played decides which ends are its legal ones (Z10), and the
  steps written for an end are a play from a start that may end there.
"""

from __future__ import annotations

import gc

from engine.moves import Step
from engine.position import Board
from engine.steps import TurnState
from engine.variants import BAR, SIZE, START

_SHIFT = tuple(1 << (4 * i) for i in range(SIZE))
_HITS = 4 * SIZE  # the hit mask's bits come after the board's
# the order of the steps: the bar, the start, then the points from 24 down
ORDER = (BAR, START, *range(24, 0, -1))
_RANK = tuple(len(ORDER) - ORDER.index(i) if i in ORDER else 0 for i in range(SIZE))
_NO_BOARD: list[int] = []
_PLAYED = Step(0, 0, 0)


def applies(st: TurnState) -> bool:
    """Whether this search gives a roll's ends: no block rule to check at the end (L5)
    and no hit that could close or open a point (a lone checker closes nothing)."""
    return not st.block_rule and not st.every_step and (not st.hits or st.closed_at >= 2)


def _code(board: list[int] | Board) -> int:
    return sum(n << (4 * i) for i, n in enumerate(board) if n)


def _board(code: int) -> list[int]:
    return [(code >> (4 * i)) & 15 for i in range(SIZE)]


class _Node:
    """A position of the search: the highest rank its next step may start from, the
    starts that reach it (bits) and, for each start first seen here, the step and the
    node it came from."""

    __slots__ = ("board", "bound", "came", "starts")

    def __init__(self, board: list[int], bound: int, starts: int) -> None:
        self.board = board
        self.bound = bound
        self.starts = starts
        self.came: list[tuple[int, _Node | None, tuple[int, int, int] | None]] = []


def _remove(left: tuple[int, ...], d: int) -> tuple[int, ...]:
    i = left.index(d)
    return left[:i] + left[i + 1 :]


class PhaseSearch:
    """The legal ends of one phase of dice from one or more starts (each a board of the
    mover's, a hit mask on the turn's opponent board ``opp0``, and the steps that led
    there). ``ends()`` gives (steps, mover's board, hit mask) per distinct end."""

    def __init__(
        self, st: TurnState, opp0: list[int], dice: tuple[int, ...], *, steps: bool = True
    ) -> None:
        self.st, self.opp0, self.dice, self.steps = st, opp0, dice, steps

    def run(
        self, starts: list[tuple[tuple[Step, ...], int, int]]
    ) -> list[tuple[tuple[Step, ...], int, int]]:
        level: dict[tuple[tuple[int, ...], int], _Node] = {}
        for i, (_, code, mask) in enumerate(starts):
            node = level.setdefault(
                (self.dice, code | (mask << _HITS)), _Node(_board(code), len(ORDER), 0)
            )
            node.starts |= 1 << i
            node.came.append((1 << i, None, None))
        levels = [level]
        while level:
            nxt: dict[tuple[tuple[int, ...], int], _Node] = {}
            for (left, key), node in level.items():
                if left:
                    self._expand(node, left, key, nxt)
            if nxt:
                levels.append(nxt)
            for node in level.values():
                node.board = _NO_BOARD  # expanded: only the paths are needed now
            level = nxt
        return self._ends(starts, levels)

    def _expand(
        self, node: _Node, left: tuple[int, ...], key: int,
        nxt: dict[tuple[tuple[int, ...], int], _Node],
    ) -> None:  # fmt: skip
        """Every step of a die left from ``node``, in canonical order, into ``nxt``."""
        opp0, target, hit_index = self.opp0, self.st.target, self.st.hit_index
        shift, ranks = _SHIFT, _RANK
        me = node.board
        mask = key >> _HITS
        froms = [f for f in ORDER[len(ORDER) - node.bound :] if me[f]]
        for d in dict.fromkeys(left):
            rest = _remove(left, d)
            for frm in froms:
                to = target(me, opp0, frm, d)
                if to < 0:
                    continue
                o = hit_index(opp0, to)
                child = key - shift[frm] + shift[to]
                if o and not (mask >> o) & 1:
                    child |= 1 << (_HITS + o)
                got = nxt.get((rest, child))
                rank = ranks[frm]
                if got is None:
                    board = me[:]
                    board[frm] -= 1
                    board[to] += 1
                    got = nxt[(rest, child)] = _Node(board, rank, 0)
                elif rank > got.bound:
                    got.bound = rank
                new = node.starts & ~got.starts
                if new:
                    got.starts |= new
                    got.came.append((new, node, (frm, to, d)))

    def _ends(
        self, starts: list[tuple[tuple[Step, ...], int, int]],
        levels: list[dict[tuple[tuple[int, ...], int], _Node]],
    ) -> list[tuple[tuple[Step, ...], int, int]]:  # fmt: skip
        """Each start's ends are the positions it reaches with its most dice (Z10, L6);
        with two different dice of which only one can be played, the higher one's."""
        most = _most(len(starts), levels)
        mixed = len(self.dice) == 2 and self.dice[0] != self.dice[1]
        high = max(self.dice) if self.dice else 0
        out: dict[int, tuple[tuple[Step, ...], int, int]] = {}
        for k, lvl in enumerate(levels):
            owners = sum(1 << i for i in range(len(starts)) if most[i] == k)
            if not owners:
                continue
            found = [(left, key, node) for (left, key), node in lvl.items() if node.starts & owners]
            if k == 1 and mixed:
                higher = [f for f in found if high not in f[0]]
                found = higher or found
            for _, key, node in found:
                if key in out:
                    continue
                s = (node.starts & owners).bit_length() - 1
                if self.steps:
                    path = self._path(starts, node, s)[0]
                else:  # only how many: a step stands for each (an evaluator's search)
                    path = starts[s][0] + (_PLAYED,) * k
                out[key] = (path, key & ((1 << _HITS) - 1), key >> _HITS)
        return list(out.values())

    def _path(
        self, starts: list[tuple[tuple[Step, ...], int, int]], node: _Node, s: int
    ) -> tuple[tuple[Step, ...]]:
        """The steps from start ``s`` to ``node`` (the start's own steps first)."""
        moves: list[tuple[int, int, int]] = []
        cur: _Node | None = node
        while cur is not None:
            _, parent, step = next(c for c in cur.came if c[0] >> s & 1)
            if step is not None:
                moves.append(step)
            cur = parent
        path, _, mask = starts[s]
        hit_index = self.st.hit_index
        steps = list(path)
        new = tuple.__new__
        for frm, to, d in reversed(moves):
            o = hit_index(self.opp0, to)
            hit = bool(o) and not (mask >> o) & 1
            if hit:
                mask |= 1 << o
            steps.append(new(Step, (frm, to, d, hit)))
        return (tuple(steps),)


def _most(starts: int, levels: list[dict[tuple[tuple[int, ...], int], _Node]]) -> list[int]:
    """The most dice each start plays: the deepest level it reaches."""
    most = [0] * starts
    for k, lvl in enumerate(levels):
        reach = 0
        for node in lvl.values():
            reach |= node.starts
        for i in range(starts):
            if reach >> i & 1:
                most[i] = k
    return most


def opponent_after(opp0: list[int] | Board, mask: int) -> Board:
    """The opponent's board once the checkers of ``mask`` are hit (each to the bar)."""
    opp = list(opp0)
    o = 0
    while mask:
        if mask & 1:
            opp[o] = 0
            opp[BAR] += 1
        mask >>= 1
        o += 1
    return tuple(opp)


def search_ends(
    st: TurnState, me: list[int], opp: list[int], phases: tuple[tuple[int, ...], ...],
    *, steps: bool = True,
) -> list[tuple[tuple[Step, ...], Board, Board]]:  # fmt: skip
    """The legal ends of a turn played phase by phase, each phase under the must-play
    rule from each end of the one before (Z8, Z10): (steps, mover's board, opponent's).
    With ``steps=False`` only the boards are wanted: each step is a placeholder."""
    # the search makes many small objects and frees none until it ends: the cyclic
    # collector's passes over them are wasted (they took a third of a crowded paš)
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _search_ends(st, me, opp, phases, steps)
    finally:
        if enabled:
            gc.enable()


def _search_ends(
    st: TurnState,
    me: list[int],
    opp: list[int],
    phases: tuple[tuple[int, ...], ...],
    steps: bool,
) -> list[tuple[tuple[Step, ...], Board, Board]]:
    starts: list[tuple[tuple[Step, ...], int, int]] = [((), _code(me), 0)]
    for dice in phases:
        search = PhaseSearch(st, opp, dice, steps=steps)
        if len(starts) > 1 and len(dice) == 2 and dice[0] != dice[1]:
            # the higher-die rule is each start's own: one search each
            found: dict[tuple[int, int], tuple[tuple[Step, ...], int, int]] = {}
            for start in starts:
                for end in search.run([start]):
                    found.setdefault((end[1], end[2]), end)
            starts = list(found.values())
        else:
            starts = search.run(starts)
    return [(path, tuple(_board(code)), opponent_after(opp, mask)) for path, code, mask in starts]
