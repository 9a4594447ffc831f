"""Random legal games, for tests and benchmarks (seeded, so always the same)."""

from __future__ import annotations

import random

from engine.movegen import legal_turns
from engine.notation import WrittenAction, dice_text, write_movetext, write_tags
from engine.position import Position
from engine.replay import Outcome, outcome_for
from engine.variants import CHECKERS, WHITE, Rules, variant_named


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
        turn = rng.choice(legal_turns(pos, [a, b], rules))
        mover = pos.turn
        actions.append(
            WrittenAction(mover, "turn", f"{dice_text((a, b))}: {turn.notation}".rstrip())
        )
        pos = turn.position
        if last_roll:
            outcome = (
                Outcome(None, "draw")
                if pos.off(mover) == CHECKERS
                else outcome_for(pos, WHITE, rules)
            )
        elif pos.off(mover) == CHECKERS:
            if mover == WHITE and rules.last_roll and v.name == "long":
                last_roll = True
            else:
                outcome = outcome_for(pos, mover, rules)
    tags = [("Variant", v.name), ("White", "Random A"), ("Black", "Random B")]
    if not rules.mars:
        tags.append(("Mars", "off"))
    if rules.last_roll:
        tags.append(("LastRoll", "on"))
    if rules.block_check != "turn-end":
        tags.append(("BlockCheck", rules.block_check))
    if rules.block_ahead != "anywhere":
        tags.append(("BlockAhead", rules.block_ahead))
    tags.append(("Result", outcome.result))
    return "\n".join(write_tags(tags)) + "\n\n" + write_movetext(actions) + "\n"
