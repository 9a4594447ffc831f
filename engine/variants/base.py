"""What every variant of the family shares: the board's layout and the :class:`Variant`
that declares a game's rules (fields for the switches, methods for the roll).

Every board is a list of 27 counts in its owner's own numbering: index 0 holds the
checkers borne off, 1..24 the points, 25 the bar and 26 (Lurč only) the checkers that
never entered. One move generator serves all variants; they differ only in what they
declare here, as python-chess variants do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.errors import DiceError
from engine.values import KeywordValue

WHITE = 0
BLACK = 1
SIDE_NAMES = ("white", "black")
OFF = 0
BAR = 25
START = 26
SIZE = 27
CHECKERS = 15

Phases = tuple[tuple[int, ...], ...]


def board_of(points: dict[int, int]) -> tuple[int, ...]:
    """A board with ``points`` (index -> count) and nothing elsewhere."""
    out = [0] * SIZE
    for p, n in points.items():
        out[p] = n
    return tuple(out)


def opponent_maps(
    same_field: Callable[[int, int], int],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each side, the table mover's point -> the same field in the opponent's
    numbering (0 off the points), from ``same_field(side, point)``."""
    return tuple(  # type: ignore[return-value]
        tuple(same_field(side, p) if 1 <= p <= 24 else 0 for p in range(SIZE))
        for side in (WHITE, BLACK)
    )


def check_dice(dice: object) -> tuple[int, int]:
    """Validate two dice values, the higher first; :class:`DiceError` with a plain reason."""
    if not isinstance(dice, (list, tuple)) or len(dice) != 2:
        raise DiceError("a roll is two dice, like [6, 4]", code="roll-not-two-dice")
    check_faces(dice)
    a, b = dice
    return (a, b) if a >= b else (b, a)


def check_faces(dice: Sequence[object]) -> None:
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise DiceError(
                f"a die shows 1 to 6, not {d!r}", code="bad-die", params={"die": repr(d)}
            )


def dice_to_play(dice: tuple[int, int]) -> tuple[int, ...]:
    """The die values one roll gives to play: four of a double (L3)."""
    a, b = dice
    return (a, a, a, a) if a == b else (a, b)


# A variant and its rule ids are declared once (engine.values: keyword-only fields) and
# never changed; two variants are the same only if they are one (Variant.__eq__).


class RuleIds(KeywordValue):
    """The rule ids of RULES.md a variant's errors cite, by what went wrong."""

    turn_order: str  # the wrong side moves (L2, S2, Z1)
    closed: str  # a landing on a closed point (L3, S3, Z4)
    enter_first: str | None  # a checker waits on the bar (S4, Z5)
    bear_off: str  # bearing off too early or with the wrong die (L7, S5, Z9)
    must_play: str  # fewer dice played than the roll allows (L6, S5, Z10)


class Variant(KeywordValue):
    """A game of the family, declared by the rules that make it different. A variant
    whose roll is more than two dice played at once overrides :meth:`roll_choices` and
    :meth:`roll_phases` (Lurč)."""

    name: str
    title: str
    start: tuple[int, ...]
    opp_map: tuple[tuple[int, ...], tuple[int, ...]]
    rule_ids: RuleIds
    closed_at: int  # opponent checkers that close a point: 1 (long nardy) or 2
    hits: bool  # a lone opponent checker can be hit (S3, Z4)
    head: int  # the head point limited by L4 (0: no head rule)
    block_rule: bool  # the six-point block rule L5
    exact_bear_off: bool  # Z9: no bearing off with a higher die
    koks: bool  # S6: the triple win exists
    first_side: int  # who moves first in a game: the colour the starter takes (L12)
    lot_is_first_roll: bool  # S2: the opening lot is white's first roll (no doubles)
    lot: bool = True  # L2, S2: a lot decides who starts; Z1: in Lurč black starts, no lot
    gammons: bool = True  # a win can be a mars (L8); Z11: a Lurč win is one point
    cube: bool = False  # the doubling cube may be used (S7)
    last_roll: bool = False  # the option of L10 applies (black's last roll)
    has_start: bool = False  # Z1: checkers wait off the board before they enter
    rolls_again: bool = False  # Z7, Z8: a double is a paš with another roll after it
    max_repeat: int = 4  # the most times one written move may repeat: ``24/18(4)``
    mat_format: bool = False  # GNU Backgammon's .mat files hold this game
    evaluator: str | None = None  # the weights of engine/evaluator/ (None: no analysis)

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def roll_choices(
        self, dice: object, me: Sequence[int]
    ) -> tuple[tuple[int, int], tuple[tuple[int, int] | None, ...]]:
        """The roll (higher die first) of ``dice`` as a query gives them, and the choices
        the roll leaves open (Lurč's paš after a houšek; ``(None,)`` otherwise).
        :class:`DiceError` for dice that cannot be rolled."""
        return check_dice(dice), (None,)

    def roll_phases(
        self, me: Sequence[int], roll: tuple[int, int], pas: tuple[int, int] | None
    ) -> tuple[Phases, bool]:
        """The dice of ``roll`` phase by phase (each played under the must-play rule in
        turn) and whether the player rolls again after playing them all."""
        return (dice_to_play(roll),), False
