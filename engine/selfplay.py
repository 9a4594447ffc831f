"""Random legal games, for tests and benchmarks (seeded, so always the same)."""

from __future__ import annotations

import random

from engine.movegen import (
    Turn,
    TurnState,
    after,
    generate,
    legal_turns,
    side_lists,
    turn_state,
)
from engine.moves import Step
from engine.notation import WrittenAction, dice_text, write_movetext, write_tags
from engine.position import Position
from engine.replay import Outcome, outcome_for
from engine.rules import RULE_OPTIONS
from engine.variants import BAR, CHECKERS, OFF, START, WHITE, Rules, variant_named


def random_game(
    variant: str, rng: random.Random, rules: Rules | None = None, *, resign_chance: float = 0.0
) -> str:
    """A complete random game as record text: each turn a random legal play."""
    rules = rules or Rules()
    v = variant_named(variant)
    pos = Position.start(v.name)
    actions: list[WrittenAction] = []
    outcome: Outcome | None = None
    last_roll = False
    first = True
    while outcome is None:
        if resign_chance and actions and rng.random() < resign_chance:
            actions.append(WrittenAction(pos.turn, "resigns", f"{'WB'[pos.turn]} resigns"))
            outcome = outcome_for(pos, 1 - pos.turn, rules, resigned=True)
            break
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        while first and v.lot_is_first_roll and rules.opening_roll == "lot" and a == b:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
        first = False
        turn = _phased_turn(pos, (a, b), rules, rng) if v.rolls_again else rng.choice(
            legal_turns(pos, [a, b], rules)
        )  # fmt: skip
        mover = pos.turn
        roll = dice_text((a, b), turn.pas)
        actions.append(WrittenAction(mover, "turn", f"{roll}: {turn.notation}".rstrip()))
        pos = turn.position
        if last_roll:
            outcome = (
                Outcome(None, "draw")
                if pos.off(mover) == CHECKERS
                else outcome_for(pos, WHITE, rules)
            )
        elif pos.off(mover) == CHECKERS:
            if mover == WHITE and rules.last_roll and v.last_roll:
                last_roll = True
            else:
                outcome = outcome_for(pos, mover, rules)
    tags = [*_tags(v.name, rules), ("Result", outcome.result)]
    body = write_movetext(actions, first_side=v.first_side)
    return "\n".join(write_tags(tags)) + "\n\n" + body + "\n"


def _tags(variant: str, rules: Rules) -> list[tuple[str, str]]:
    """The tags of a random game: its variant, the players and the options not default."""
    tags = [("Variant", variant), ("White", "Random A"), ("Black", "Random B")]
    for option in RULE_OPTIONS.values():
        value = getattr(rules, option.name)
        if value != option.default:
            tags.append((option.tag, option.written(value)))
    return tags


def _phased_turn(pos: Position, roll: tuple[int, int], rules: Rules, rng: random.Random) -> Turn:
    """A random legal play of a variant whose rolls come in phases (Lurč), phase by phase
    (a houšek's 1-2, then a random paš): listing every play of a houšek at once would be
    slow."""
    me, opp = side_lists(pos)
    variant = pos.rules_variant
    high_first = (max(roll), min(roll))
    _, choices = variant.roll_choices(list(high_first), me)
    pas = rng.choice(choices) if len(choices) > 1 else choices[0]
    phases, again = variant.roll_phases(me, high_first, pas)
    state = turn_state(variant, rules, pos.turn, high_first)
    steps: tuple[Step, ...] = ()
    for dice in phases:
        walk = _random_walk(state, me, opp, dice, rng)
        if walk is None:  # a die left unplayed: the full search knows the legal plays
            end = rng.choice(generate(state, me, opp, dice))
            walk = (end.steps, list(end.me), list(end.opp))
        steps += walk[0]
        me, opp = walk[1], walk[2]
    complete = len(steps) == sum(len(p) for p in phases)  # Z7: every move played
    nxt = pos.turn if again and complete and me[OFF] < CHECKERS else 1 - pos.turn
    return Turn(roll, steps, after(pos, me, opp, nxt), pas)


def _random_walk(
    state: TurnState, me: list[int], opp: list[int], dice: tuple[int, ...], rng: random.Random
) -> tuple[tuple[Step, ...], list[int], list[int]] | None:
    """Random steps until the dice are used up: a legal play when every die is used
    (no search needed); None when the walk got stuck."""
    me, opp, left, steps = me[:], opp[:], list(dice), []
    while left:
        options = [
            (frm, d, to)
            for d in set(left)
            for frm in (BAR, START, *range(24, 0, -1))
            if me[frm] and (to := state.target(me, opp, frm, d)) >= 0
        ]
        if not options:
            return None
        frm, d, to = rng.choice(options)
        steps.append(Step(frm, to, d, state.move(me, opp, frm, to)))
        left.remove(d)
    return tuple(steps), me, opp
