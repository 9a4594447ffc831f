"""A turn entered step by step (a page's moves, one checker and one die at a time): where
the steps so far may lead, under the same rules the engine judges a written turn by
(:mod:`engine.written`: the dice phase by phase, Z8; the must-play rule, L6, Z10).

A crowded Lurč paš has tens of thousands of legal ends, too many to list on a page; a
player instead enters the turn a step at a time, and :func:`turn_steps` answers, for the
steps played so far, the legal next steps (each one that some legal turn continues with)
and whether the steps already make a whole legal turn. A sequence of steps is a legal
turn exactly when :class:`engine.written.WrittenTurn` accepts it: every die of every
phase played, no phase left early, or else an end among the roll's legal ends.

The search runs over the positions the remaining dice reach (levels of steps, each
position once a level, the steps from a point no higher than the one before within a
phase, as :mod:`engine.endsearch` orders them), carrying which next step each position
came from; so it answers for the variants that search applies to (Lurč, short
backgammon). Other variants list their few turns instead (``None``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.endsearch import ORDER, applies
from engine.errors import PositionError
from engine.movegen import legal_turns, side_lists, turn_state
from engine.moves import Step, point_text, write_steps
from engine.position import Board, Position
from engine.steps import TurnState
from engine.variants import BAR, SIZE, START, Phases, Rules

# the rank of a point in the order of the steps: the bar, the start, 24 .. 1
_RANK = tuple(len(ORDER) - ORDER.index(i) if i in ORDER else 0 for i in range(SIZE))


class TurnSteps:
    """The answer for a partial turn: the legal next steps ((from, to) in the mover's
    numbering, the start shown as the bar), the movetext of the steps so far, and
    whether they are a whole legal turn already (``complete``)."""

    __slots__ = ("boards", "complete", "movetext", "next", "played")

    def __init__(
        self, played: tuple[Step, ...], nxt: list[tuple[int, int]],
        boards: tuple[Board, Board] | None,
    ) -> None:  # fmt: skip
        self.played = played
        self.next = nxt
        self.complete = boards is not None
        self.boards = boards  # complete: the boards the turn ends in (mover's, opponent's)
        self.movetext = write_steps(played)

    def ends_in(self, position: Position, side: int) -> bool:
        """Whether the steps, a whole turn, end in ``position`` (``side`` moved)."""
        return self.boards is not None and self.boards == _boards(position, side)


class StepError(PositionError):
    """A partial turn no legal turn begins with."""


# a state of the partial turn: the phase, the dice left of it, whether an earlier phase
# was left with dice unplayed, the boards (mover's, opponent's)
_State = tuple[int, tuple[int, ...], bool, Board, Board]


def offers_steps(position: Position, dice: object, rules: Rules | None = None) -> bool:
    """Whether :func:`turn_steps` answers for this roll (its variant has no block rule
    and no head: Lurč, short backgammon)."""
    variant = position.rules_variant
    roll, _choices = variant.roll_choices(dice, side_lists(position)[0])
    return applies(turn_state(variant, rules or Rules(), position.turn, roll))


def turn_steps(
    position: Position, dice: object, played: Sequence[tuple[int, int]],
    rules: Rules | None = None, ends: Iterable[Position] | None = None,
) -> TurnSteps | None:  # fmt: skip
    """The legal next steps after ``played`` (single steps (from, to), one die each, the
    mover's numbering, ``bar`` for a checker entering from the start too) for a roll:
    ``dice`` as :func:`engine.movegen.legal_turns` takes them (a Lurč houšek with its
    chosen paš: [2, 1, n, n]). ``ends``: the positions of the roll's legal turns when the
    caller has them. None for a variant whose turns are listed instead (block rule,
    head); :class:`StepError` for steps no legal turn begins with."""
    rules = rules or Rules()
    variant = position.rules_variant
    me, opp = side_lists(position)
    roll, choices = variant.roll_choices(dice, me)
    if len(choices) != 1:
        raise StepError("choose the paš of the houšek first", rule="Z8", code="steps-pas-first")
    st = turn_state(variant, rules, position.turn, roll)
    if not applies(st):
        return None
    phases, _again = variant.roll_phases(me, roll, choices[0])
    first: _State = (0, tuple(phases[0]), False, tuple(me), tuple(opp))
    search = _Search(st, phases, set())
    # the roll's legal ends are listed (a crowded houšek's paš has 240,000: half a minute)
    # only when no play uses every die; else the whole plays are the legal turns (L6)
    if ends is not None or not variant.exact_bear_off or not search.plays_all(first):
        if ends is None:
            ends = [t.position for t in legal_turns(position, dice, rules)]
        search.goals = {_boards(p, position.turn) for p in ends}
        search.memo.clear()
    states: list[_State] = search.close([first])
    steps: list[Step] = []
    for frm, to in played:
        states, step = search.play(states, frm, to)
        if not states:
            moves = f"{write_steps(steps)} {_step_text(frm, to)}".strip()
            raise StepError(
                f"{moves}: {_step_text(frm, to)} is no legal step of the roll here",
                code="steps-illegal",
                params={"moves": moves, "step": _step_text(frm, to)},
            )
        steps.append(step)
    nxt, complete = search.next_steps(states)
    if not nxt and complete is None:
        moves = write_steps(steps)
        raise StepError(
            f"{moves}: no legal turn of the roll begins so",
            code="steps-dead-end",
            params={"moves": moves},
        )
    return TurnSteps(tuple(steps), nxt, complete)


def _step_text(frm: int, to: int) -> str:
    """A step as sent (any numbers), written as a move: ``bar/20``, ``3/off``."""
    return "/".join(point_text(p) if 0 <= p <= START else str(p) for p in (frm, to))


def _boards(position: Position, side: int) -> tuple[Board, Board]:
    """The boards of ``position`` as (``side``'s, the other's)."""
    if side == 0:
        return position.white, position.black
    return position.black, position.white


class _Search:
    def __init__(self, st: TurnState, phases: Phases, goals: set[tuple[Board, Board]]) -> None:
        self.st = st
        self.phases = phases
        self.goals = goals
        # whether a legal turn ends in a state or after more steps from it, by (state,
        # bound): kept while the goals stay the same
        self.memo: dict[tuple[_State, int], bool] = {}

    def plays_all(self, first: _State) -> bool:
        """Whether some play from ``first`` plays every die of every phase (a search in
        depth that stops at the first; the goals must be empty). When one does, the
        roll's legal turns are exactly such plays (the must-play rule, L6): with exact
        bearing off (Z9) a play that leaves a die has moved fewer pips, so it never ends
        on the boards of a whole play."""
        assert not self.goals
        return any(self._leads(s, len(ORDER), self.memo) for s in self.close([first]))

    def close(self, states: Iterable[_State]) -> list[_State]:
        """The states with every later phase opened (WrittenTurn opens one between any
        two moves; a phase left with dice marks the turn ``skipped``)."""
        out: dict[_State, None] = {}
        todo = list(states)
        while todo:
            s = todo.pop()
            if s in out:
                continue
            out[s] = None
            phase, left, skipped, me, opp = s
            if phase + 1 < len(self.phases):
                todo.append(
                    (phase + 1, tuple(self.phases[phase + 1]), skipped or bool(left), me, opp)
                )
        return list(out)

    def accepted(self, s: _State) -> bool:
        """Whether the turn may end in ``s`` (engine.written.WrittenTurn._accept)."""
        phase, left, skipped, me, opp = s
        if phase + 1 == len(self.phases) and not left and not skipped:
            return True
        return (me, opp) in self.goals

    def children(self, s: _State, bound: int) -> Iterable[tuple[_State, Step, int]]:
        """The states one step leads to from ``s`` (steps from a rank up to ``bound``)."""
        st = self.st
        phase, left, skipped, me, opp = s
        ml = list(me)
        for d in dict.fromkeys(left):
            i = left.index(d)
            rest = left[:i] + left[i + 1 :]
            for frm in ORDER:
                if _RANK[frm] > bound or not me[frm]:
                    continue
                to = st.target(ml, list(opp), frm, d)
                if to < 0:
                    continue
                m2, o2 = ml[:], list(opp)
                hit = st.move(m2, o2, frm, to)
                yield (
                    (phase, rest, skipped, tuple(m2), tuple(o2)),
                    Step(frm, to, d, hit),
                    _RANK[frm],
                )

    def play(self, states: list[_State], frm: int, to: int) -> tuple[list[_State], Step]:
        """The states after the step ``frm``/``to`` from any of ``states``."""
        out: list[_State] = []
        step: Step | None = None
        for s in states:
            for child, st, _ in self.children(s, len(ORDER)):
                if st.to == to and (st.frm == frm or (frm == BAR and st.frm == START)):
                    out.append(child)
                    step = step or st
        if step is None:
            return [], Step(frm, to, 0, False)
        return self.close(out), step

    def next_steps(
        self, states: list[_State]
    ) -> tuple[list[tuple[int, int]], tuple[Board, Board] | None]:
        """The next steps some legal turn continues with, and the boards a turn may end
        in now (None: not yet): a search in depth from each step, each (state, bound)
        judged once."""
        complete = next(((s[3], s[4]) for s in states if self.accepted(s)), None)
        out: list[tuple[int, int]] = []
        memo = self.memo
        for s in states:
            for child, st, rank in self.children(s, len(ORDER)):
                first = (BAR if st.frm == START else st.frm, st.to)
                if first in out:
                    continue
                if any(self._leads(c, rank if c[0] == child[0] else len(ORDER), memo)
                       for c in self.close([child])):  # fmt: skip
                    out.append(first)
        return out, complete

    def _leads(self, s: _State, bound: int, memo: dict[tuple[_State, int], bool]) -> bool:
        """Whether a legal turn ends in ``s`` or after more steps from it."""
        if s[2] and not self.goals:  # a phase left with dice: only a listed end is legal
            return False
        key = (s, bound)
        found = memo.get(key)
        if found is None:
            found = self.accepted(s) or any(
                self._leads(c, rank if c[0] == child[0] else len(ORDER), memo)
                for child, _st, rank in self.children(s, bound)
                for c in self.close([child])
            )
            memo[key] = found
        return found
