"""Lurč (RULES Z1-Z11): placing from the start, paš and houšek with the extra roll.

The moves are the common generator's (bridges of two close a point, a lone checker is
hit, the bar and the start enter first, bearing off only exactly); what Lurč adds is
which dice a roll gives, in which phases, and who rolls next: :class:`Lurc` overrides
the two roll hooks of :class:`Variant`."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import DiceError, IllegalTurnError
from engine.variants.base import (
    BLACK,
    CHECKERS,
    START,
    Phases,
    RuleIds,
    Variant,
    board_of,
    check_faces,
    opponent_maps,
)


def paš(n: int) -> tuple[int, ...]:
    """Z7: four moves of ``n`` and four of the opposite face ``7 - n``."""
    return (n,) * 4 + (7 - n,) * 4


def lurc_phases(me: Sequence[int], dice: tuple[int, int], pas: tuple[int, int] | None
                ) -> tuple[Phases, bool]:  # fmt: skip
    """The dice a Lurč roll gives, phase by phase, and whether the player rolls again.

    Z3: while checkers wait at the start, each die enters one checker, doubles
    included, with no paš and no extra roll. Z7: a double n-n plays four n and four 7-n,
    then rolls again. Z8: 1-2 plays the 1 and the 2, then the chosen paš, then rolls again.
    The extra roll needs every move played: the caller checks that (a paš partly
    unplayed under must-play ends the turn).
    """
    a, b = max(dice), min(dice)
    placing = me[START] > 0
    if pas is not None and (placing or (a, b) != (2, 1)):
        raise IllegalTurnError(
            "a chosen paš is written only after a houšek (1-2), and not while placing",
            rule="Z8" if not placing else "Z3",
            code="pas-misplaced",
        )
    if placing:
        return ((a, b),), False
    if a == b:
        return (paš(a),), True
    if (a, b) == (2, 1):
        if pas is None:
            raise IllegalTurnError(
                "after a houšek (1-2) write the chosen paš, like 21+55:",
                rule="Z8",
                code="pas-missing",
            )
        if pas[0] != pas[1]:
            raise IllegalTurnError(
                f"a paš is a double, not {pas[0]}-{pas[1]}",
                rule="Z8",
                code="pas-not-double",
                params={"pas": f"{pas[0]}-{pas[1]}"},
            )
        return ((2, 1), paš(pas[0])), True
    return ((a, b),), False


def _field(side: int, point: int) -> int:
    if side == BLACK:
        return 25 - point
    return point - 12 if point > 12 else point + 12


def _point(side: int, field: int) -> int:
    if side == BLACK:
        return 25 - field
    return field + 12 if field <= 12 else field - 12


def _same_field(side: int, point: int) -> int:
    return _point(1 - side, _field(side, point))


class Lurc(Variant):
    """Lurč's rolls: two dice or a houšek with its chosen paš, played in phases."""

    __slots__ = ()

    def roll_choices(
        self, dice: object, me: Sequence[int]
    ) -> tuple[tuple[int, int], tuple[tuple[int, int] | None, ...]]:
        """[a, b], or [2, 1, n, n] for a houšek with its chosen paš; [2, 1] alone
        leaves every paš open (Z8)."""
        if not isinstance(dice, (list, tuple)) or len(dice) not in (2, 4):
            raise DiceError(
                "a Lurč roll is two dice, like [6, 4], or [2, 1, 5, 5] for a houšek",
                code="lurc-roll-not-two-dice",
            )
        check_faces(dice)
        roll = (max(dice[0], dice[1]), min(dice[0], dice[1]))
        if len(dice) == 4:
            return roll, ((dice[2], dice[3]),)
        if roll == (2, 1) and me[START] == 0:
            return roll, tuple((n, n) for n in range(1, 7))
        return roll, (None,)

    def roll_phases(
        self, me: Sequence[int], roll: tuple[int, int], pas: tuple[int, int] | None
    ) -> tuple[Phases, bool]:
        return lurc_phases(me, roll, pas)


LURC = Lurc(
    name="lurc",
    title="Lurč",
    start=board_of({START: CHECKERS}),
    opp_map=opponent_maps(_same_field),
    rule_ids=RuleIds(
        turn_order="Z1", closed="Z4", enter_first="Z5", bear_off="Z9", must_play="Z10"
    ),
    closed_at=2,
    hits=True,
    head=0,
    block_rule=False,
    exact_bear_off=True,
    koks=False,
    first_side=BLACK,
    lot_is_first_roll=False,
    lot=False,
    gammons=False,
    has_start=True,
    rolls_again=True,
    max_repeat=10,
    evaluator="lurc",  # engine/evaluator/lurc.net (docs/analysis_lurc.md)
)
