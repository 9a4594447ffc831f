"""Short backgammon (RULES S1-S7): hitting, two checkers close a point, the cube."""

from __future__ import annotations

from engine.variants.base import WHITE, RuleIds, Variant, board_of, opponent_maps


def _same_field(side: int, point: int) -> int:
    return 25 - point


SHORT = Variant(
    name="short",
    title="short backgammon",
    start=board_of({24: 2, 13: 5, 8: 3, 6: 5}),
    opp_map=opponent_maps(_same_field),
    rule_ids=RuleIds(turn_order="S2", closed="S3", enter_first="S4", bear_off="S5", must_play="S5"),
    closed_at=2,
    hits=True,
    head=0,
    block_rule=False,
    exact_bear_off=False,
    koks=True,
    first_side=WHITE,
    lot_is_first_roll=True,
    cube=True,
    mat_format=True,
)
