"""Long nardy (RULES L1-L12): no hitting, one checker closes a point, the head rule and
the six-point block."""

from __future__ import annotations

from engine.variants.base import CHECKERS, WHITE, RuleIds, Variant, board_of, opponent_maps


def _same_field(side: int, point: int) -> int:
    return point + 12 if point <= 12 else point - 12


LONG = Variant(
    name="long",
    title="long nardy",
    start=board_of({24: CHECKERS}),
    opp_map=opponent_maps(_same_field),
    rule_ids=RuleIds(turn_order="L2", closed="L3", enter_first=None, bear_off="L7", must_play="L6"),
    closed_at=1,
    hits=False,
    head=24,
    block_rule=True,
    exact_bear_off=False,
    koks=False,
    first_side=WHITE,
    lot_is_first_roll=False,
    last_roll=True,
    evaluator="long",  # engine/evaluator/long.net (docs/analysis.md)
)
