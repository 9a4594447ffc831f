"""An irregular turn the opponent accepted (NOTATION 1, the ``accepted`` action).

The game goes on from the position the written moves reach. Only the physical checks
stay: each move takes one of the mover's own checkers forward along its route and
lands where the variant allows a landing, hitting as the variant allows. Dice use,
must-play, the head, the block and the bearing-off rules are waived for that turn.
"""

from __future__ import annotations

from engine.errors import IllegalTurnError
from engine.movegen import TurnState
from engine.moves import Step, point_text
from engine.notation import WrittenMove
from engine.variants import BAR, OFF, SIDE_NAMES, START
from engine.written import segments


def play_accepted(
    state: TurnState, me: list[int], opp: list[int], moves: tuple[WrittenMove, ...]
) -> tuple[tuple[Step, ...], list[int], list[int]]:
    """Play the written moves physically, without the rules of the roll: the steps
    (each with its distance as ``die``) and the boards after them, or
    :class:`IllegalTurnError` when a move is physically impossible.
    """
    me, opp = me[:], opp[:]
    side = SIDE_NAMES[state.side]
    other = SIDE_NAMES[1 - state.side]
    steps: list[Step] = []
    for a, b, star in segments(moves):
        written = f"{point_text(a)}/{point_text(b)}"
        if a == BAR and not me[BAR] and me[START]:
            a = START  # Lurč: entering from the start is written bar/... too
        if a == OFF or b == BAR or (b >= a and b != OFF):
            raise IllegalTurnError(
                f"{written}: checkers move forward only, from higher points to lower ones "
                "(24 towards 1, then off), even in an accepted turn",
                code="accepted-backward-move",
                params={"move": written, "from": point_text(a), "to": point_text(b)},
            )
        if not me[a]:
            where = "on the bar" if a in (BAR, START) else f"on point {a}"
            raise IllegalTurnError(
                f"{written}: there is no {side} checker {where}",
                code="accepted-no-checker",
                params={"move": written, "side": side, "point": point_text(a)},
            )
        hit = False
        if b != OFF:
            o = state.omap[b]
            if opp[o] >= state.closed_at:
                raise IllegalTurnError(
                    f"{written}: point {b} is closed by {other}, even in an accepted turn",
                    rule=state.variant.rule_ids.closed,
                    code="accepted-point-closed",
                    params={"move": written, "point": b, "by": other, "count": opp[o]},
                )
            hit = state.hits and opp[o] == 1
        if star and not hit:
            raise IllegalTurnError(
                f"{written}*: there is no single {other} checker to hit",
                code="accepted-nothing-to-hit",
                params={"move": written, "other": other, "point": b},
            )
        state.move(me, opp, a, b)
        distance = (BAR if a == START else a) - b
        steps.append(Step(a, b, distance, hit))
    return tuple(steps), me, opp
