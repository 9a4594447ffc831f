"""Legal turns under the must-play rule (RULES L5-L7, S5, Z10): one depth-first search
over the steps of a roll (:class:`StepSearch`) answers every question about whole
turns, each a :class:`Goal`: every legal end (``legal_turns``, a written turn that left
dice unused), whether a longer play exists (the must-play check of a written turn), the
plays of the higher die alone, and, followed step by step, a turn as it was written (a
:class:`Guide`: :mod:`engine.written`). Its steps are :mod:`engine.steps`' ``target``
and ``move``; the public results are :class:`Step` and :class:`Turn` values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.endsearch import applies, search_ends
from engine.errors import PositionError
from engine.moves import Step, write_steps
from engine.position import Board, Position
from engine.steps import (
    CLOSED,
    ENTER_FIRST,
    HIGHER_CHECKER,
    NO_CHECKER,
    NOT_EXACT,
    NOT_HOME,
    TurnState,
    after,
    side_lists,
    sources,
    turn_state,
    turn_states,
)
from engine.variants import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    START,
    Phases,
    Rules,
    check_dice,
    dice_to_play,
)

_Legal = dict[int, list[tuple[int, int]]]  # die -> the (from, to) steps it allows, in order
Params = dict[str, Any]  # the parameters of an error code
Offer = tuple[int, int, int, object]  # a step a guide offers: from, to, die, the move it plays


class Turn:
    """A legal way to play a roll: its steps and the position it leads to (with the
    side to move next: the same side after a Lurč paš). ``pas`` is the paš chosen after
    a Lurč houšek (1-2). Read-only by convention."""

    __slots__ = ("dice", "pas", "position", "steps")

    def __init__(
        self,
        dice: tuple[int, ...],
        steps: tuple[Step, ...],
        position: Position,
        pas: tuple[int, int] | None = None,
    ) -> None:
        self.dice = dice
        self.steps = steps
        self.position = position
        self.pas = pas

    @property
    def notation(self) -> str:
        """The canonical movetext of the steps (``24/18/14``)."""
        return write_steps(self.steps)


class End:
    """A legal end of a turn: one canonical way to play it and the boards it reaches
    (the mover's, the opponent's)."""

    __slots__ = ("me", "opp", "steps")

    def __init__(self, steps: tuple[Step, ...], me: Board, opp: Board) -> None:
        self.steps = steps
        self.me = me
        self.opp = opp


class Goal:
    """What a :class:`StepSearch` looks for: ``reached`` sees each distinct position
    once (the boards, as tuples and as lists, the dice used so far, the steps that led
    there and the points they newly occupied) and returns True to stop the search."""

    __slots__ = ()

    def reached(
        self, search: StepSearch, tme: Board, topp: Board, me: list[int], opp: list[int],
        used: int, path: tuple[Step, ...], fresh: tuple[int, ...],
    ) -> bool:  # fmt: skip
        raise NotImplementedError


class Guide(Goal):
    """A goal that chooses the steps itself (:meth:`StepSearch.follow`): a written turn,
    whose moves allow only some steps. The search carries the guide's place in what it
    follows, a ``mark`` (opaque to the search), from a position to the positions its
    steps lead to; each position is visited as often as a path leads there (the
    guide's place differs), not once.

    ``arrived`` sees each position (True stops the search), ``offers`` yields the steps
    to try from it (from, to, die and the move of the guide they play), and ``admits``
    checks the position a step led to and gives the guide's place there (None: a dead
    end). A later phase of the dice opens only where ``between`` says the guide is
    between two of its moves; ``finished`` says it has nothing more to offer."""

    __slots__ = ()

    def between(self, mark: object) -> bool:
        raise NotImplementedError

    def finished(self, mark: object) -> bool:
        raise NotImplementedError

    def arrived(
        self, search: StepSearch, me: list[int], opp: list[int], left: list[int],
        path: tuple[Step, ...], mark: object,
    ) -> bool:  # fmt: skip
        raise NotImplementedError

    def offers(
        self, search: StepSearch, me: list[int], opp: list[int], left: list[int],
        head_left: int, path: tuple[Step, ...], mark: object,
    ) -> Iterator[Offer]:  # fmt: skip
        raise NotImplementedError

    def admits(
        self, search: StepSearch, me: list[int], opp: list[int], left: list[int],
        path: tuple[Step, ...], move: object,
    ) -> object | None:  # fmt: skip
        raise NotImplementedError


class Refusal:
    """Why a followed search found nothing: the refusal of the branch that got furthest
    along the guide (the error a written turn reports), the first given at that depth."""

    __slots__ = ("code", "depth", "message", "params", "rule")

    def __init__(
        self,
        depth: int = -1,
        message: str = "",
        rule: str | None = None,
        code: str = "illegal-turn",
        params: Params | None = None,
    ) -> None:
        self.depth = depth  # how far along the guide (the written moves read before it)
        self.message = message
        self.rule = rule
        self.code = code
        self.params: Params = {} if params is None else params


class StepSearch:
    """The one search over the steps of a roll: depth first, each distinct (boards,
    dice left, head allowance) once, the checker just moved tried first (canonical
    plays chain naturally).

    A step cannot make another checker's step legal, except the last entering from the
    bar, the last checker coming home, or a broken block (``every-step``); so a child
    looks only at what could move before plus the checker just moved.

    :meth:`follow` walks the steps a :class:`Guide` offers instead, with the dice in
    ``phases`` (Lurč: a houšek's 1-2, then its paš; Z8): its state is the phase being
    played (``phase``), whether an earlier phase left dice unplayed (``skipped``) and
    the refusal of the branch that got furthest (``refusal``)."""

    __slots__ = ("_lawful", "dice", "goal", "me0", "opp0", "phase", "phases", "refusal", "seen",
                 "skipped", "st")  # fmt: skip

    def __init__(
        self, st: TurnState, me: list[int], opp: list[int], dice: tuple[int, ...], goal: Goal,
        phases: Phases | None = None,
    ):  # fmt: skip
        self.st, self.me0, self.opp0, self.dice, self.goal = st, me, opp, dice, goal
        self.seen: set[tuple[Board, Board, tuple[int, ...], int]] = set()
        self._lawful: bool | None = None  # the start obeys L5: computed when first needed
        self.phases: Phases = (dice,) if phases is None else phases
        self.phase = 0
        self.skipped = False
        self.refusal = Refusal()

    def run(self) -> bool:
        """Search from the start of the turn; True when the goal stopped it."""
        me, opp = self.me0, self.opp0
        return self._visit(me[:], opp[:], self.dice, self.st.head_allowance(me, opp), (), (), None)

    def follow(self, mark: object) -> bool:
        """Follow the goal, a :class:`Guide`, from the start of the turn and from its place
        ``mark`` (once a search); True when it stopped the search (else ``refusal`` says
        why not)."""
        guide, me, opp = self.goal, self.me0, self.opp0
        assert isinstance(guide, Guide)
        head_left = self.st.head_allowance(me, opp)
        return self._follow(guide, me[:], opp[:], list(self.phases[0]), head_left, (), mark)

    def refuse(
        self, depth: int, message: str, rule: str | None, code: str, params: Params | None = None
    ) -> None:
        """Keep the refusal of the branch that got furthest (the error shown)."""
        if depth > self.refusal.depth:
            self.refusal = Refusal(depth, message, rule, code, params)

    def ends_lawfully(self, me: list[int], opp: list[int], fresh: tuple[int, ...]) -> bool:
        """L5 at the end of a play: around the newly occupied points when the start was
        lawful (the usual case), everywhere otherwise; already checked with every-step."""
        st = self.st
        if st.every_step or not st.block_rule:
            return True
        if self._lawful is None:
            self._lawful = st.block_ok(self.me0, self.opp0)
        if self._lawful:
            return not fresh or st.block_ok_near(me, opp, list(fresh))
        return st.block_ok(me, opp)

    def _follow(
        self, guide: Guide, me: list[int], opp: list[int], left: list[int], head_left: int,
        path: tuple[Step, ...], mark: object,
    ) -> bool:  # fmt: skip
        """A position of a followed search, ``left`` the dice of the current phase: a
        later phase opens (between two moves of the guide) when this one is used up or
        cannot go on (its dice lost); when the guide is finished, the later phases' dice
        count as left unplayed."""
        if self.phase + 1 == len(self.phases) or not guide.between(mark):
            return self._offered(guide, me, opp, left, head_left, path, mark)
        if guide.finished(mark):
            later = [d for p in self.phases[self.phase + 1 :] for d in p]
            return self._offered(guide, me, opp, left + later, head_left, path, mark)
        if left and self._offered(guide, me, opp, left, head_left, path, mark):
            return True
        skipped = self.skipped
        self.phase += 1
        self.skipped = skipped or bool(left)
        try:
            dice = list(self.phases[self.phase])
            return self._follow(guide, me, opp, dice, head_left, path, mark)
        finally:
            self.phase -= 1
            self.skipped = skipped

    def _offered(
        self, guide: Guide, me: list[int], opp: list[int], left: list[int], head_left: int,
        path: tuple[Step, ...], mark: object,
    ) -> bool:  # fmt: skip
        """Play each step the guide offers from a position, in its order, on copies."""
        if guide.arrived(self, me, opp, left, path, mark):
            return True
        st = self.st
        for frm, to, d, move in guide.offers(self, me, opp, left, head_left, path, mark):
            me2, opp2 = me[:], opp[:]
            step = Step(frm, to, d, st.move(me2, opp2, frm, to))
            rest = left[:]
            rest.remove(d)
            path2 = (*path, step)
            place = guide.admits(self, me2, opp2, rest, path2, move)
            if place is not None and self._follow(
                guide, me2, opp2, rest, head_left - (frm == st.head), path2, place
            ):
                return True
        return False

    def _visit(
        self, me: list[int], opp: list[int], left: tuple[int, ...], head_left: int,
        path: tuple[Step, ...], fresh: tuple[int, ...], pool: list[int] | None,
    ) -> bool:  # fmt: skip
        tme, topp = tuple(me), tuple(opp)
        key = (tme, topp, left, head_left)
        if key in self.seen:
            return False
        self.seen.add(key)
        used = len(self.dice) - len(left)
        if self.goal.reached(self, tme, topp, me, opp, used, path, fresh):
            return True
        if not left:
            return False
        legal = self._legal(me, opp, left, head_left, path, pool)
        return self._children(me, opp, left, head_left, path, fresh, legal)

    def _legal(
        self, me: list[int], opp: list[int], left: tuple[int, ...], head_left: int,
        path: tuple[Step, ...], pool: list[int] | None,
    ) -> _Legal:  # fmt: skip
        """The steps each distinct die left allows (the dice in the order given)."""
        froms = sources(me) if pool is None else pool
        if path:
            last = path[-1].to
            if last in froms and froms[0] != last:
                froms.remove(last)
                froms.insert(0, last)
        st = self.st
        head, target = st.head if not head_left else -1, st.target
        legal: _Legal = {}
        for d in left:
            if d not in legal:
                legal[d] = [
                    (frm, to)
                    for frm in froms
                    if frm != head and (to := target(me, opp, frm, d)) >= 0
                ]
        return legal

    def _children(
        self, me: list[int], opp: list[int], left: tuple[int, ...], head_left: int,
        path: tuple[Step, ...], fresh: tuple[int, ...], legal: _Legal,
    ) -> bool:  # fmt: skip
        """Visit every position one step leads to."""
        st = self.st
        head, move, every_step = st.head, st.move, st.every_step
        narrow = not (every_step or me[BAR] or me[START])
        for d, steps in legal.items():
            i = left.index(d)
            rest = left[:i] + left[i + 1 :]
            for frm, to in steps:
                me2, opp2 = me[:], opp[:]
                new_point = to and not me2[to]
                hit = move(me2, opp2, frm, to)
                if every_step and not st.block_ok(me2, opp2):
                    continue
                pool = _pool(me2, to, rest, legal) if narrow and rest else None
                if self._visit(
                    me2, opp2, rest, head_left - (frm == head), (*path, Step(frm, to, d, hit)),
                    (*fresh, to) if new_point else fresh, pool,
                ):  # fmt: skip
                    return True
        return False


def _pool(me: list[int], to: int, rest: tuple[int, ...], legal: _Legal) -> list[int] | None:
    """The checkers a child may move: those that could move before with a die left, and
    the one just moved; None (all of them) when the last checker came home."""
    if not any(me[7:BAR]):
        return None
    pool = {frm for d in set(rest) for frm, _ in legal[d] if me[frm]}
    if to:
        pool.add(to)
    return sorted(pool, reverse=True)


class _Node:
    """A distinct position reached during the search of every legal end."""

    __slots__ = ("high_path", "ok", "path", "used")

    def __init__(self, used: int, path: tuple[Step, ...], ok: bool) -> None:
        self.used = used
        self.path = path
        self.ok = ok
        self.high_path: tuple[Step, ...] | None = None


class AllEnds(Goal):
    """Every distinct position reached, with the most dice played to reach it and
    whether it ends lawfully; :meth:`ends` keeps the legal ends (L6)."""

    __slots__ = ("high", "mixed", "nodes")

    def __init__(self, dice: tuple[int, ...]) -> None:
        self.nodes: dict[tuple[Board, Board], _Node] = {}
        self.high = max(dice) if dice else 0
        self.mixed = len(dice) == 2 and dice[0] != dice[1]

    def reached(
        self, search: StepSearch, tme: Board, topp: Board, me: list[int], opp: list[int],
        used: int, path: tuple[Step, ...], fresh: tuple[int, ...],
    ) -> bool:  # fmt: skip
        node = self.nodes.get((tme, topp))
        if node is None:
            ok = search.ends_lawfully(me, opp, fresh)
            node = self.nodes[(tme, topp)] = _Node(used, path, ok)
        elif used > node.used:
            # the same position with more dice (a bear-off with a higher die wastes
            # pips: 5/4/off with 1-5 ends where 5/off does): it counts as a full play
            node.used, node.path = used, path
        if self.mixed and used == 1 and path[0].die == self.high and node.high_path is None:
            node.high_path = path
        return False

    def ends(self) -> list[End]:
        """The legal ends: the positions reached with the most dice, ending lawfully."""
        nodes = self.nodes
        best = max((n.used for n in nodes.values() if n.ok), default=0)
        ends = [(k, n) for k, n in nodes.items() if n.ok and n.used == best]
        if best == 1 and self.mixed and any(n.high_path is not None for _, n in ends):
            # L6: when only one die can be played, it must be the higher one
            return [End(n.high_path, k[0], k[1]) for k, n in ends if n.high_path is not None]
        return [End(n.path, k[0], k[1]) for k, n in ends]


class MoreThan(Goal):
    """A lawful play of more than ``used`` dice: the search stops at the first."""

    __slots__ = ("used",)

    def __init__(self, used: int) -> None:
        self.used = used

    def reached(
        self, search: StepSearch, tme: Board, topp: Board, me: list[int], opp: list[int],
        used: int, path: tuple[Step, ...], fresh: tuple[int, ...],
    ) -> bool:  # fmt: skip
        return used > self.used and search.ends_lawfully(me, opp, fresh)


class SingleDie(Goal):
    """The mover's boards after one step (searched with one die), lawful under L5."""

    __slots__ = ("boards",)

    def __init__(self) -> None:
        self.boards: set[Board] = set()

    def reached(
        self, search: StepSearch, tme: Board, topp: Board, me: list[int], opp: list[int],
        used: int, path: tuple[Step, ...], fresh: tuple[int, ...],
    ) -> bool:  # fmt: skip
        if used == 1 and search.st.block_ok(me, opp):
            self.boards.add(tme)
        return False


def generate(
    st: TurnState, me: list[int], opp: list[int], dice: tuple[int, ...] | None = None
) -> list[End]:
    """Every distinct legal end of the turn with one canonical way to play it.
    ``dice`` overrides the values to play (Lurč's placing and paš turns). Variants with
    no block rule are searched by :mod:`engine.endsearch` (a paš has eight moves)."""
    if applies(st):
        found = search_ends(st, me, opp, (st.to_play if dice is None else dice,))
        return [End(steps, m, o) for steps, m, o in found]
    return walk_ends(st, me, opp, dice)


def walk_ends(
    st: TurnState, me: list[int], opp: list[int], dice: tuple[int, ...] | None = None
) -> list[End]:
    """:func:`generate` by the depth-first :class:`StepSearch` (every variant)."""
    goal = AllEnds(st.to_play if dice is None else dice)
    StepSearch(st, me, opp, st.to_play if dice is None else dice, goal).run()
    return goal.ends()


def phased_ends(
    st: TurnState, me: list[int], opp: list[int], phases: Phases, *, steps: bool = True
) -> list[End]:
    """Legal ends of a turn played phase by phase, each phase under the must-play rule
    (Z10): the 1-2 of a houšek as many as possible, then as much of the paš as possible.
    One phase is :func:`generate`. With ``steps=False`` only the ends are wanted: where
    the breadth-first search applies, each step is a placeholder (their number holds)."""
    if applies(st):
        return [End(path, m, o) for path, m, o in search_ends(st, me, opp, phases, steps=steps)]
    return walk_phased_ends(st, me, opp, phases)


def walk_phased_ends(st: TurnState, me: list[int], opp: list[int], phases: Phases) -> list[End]:
    """:func:`phased_ends` by the depth-first :class:`StepSearch`, phase after phase."""
    if len(phases) == 1:
        return walk_ends(st, me, opp, phases[0])
    ends = [End((), tuple(me), tuple(opp))]
    for dice in phases:
        found: dict[tuple[Board, Board], tuple[Step, ...]] = {}
        for end in ends:
            for more in walk_ends(st, list(end.me), list(end.opp), dice):
                found.setdefault((more.me, more.opp), end.steps + more.steps)
        ends = [End(steps, m, o) for (m, o), steps in found.items()]
    return ends


def plays_more_than(st: TurnState, me: list[int], opp: list[int], used: int) -> bool:
    """Whether some play of the roll uses more than ``used`` dice and ends lawfully
    (L5): the must-play check of a written turn that left dice unused (L6)."""
    if st.dice[0] == st.dice[1] and _capacity(st, me, opp) <= used:
        return False
    dice = tuple(sorted(st.to_play, reverse=True))
    return StepSearch(st, me, opp, dice, MoreThan(used)).run()


def single_high_ends(st: TurnState, me: list[int], opp: list[int]) -> set[Board]:
    """The mover's boards after playing only the higher die, ending lawfully."""
    goal = SingleDie()
    StepSearch(st, me, opp, (st.dice[0],), goal).run()
    return goal.boards


def _capacity(st: TurnState, me: list[int], opp: list[int]) -> int:
    """An upper bound of the moves a double allows: each checker alone, as far as
    open points let it go. Own checkers never stop each other, so it holds while
    nobody waits on the bar and no bear-off can start this turn (more than four
    checkers outside home). Returns 5 (no bound) otherwise."""
    # (a paš is eight moves, not four: no bound either)
    if me[BAR] or me[START] or sum(me[7:BAR]) <= 4 or st.variant.rolls_again:
        return 5
    d = st.dice[0]
    omap, closed_at = st.omap, st.closed_at
    total = 0
    for p in range(24, d, -1):
        count = me[p]
        if not count:
            continue
        if p == st.head:
            count = min(count, st.head_allowance(me, opp))
        steps, q = 0, p - d
        while steps < 4 and q >= 1 and opp[omap[q]] < closed_at:
            steps += 1
            q -= d
        total += count * steps
        if total > 4:
            return 5
    return total


def legal_turns(position: Position, dice: object, rules: Rules | None = None) -> list[Turn]:
    """Every distinct legal end position of a roll, each with one canonical play (L6).
    ``dice`` is [a, b]; in Lurč also [2, 1, n, n], a houšek with its chosen paš, while
    [2, 1] alone lists the plays of every paš (Z8).

    >>> from engine.position import Position
    >>> [t.notation for t in legal_turns(Position.start("long"), [6, 6])]
    ['24/18(2)']
    """
    return _legal(position, dice, rules, steps=True)


def legal_positions(position: Position, dice: object, rules: Rules | None = None) -> set[Position]:
    """The positions :func:`legal_turns` reaches (the side to move after included),
    without writing a play for each: a check of an answer against the legal ends of a
    crowded paš (tens of thousands) costs about half as much."""
    return {t.position for t in _legal(position, dice, rules, steps=False)}


def _legal(position: Position, dice: object, rules: Rules | None, *, steps: bool) -> list[Turn]:
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
                phased_ends(state, me, opp, phases, steps=steps)]  # fmt: skip
    out: dict[Position, Turn] = {}
    for pas in choices:
        phases, again = variant.roll_phases(me, roll, pas)
        for end in phased_ends(state, me, opp, phases, steps=steps):
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
    "CLOSED",
    "ENTER_FIRST",
    "HIGHER_CHECKER",
    "NOT_EXACT",
    "NOT_HOME",
    "NO_CHECKER",
    "OFF",
    "AllEnds",
    "End",
    "Goal",
    "Guide",
    "MoreThan",
    "Offer",
    "Params",
    "Refusal",
    "SingleDie",
    "Step",
    "StepSearch",
    "Turn",
    "TurnState",
    "after",
    "check_dice",
    "dice_to_play",
    "generate",
    "legal_positions",
    "legal_turns",
    "phased_ends",
    "plays_more_than",
    "side_lists",
    "single_high_ends",
    "turn_state",
    "turn_states",
    "walk_ends",
    "walk_phased_ends",
]
