"""A lean search of a long-nardy roll's legal ends for self-play and analysis: boards
only, no steps or notation kept. The rules stay the engine's: where a checker lands
(:meth:`TurnState.target`, L3 and L7), the head allowance (L4) and the block (L5) are
asked of :mod:`engine.steps`; this module only searches, as
:class:`engine.movegen.AllEnds` does (the most dice played, L6; the higher die when
only one can be). tests/engine/test_evaluator.py checks it against ``legal_turns`` on
thousands of random positions."""

from __future__ import annotations

from engine.steps import TurnState

Board = tuple[int, ...]


class _Search:
    """Every distinct board a roll reaches, with the most dice used to reach it and
    whether the higher die alone reaches it (the first die played, ``first``)."""

    def __init__(self, state: TurnState, opp: Board) -> None:
        self.state = state
        self.opp = list(opp)
        dice = state.to_play
        self.mixed = len(dice) == 2 and dice[0] != dice[1]
        self.high = max(dice)
        self.nodes: dict[Board, list[int]] = {}  # board -> [most dice used, high die alone]
        self.seen: set[tuple[Board, int, int]] = set()

    def visit(
        self, me: list[int], left: tuple[int, ...], head_left: int, used: int, first: int
    ) -> None:
        t = tuple(me)
        key = (t, len(left) * 8 + (left[0] if left else 0), head_left)
        if key in self.seen:
            return
        self.seen.add(key)
        node = self.nodes.get(t)
        if node is None:
            node = self.nodes[t] = [used, 0]
        elif used > node[0]:
            node[0] = used
        if self.mixed and used == 1 and first == self.high:
            node[1] = 1
        tried = 0
        for i, d in enumerate(left):
            if d != tried:
                tried = d
                self._steps(me, left[:i] + left[i + 1 :], d, head_left, used, first)

    def _steps(
        self, me: list[int], rest: tuple[int, ...], d: int, head_left: int, used: int, first: int
    ) -> None:
        head, target, opp = self.state.head, self.state.target, self.opp
        for frm in range(24, 0, -1):
            if not me[frm] or (frm == head and not head_left):
                continue
            to = target(me, opp, frm, d)
            if to >= 0:
                me2 = me[:]
                me2[frm] -= 1
                me2[to] += 1
                self.visit(me2, rest, head_left - (frm == head), used + 1, first or d)

    def _lawful(self, board: Board) -> bool:
        """L5 at the end of the turn; a board holding fewer than six points has no block."""
        if 24 - board[1:25].count(0) < 6:
            return True
        return self.state.block_ok(list(board), self.opp)

    def ends(self, me: Board) -> list[Board]:
        """The lawful boards (L5) reached with the most dice; of one die, the higher's."""
        by_used: dict[int, list[Board]] = {}
        for board, (used, _) in self.nodes.items():
            by_used.setdefault(used, []).append(board)
        for used in sorted(by_used, reverse=True):
            lawful = [b for b in by_used[used] if self._lawful(b)]
            if lawful and used == 1 and self.mixed:
                higher = [b for b in lawful if self.nodes[b][1]]
                return higher or lawful
            if lawful:
                return lawful
        return [me]


def fast_ends(state: TurnState, me: Board, opp: Board) -> list[Board]:
    """The mover's boards after every legal end of the roll of ``state`` (the opponent's
    board does not change: nothing is hit in long nardy); ``[me]`` when nothing can be
    played. Only for variants without hits, a bar or phases (long nardy)."""
    search = _Search(state, opp)
    search.visit(list(me), state.to_play, state.head_allowance(list(me), search.opp), 0, 0)
    return search.ends(me)
