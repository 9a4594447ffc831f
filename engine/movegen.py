"""Legal steps and turns under the must-play rule (RULES L3-L7, S3-S5).

One generator serves every variant. A *step* moves one checker by one die; a *turn* is
the steps one roll allows. Boards are plain lists here, for speed; the public results
are immutable :class:`Step` and :class:`Turn` values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.errors import PositionError
from engine.moves import Step, write_steps
from engine.position import Board, Position
from engine.variants import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    START,
    WHITE,
    Phases,
    Rules,
    Variant,
    check_dice,
    dice_to_play,
)

# Why a step is impossible (negative results of ``target``).
NO_CHECKER = -1
ENTER_FIRST = -2
CLOSED = -3
NOT_HOME = -4
HIGHER_CHECKER = -5
NOT_EXACT = -6


@dataclass(frozen=True, slots=True)
class Turn:
    """A legal way to play a roll: its steps and the position it leads to (with the
    side to move next: the same side after a Lurč paš). ``pas`` is the paš chosen after
    a Lurč houšek (1-2)."""

    dice: tuple[int, ...]
    steps: tuple[Step, ...]
    position: Position
    pas: tuple[int, int] | None = None

    @property
    def notation(self) -> str:
        """The canonical movetext of the steps (``24/18/14``)."""
        return write_steps(self.steps)


_STATES: dict[tuple[str, Rules], dict[tuple[int, tuple[int, int]], TurnState]] = {}
# A table per (variant, rules) pair, each at most 2 sides x 21 rolls of small states. A
# process meets a handful of pairs (three variants, the option sets clubs use); the cap
# only bounds the memory of a stream of ``legal`` queries that vary the rules on purpose.
_MAX_STATE_TABLES = 200


def turn_states(variant: Variant, rules: Rules) -> dict[tuple[int, tuple[int, int]], TurnState]:
    """The shared table of :class:`TurnState` by (side, roll) for a variant and its rules
    (filled as rolls come; the states are read-only)."""
    key = (variant.name, rules)
    table = _STATES.get(key)
    if table is None:
        if len(_STATES) >= _MAX_STATE_TABLES:
            _STATES.clear()
        table = _STATES[key] = {}
    return table


def turn_state(variant: Variant, rules: Rules, side: int, dice: tuple[int, int]) -> TurnState:
    """The (shared, read-only) :class:`TurnState` of a roll."""
    table = turn_states(variant, rules)
    state = table.get((side, dice))
    if state is None:
        state = table[(side, dice)] = TurnState(variant, rules, side, dice)
    return state


class TurnState:
    """The fixed facts of one turn: variant, rules, mover and the opponent map."""

    __slots__ = (
        "closed_at",
        "dice",
        "every_step",
        "head",
        "hits",
        "omap",
        "one_phase",
        "plain",
        "rules",
        "side",
        "to_play",
        "variant",
    )

    def __init__(self, variant: Variant, rules: Rules, side: int, dice: tuple[int, int]):
        self.variant = variant
        self.rules = rules
        self.side = side
        self.dice = dice
        self.omap = variant.opp_map[side]
        self.closed_at = variant.closed_at
        self.hits = variant.hits
        self.head = variant.head
        self.to_play = dice_to_play(dice)
        self.every_step = rules.block_check == "every-step"
        # plain: the head allowance is one checker whatever the position (L4.1)
        self.plain = not self.head or not (dice[0] == dice[1] and dice[0] in (6, 4, 3))
        # the roll is played in one phase, its dice (a variant that overrides
        # ``roll_phases`` declares phases: Lurč's houšek and paš)
        self.one_phase = type(variant).roll_phases is Variant.roll_phases

    # single steps -------------------------------------------------------

    def target(self, me: list[int], opp: list[int], frm: int, die: int) -> int:
        """Where a checker from ``frm`` lands with ``die`` (0 = off), or a negative
        reason code when the step is impossible (the head rule is the caller's)."""
        if not me[frm]:
            return NO_CHECKER
        if frm < BAR:
            if me[BAR] or me[START]:
                return ENTER_FIRST
            to = frm - die
            if to <= 0:
                return self._bear_off(me, frm, to)
        else:
            if frm == START and me[BAR]:
                return ENTER_FIRST
            to = BAR - die
        if opp[self.omap[to]] >= self.closed_at:
            return CLOSED
        return to

    def _bear_off(self, me: list[int], frm: int, to: int) -> int:
        """``target`` of a step that leaves the board (``to`` 0 or below: an exact or a
        higher die)."""
        if sum(me[7:BAR]):
            return NOT_HOME
        if to < 0:
            if self.variant.exact_bear_off:
                return NOT_EXACT
            for p in range(frm + 1, 7):
                if me[p]:
                    return HIGHER_CHECKER
        return OFF

    def move(self, me: list[int], opp: list[int], frm: int, to: int) -> bool:
        """Move a checker in place (``target`` said it may); True when it hit."""
        me[frm] -= 1
        me[to] += 1
        if to and self.hits:
            o = self.omap[to]
            if opp[o] == 1:
                opp[o] = 0
                opp[BAR] += 1
                return True
        return False

    def head_allowance(self, me: list[int], opp: list[int]) -> int:
        """How many checkers may leave the head this turn (L4.1-L4.3)."""
        if not self.head:
            return CHECKERS
        a, b = self.dice
        if me[self.head] == CHECKERS and a == b and a in (6, 4, 3):
            if a == 4 and opp[self.omap[16]] >= self.closed_at:
                return 1  # L4.3: the opponent's opening 5-5 blocks black's 4-4
            return 2  # L4.2
        return 1

    def block_ok(self, me: list[int], opp: list[int]) -> bool:
        """L5: every run of six or more of the mover's points along the opponent's route
        has an opponent checker ahead of it (in the opponent's home with ``in-home``)."""
        if not self.variant.block_rule:
            return True
        run = 0
        last = 0
        in_home = self.rules.block_ahead == "in-home"
        # The opponent travels its points 24 -> 1: in the mover's numbering 12..1, 24..13.
        for q in range(24, 0, -1):
            if me[_LONG_ROUTE[q]]:
                run += 1
                last = q
                if q > 1:
                    continue
            if run >= 6:
                cap = last - 1
                if in_home and cap > 6:
                    cap = 6
                if not any(opp[1 : cap + 1]):
                    return False
            run = 0
        return True

    def block_ok_near(self, me: list[int], opp: list[int], points: list[int]) -> bool:
        """L5 checked only for the runs through ``points`` (long nardy): the points a
        turn newly occupied, when the position before the turn was lawful."""
        if not self.variant.block_rule:
            return True
        in_home = self.rules.block_ahead == "in-home"
        for p in points:
            if not me[p]:
                continue
            q = p + 12 if p <= 12 else p - 12  # the same point in the opponent's numbering
            high = q
            while high < 24 and me[_LONG_ROUTE[high + 1]]:
                high += 1
            low = q
            while low > 1 and me[_LONG_ROUTE[low - 1]]:
                low -= 1
            if high - low >= 5:
                cap = low - 1
                if in_home and cap > 6:
                    cap = 6
                if not any(opp[1 : cap + 1]):
                    return False
        return True

    # whole turns --------------------------------------------------------

    def plays_more_than(self, me: list[int], opp: list[int], used: int) -> bool:
        """Whether some play of the roll uses more than ``used`` dice and ends lawfully
        (L5): the must-play check of a written turn that left dice unused (L6).

        A step cannot make another checker's step legal, except the last entering from
        the bar, the last checker coming home, or a broken block (``every-step``); so a
        child searches only what was legal before plus the checker just moved."""
        if self.dice[0] == self.dice[1] and self._capacity(me, opp) <= used:
            return False
        dice = tuple(sorted(self.to_play, reverse=True))
        search = _MoreThan(self, me, opp, used)
        return search.deeper(me[:], opp[:], dice, self.head_allowance(me, opp), 0, (), None)

    def _capacity(self, me: list[int], opp: list[int]) -> int:
        """An upper bound of the moves a double allows: each checker alone, as far as
        open points let it go. Own checkers never stop each other, so it holds while
        nobody waits on the bar and no bear-off can start this turn (more than four
        checkers outside home). Returns 5 (no bound) otherwise."""
        # (a paš is eight moves, not four: no bound either)
        if me[BAR] or me[START] or sum(me[7:BAR]) <= 4 or self.variant.rolls_again:
            return 5
        d = self.dice[0]
        omap, closed_at = self.omap, self.closed_at
        total = 0
        for p in range(24, d, -1):
            count = me[p]
            if not count:
                continue
            if p == self.head:
                count = min(count, self.head_allowance(me, opp))
            steps, q = 0, p - d
            while steps < 4 and q >= 1 and opp[omap[q]] < closed_at:
                steps += 1
                q -= d
            total += count * steps
            if total > 4:
                return 5
        return total

    def single_high_ends(self, me: list[int], opp: list[int]) -> set[tuple[int, ...]]:
        """The mover's boards after playing only the higher die, ending lawfully."""
        out: set[tuple[int, ...]] = set()
        head_left = self.head_allowance(me, opp)
        for frm in _sources(me):
            if frm == self.head and not head_left:
                continue
            to = self.target(me, opp, frm, self.dice[0])
            if to < 0:
                continue
            me2, opp2 = me[:], opp[:]
            self.move(me2, opp2, frm, to)
            if self.block_ok(me2, opp2):
                out.add(tuple(me2))
        return out

    def generate(
        self, me: list[int], opp: list[int], dice: tuple[int, ...] | None = None
    ) -> list[End]:
        """Every distinct legal end of the turn with one canonical way to play it.
        ``dice`` overrides the values to play (Lurč's placing and paš turns)."""
        search = _Search(self, me, opp, dice_to_play(self.dice) if dice is None else dice)
        search.visit(me[:], opp[:], search.dice, self.head_allowance(me, opp), (), ())
        return search.ends()

    def phased_ends(self, me: list[int], opp: list[int], phases: Phases) -> list[End]:
        """Legal ends of a turn played phase by phase, each phase under the must-play
        rule (Z10): the 1-2 of a houšek as many as possible, then as much of the paš as
        possible. One phase is :meth:`generate`."""
        if len(phases) == 1:
            return self.generate(me, opp, phases[0])
        ends = [End((), tuple(me), tuple(opp))]
        for dice in phases:
            found: dict[tuple[Board, Board], tuple[Step, ...]] = {}
            for steps, m, o in ends:
                for more, m2, o2 in self.generate(list(m), list(o), dice):
                    found.setdefault((m2, o2), steps + more)
            ends = [End(steps, m, o) for (m, o), steps in found.items()]
        return ends


class _MoreThan:
    """The search of :meth:`TurnState.plays_more_than`: depth first, stopping at the
    first lawful play of more than ``used`` dice."""

    __slots__ = ("_lawful", "me0", "opp0", "seen", "st", "used")

    def __init__(self, st: TurnState, me: list[int], opp: list[int], used: int):
        self.st, self.me0, self.opp0, self.used = st, me, opp, used
        self.seen: set[tuple[object, ...]] = set()
        self._lawful: bool | None = None  # the start position obeys L5: computed when needed

    def lawful(self) -> bool:
        if self._lawful is None:
            st = self.st
            self._lawful = not st.variant.block_rule or st.block_ok(self.me0, self.opp0)
        return self._lawful

    def deeper(
        self, me: list[int], opp: list[int], left: tuple[int, ...], head_left: int, depth: int,
        fresh: tuple[int, ...], pool: list[int] | None,
    ) -> bool:  # fmt: skip
        st = self.st
        sources = _sources(me) if pool is None else pool
        head, target = st.head, st.target
        legal = {
            d: [s for s in sources if (s != head or head_left) and target(me, opp, s, d) >= 0]
            for d in set(left)
        }
        for i, d in enumerate(left):
            if i and d == left[i - 1]:
                continue
            rest = left[:i] + left[i + 1 :]
            for frm in legal[d]:
                if self._step(me, opp, frm, d, rest, head_left, depth, fresh, legal):
                    return True
        return False

    def _step(
        self, me: list[int], opp: list[int], frm: int, d: int, rest: tuple[int, ...],
        head_left: int, depth: int, fresh: tuple[int, ...], legal: dict[int, list[int]],
    ) -> bool:  # fmt: skip
        """Play ``frm`` with ``d``: True when that play, or one after it, plays more."""
        st = self.st
        every_step = st.every_step
        to = st.target(me, opp, frm, d)
        me2, opp2 = me[:], opp[:]
        new_point = to and not me2[to]
        st.move(me2, opp2, frm, to)
        if every_step and not st.block_ok(me2, opp2):
            return False
        f2 = (*fresh, to) if new_point else fresh
        if depth >= self.used and self._ends_lawfully(me2, opp2, f2):
            return True
        if not rest:
            return False
        hl = head_left - (frm == st.head)
        key = (tuple(me2), tuple(opp2), rest, hl)
        if key in self.seen:
            return False
        self.seen.add(key)
        child: list[int] | None = None
        if not (every_step or me[BAR] or me[START]) and any(me2[7:BAR]):
            pool = {x for e in set(rest) for x in legal[e] if me2[x]}
            if to:
                pool.add(to)
            child = sorted(pool, reverse=True)
        return self.deeper(me2, opp2, rest, hl, depth + 1, f2, child)

    def _ends_lawfully(self, me: list[int], opp: list[int], fresh: tuple[int, ...]) -> bool:
        st = self.st
        if st.every_step or not st.variant.block_rule:
            return True
        if self.lawful():
            return st.block_ok_near(me, opp, list(fresh))
        return st.block_ok(me, opp)


class _Search:
    """The search of every legal end of one turn (:meth:`TurnState.generate`): each
    distinct position reached, with the most dice played to reach it."""

    __slots__ = ("dice", "every_step", "high", "lawful", "mixed", "nodes", "seen", "st")

    def __init__(self, st: TurnState, me: list[int], opp: list[int], dice: tuple[int, ...]):
        self.st = st
        self.dice = dice
        self.nodes: dict[tuple[tuple[int, ...], tuple[int, ...]], _Node] = {}
        self.seen: set[tuple[object, ...]] = set()
        self.every_step = st.every_step
        self.high = max(dice) if dice else 0
        self.mixed = len(dice) == 2 and dice[0] != dice[1]
        # L5 is checked only around newly occupied points when the position before
        # the turn is lawful (the usual case), everywhere otherwise.
        self.lawful = not st.variant.block_rule or st.block_ok(me, opp)

    def visit(
        self,
        me: list[int],
        opp: list[int],
        left: tuple[int, ...],
        head_left: int,
        path: tuple[Step, ...],
        fresh: tuple[int, ...],
    ) -> None:
        tme, topp = tuple(me), tuple(opp)
        if (tme, topp, left, head_left) in self.seen:
            return
        self.seen.add((tme, topp, left, head_left))
        self._note(tme, topp, me, opp, len(self.dice) - len(left), path, fresh)
        sources = _sources(me)
        if path and path[-1].to in sources and sources[0] != path[-1].to:
            # keep moving the same checker first: canonical plays chain naturally
            sources.remove(path[-1].to)
            sources.insert(0, path[-1].to)
        tried: set[int] = set()
        for i, d in enumerate(left):
            if d not in tried:
                tried.add(d)
                rest = left[:i] + left[i + 1 :]
                self._steps(me, opp, rest, d, head_left, path, fresh, sources)

    def _note(
        self,
        tme: tuple[int, ...],
        topp: tuple[int, ...],
        me: list[int],
        opp: list[int],
        used: int,
        path: tuple[Step, ...],
        fresh: tuple[int, ...],
    ) -> None:
        """Keep the position reached with ``used`` dice (and whether it ends lawfully)."""
        node = self.nodes.get((tme, topp))
        if node is None:
            if self.every_step:
                ok = True  # every step was checked on the way
            elif self.lawful:
                ok = not fresh or self.st.block_ok_near(me, opp, list(fresh))
            else:
                ok = self.st.block_ok(me, opp)
            node = self.nodes[(tme, topp)] = _Node(used, path, ok)
        elif used > node.used:
            # the same position with more dice (a bear-off with a higher die wastes
            # pips: 5/4/off with 1-5 ends where 5/off does): it counts as a full play
            node.used, node.path = used, path
        if self.mixed and used == 1 and path[0].die == self.high and node.high_path is None:
            node.high_path = path

    def _steps(
        self, me: list[int], opp: list[int], rest: tuple[int, ...], d: int, head_left: int,
        path: tuple[Step, ...], fresh: tuple[int, ...], sources: list[int],
    ) -> None:  # fmt: skip
        """Visit every position one step with ``d`` leads to."""
        st = self.st
        head, target, move, every_step = st.head, st.target, st.move, self.every_step
        for frm in sources:
            if frm == head and not head_left:
                continue
            to = target(me, opp, frm, d)
            if to < 0:
                continue
            me2, opp2 = me[:], opp[:]
            new_point = to and not me2[to]
            hit = move(me2, opp2, frm, to)
            if every_step and not st.block_ok(me2, opp2):
                continue
            self.visit(
                me2,
                opp2,
                rest,
                head_left - (frm == head),
                (*path, Step(frm, to, d, hit)),
                (*fresh, to) if new_point else fresh,
            )

    def ends(self) -> list[End]:
        """The legal ends: the positions reached with the most dice, ending lawfully."""
        nodes = self.nodes
        best = max((n.used for n in nodes.values() if n.ok), default=0)
        ends = [(k, n) for k, n in nodes.items() if n.ok and n.used == best]
        if best == 1 and self.mixed and any(n.high_path is not None for _, n in ends):
            # L6: when only one die can be played, it must be the higher one
            return [End(n.high_path, k[0], k[1]) for k, n in ends if n.high_path is not None]
        return [End(n.path, k[0], k[1]) for k, n in ends]


class End(NamedTuple):
    """A legal end of a turn: one canonical way to play it and the boards it reaches
    (the mover's, the opponent's)."""

    steps: tuple[Step, ...]
    me: Board
    opp: Board


class _Node:
    """A distinct position reached during the search of a turn."""

    __slots__ = ("high_path", "ok", "path", "used")

    def __init__(self, used: int, path: tuple[Step, ...], ok: bool) -> None:
        self.used = used
        self.path = path
        self.ok = ok
        self.high_path: tuple[Step, ...] | None = None


_LONG_ROUTE = (
    0,
    13,
    14,
    15,
    16,
    17,
    18,
    19,
    20,
    21,
    22,
    23,
    24,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
)  # opponent's point q -> the mover's point (long nardy)


def _sources(me: list[int]) -> list[int]:
    if me[BAR]:
        return [BAR]
    if me[START]:
        return [START]
    return [p for p in range(24, 0, -1) if me[p]]


def side_lists(pos: Position) -> tuple[list[int], list[int]]:
    """Mutable copies of the mover's and the opponent's boards."""
    if pos.turn == WHITE:
        return list(pos.white), list(pos.black)
    return list(pos.black), list(pos.white)


def after(pos: Position, me: Board | list[int], opp: Board | list[int], nxt: int) -> Position:
    """The position with the mover's board ``me``, and ``nxt`` to move."""
    if pos.turn == WHITE:
        return Position(pos.variant, nxt, tuple(me), tuple(opp), pos.cube)
    return Position(pos.variant, nxt, tuple(opp), tuple(me), pos.cube)


def legal_turns(position: Position, dice: object, rules: Rules | None = None) -> list[Turn]:
    """Every distinct legal end position of a roll, each with one canonical play (L6).
    ``dice`` is [a, b]; in Lurč also [2, 1, n, n], a houšek with its chosen paš, while
    [2, 1] alone lists the plays of every paš (Z8).

    >>> from engine.position import Position
    >>> [t.notation for t in legal_turns(Position.start("long"), [6, 6])]
    ['24/18(2)']
    """
    rules = rules or Rules()
    variant = position.rules_variant
    me, opp = side_lists(position)
    roll, choices = variant.roll_choices(dice, me)
    last_roll = rules.last_roll and variant.last_roll and position.turn == BLACK
    if position.off(position.turn) == CHECKERS or (
        position.off(1 - position.turn) == CHECKERS and not last_roll
    ):
        raise PositionError(
            "the game is over: one side has borne off all its checkers", code="game-over"
        )
    state = turn_state(variant, rules, position.turn, roll)
    if len(choices) == 1 and choices[0] is None:  # the ends of one search are distinct
        phases, again = variant.roll_phases(me, roll, None)
        return [_turn(position, roll, end, phases, again, None) for end in
                state.phased_ends(me, opp, phases)]  # fmt: skip
    out: dict[Position, Turn] = {}
    for pas in choices:
        phases, again = variant.roll_phases(me, roll, pas)
        for end in state.phased_ends(me, opp, phases):
            turn = _turn(position, roll, end, phases, again, pas)
            out.setdefault(turn.position, turn)
    return list(out.values())


def _turn(
    position: Position, roll: tuple[int, int], end: End, phases: Phases, again: bool,
    pas: tuple[int, int] | None,
) -> Turn:  # fmt: skip
    """The :class:`Turn` of a legal end: the opponent rolls next unless the roll gives
    another (Z7, Z8) and every move of it was played and the game goes on."""
    if again and (end.me[OFF] == CHECKERS or len(end.steps) < sum(len(p) for p in phases)):
        again = False
    nxt = position.turn if again else 1 - position.turn
    return Turn(roll, end.steps, after(position, end.me, end.opp, nxt), pas)


__all__ = [
    "OFF",
    "End",
    "Step",
    "Turn",
    "TurnState",
    "check_dice",
    "dice_to_play",
    "legal_turns",
    "turn_state",
]
