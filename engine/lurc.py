"""Lurč (RULES Z1-Z11): placing from the start, paš and houšek with the extra roll.

The moves are the common generator's (bridges of two close a point, a lone checker is
hit, the bar and the start enter first, bearing off only exactly); what Lurč adds is
which dice a roll gives, in which phases, and who rolls next."""

from __future__ import annotations

from engine.errors import DiceError, IllegalTurnError
from engine.movegen import Step, Turn, TurnState, after, side_lists, turn_state
from engine.notation import WrittenMove
from engine.position import Board, Position
from engine.variants import CHECKERS, START, Rules
from engine.written import WrittenTurn, segments

Phases = tuple[tuple[int, ...], ...]


def paš(n: int) -> tuple[int, ...]:
    """Z7: four moves of ``n`` and four of the opposite face ``7 - n``."""
    return (n,) * 4 + (7 - n,) * 4


def lurc_phases(me: Board | list[int], dice: tuple[int, int], pas: tuple[int, int] | None
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
        )
    if placing:
        return ((a, b),), False
    if a == b:
        return (paš(a),), True
    if (a, b) == (2, 1):
        if pas is None:
            raise IllegalTurnError(
                "after a houšek (1-2) write the chosen paš, like 21+55:", rule="Z8"
            )
        if pas[0] != pas[1]:
            raise IllegalTurnError(f"a paš is a double, not {pas[0]}-{pas[1]}", rule="Z8")
        return ((2, 1), paš(pas[0])), True
    return ((a, b),), False


def phased_ends(state: TurnState, me: list[int], opp: list[int], phases: Phases
                ) -> list[tuple[tuple[Step, ...], Board, Board]]:  # fmt: skip
    """Legal ends of a turn played phase by phase, each phase under the must-play rule
    (Z10): the 1-2 of a houšek as many as possible, then as much of the paš as possible."""
    ends: list[tuple[tuple[Step, ...], Board, Board]] = [((), tuple(me), tuple(opp))]
    for dice in phases:
        found: dict[tuple[Board, Board], tuple[Step, ...]] = {}
        for steps, m, o in ends:
            for more, m2, o2 in state.generate(list(m), list(o), dice):
                found.setdefault((m2, o2), steps + more)
        ends = [(steps, m, o) for (m, o), steps in found.items()]
    return ends


def lurc_turns(position: Position, dice: object, rules: Rules) -> list[Turn]:
    """Every distinct legal end of a Lurč roll. ``dice`` is [a, b], or [2, 1, n, n] for a
    houšek with its chosen paš; [2, 1] alone lists the plays of every paš (Z8)."""
    if not isinstance(dice, (list, tuple)) or len(dice) not in (2, 4):
        raise DiceError("a Lurč roll is two dice, like [6, 4], or [2, 1, 5, 5] for a houšek")
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise DiceError(f"a die shows 1 to 6, not {d!r}")
    if position.off(0) == CHECKERS or position.off(1) == CHECKERS:
        from engine.errors import PositionError

        raise PositionError("the game is over: one side has borne off all its checkers")
    roll = (max(dice[0], dice[1]), min(dice[0], dice[1]))
    me, opp = side_lists(position)
    choices: list[tuple[int, int] | None]
    if len(dice) == 4:
        choices = [(dice[2], dice[3])]
    elif roll == (2, 1) and me[START] == 0:
        choices = [(n, n) for n in range(1, 7)]
    else:
        choices = [None]
    state = turn_state(position.rules_variant, rules, position.turn, roll)
    out: dict[Position, Turn] = {}
    for pas in choices:
        phases, again = lurc_phases(me, roll, pas)
        nxt = position.turn if again else 1 - position.turn
        moves = sum(len(p) for p in phases)
        for steps, m, o in phased_ends(state, me, opp, phases):
            end = after(position, m, o, nxt)
            # the game is won, or the paš was partly unplayed (Z7): the opponent rolls
            if m[0] == CHECKERS or len(steps) < moves:
                end = end.with_turn(1 - position.turn)
            out.setdefault(end, Turn(roll, steps, end, pas))
    return list(out.values())


def lurc_play_written(
    state: TurnState, me: list[int], opp: list[int], moves: tuple[WrittenMove, ...],
    pas: tuple[int, int] | None,
) -> tuple[tuple[Step, ...], list[int], list[int], bool]:  # fmt: skip
    """Play a written Lurč turn: the steps, the boards after it and whether the same
    player rolls again; :class:`IllegalTurnError` for a broken rule. A turn that uses
    every die needs no search; a shorter one is checked against every legal end."""
    phases, again = lurc_phases(me, state.dice, pas)
    steps, me2, opp2 = WrittenTurn(state, me, opp, segments(moves), phases).play()
    # Z7, Z8: the extra roll only when every move of the roll was played
    complete = len(steps) == sum(len(p) for p in phases)
    return steps, me2, opp2, again and complete and me2[0] < CHECKERS
