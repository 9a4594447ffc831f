"""The step primitive of every variant (RULES L3-L5, L7): the fixed facts of a turn
(:class:`TurnState`), where one checker lands with one die (``target``), the step played
in place (``move``), the head allowance and the block rule. Boards are plain lists here,
for speed. The searches over whole turns are in :mod:`engine.movegen`."""

from __future__ import annotations

from operator import itemgetter

from engine.position import Board, Position
from engine.variants import BAR, CHECKERS, OFF, START, WHITE, Rules, Variant, dice_to_play

# Why a step is impossible (negative results of ``target``).
NO_CHECKER = -1
ENTER_FIRST = -2
CLOSED = -3
NOT_HOME = -4
HIGHER_CHECKER = -5
NOT_EXACT = -6


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
        "block_cap",
        "block_rule",
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
        self.block_rule = variant.block_rule
        # L5 asks for an opponent checker ahead of a block: anywhere, or in its home
        self.block_cap = 6 if rules.block_ahead == "in-home" else 24
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
        o = self.hit_index(opp, to)
        if o:
            opp[o] = 0
            opp[BAR] += 1
            return True
        return False

    def hit_index(self, opp: list[int], to: int) -> int:
        """The opponent's point (its numbering) a checker landing on ``to`` hits: a lone
        checker (S3, Z4); 0 when it hits nothing."""
        if to and self.hits:
            o = self.omap[to]
            if opp[o] == 1:
                return o
        return 0

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
        if not self.block_rule:
            return True
        # no six of the mover's points in a row along the route: no block at all (a
        # test in C of the points' counts, before the loop below)
        if _SIX not in bytes(_IN_ROUTE_ORDER(me)).translate(_OCCUPIED):
            return True
        run = 0
        last = 0
        # The opponent travels its points 24 -> 1: in the mover's numbering 12..1, 24..13.
        for q in range(24, 0, -1):
            if me[_LONG_ROUTE[q]]:
                run += 1
                last = q
                if q > 1:
                    continue
            if run >= 6 and not any(opp[1 : min(last - 1, self.block_cap) + 1]):
                return False
            run = 0
        return True

    def block_ok_near(self, me: list[int], opp: list[int], points: list[int]) -> bool:
        """L5 checked only for the runs through ``points`` (long nardy): the points a
        turn newly occupied, when the position before the turn was lawful."""
        if not self.block_rule:
            return True
        route = _LONG_ROUTE
        for p in points:
            if not me[p]:
                continue
            q = p + 12 if p <= 12 else p - 12  # the same point in the opponent's numbering
            high = q
            while high < 24 and me[route[high + 1]]:
                high += 1
            low = q
            while low > 1 and me[route[low - 1]]:
                low -= 1
            if high - low >= 5 and not any(opp[1 : min(low - 1, self.block_cap) + 1]):
                return False
        return True


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
# the mover's counts in the order the opponent travels (q = 1..24), each count as b"0"
# (empty) or b"1": six points in a row are b"111111"
_IN_ROUTE_ORDER = itemgetter(*_LONG_ROUTE[1:25])
_OCCUPIED = bytes.maketrans(bytes(range(256)), b"0" + b"1" * 255)
_SIX = b"1" * 6


def sources(me: list[int]) -> list[int]:
    """The points the mover may move from: the bar (or the start) first, else every
    occupied point, highest first."""
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
