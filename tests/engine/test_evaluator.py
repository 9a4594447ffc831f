"""The long-nardy evaluator (docs/analysis.md): the lean end search against ``legal_turns``
(RULES L3-L7), the weights file's header, the shipped net's outputs on fixed positions,
and the bot's answers against ``legal`` on thousands of positions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from engine import Position, Rules, legal_turns
from engine.evaluator.encoding import ENCODER_VERSION, INPUTS, V1_INPUTS, as_boards, encode
from engine.evaluator.fastgen import fast_ends
from engine.evaluator.net import SHIPPED, Net, WeightsError, equity, load_net
from engine.evaluator.play import ROLLS, ends, equities0, equities1
from engine.movegen import generate
from engine.steps import turn_state
from engine.variants import WHITE, variant_named
from engine.variants.base import board_of

from .evaluator_positions import random_positions

LONG = variant_named("long")


def test_fast_ends_are_the_legal_ends_on_thousands_of_positions() -> None:
    """L3-L7: the lean search finds exactly the end positions ``legal_turns`` lists,
    on 3,000 positions of random games (with random rolls), and under the option
    block_ahead = in-home (L5) on 500 more."""
    checked = 0
    for rules, count, seed in ((Rules(), 3000, 1), (Rules(block_ahead="in-home"), 500, 2)):
        for pos, roll in random_positions(count, seed):
            side = pos.turn
            me, opp = pos.board(side), pos.board(1 - side)
            state = turn_state(LONG, rules, side, roll)
            fast = sorted(fast_ends(state, me, opp))
            legal = sorted({t.position.board(side) for t in legal_turns(pos, list(roll), rules)})
            assert fast == legal, (pos, roll)
            checked += 1
    assert checked == 3500


def test_ends_keep_the_engine_search_where_the_lean_one_does_not_apply() -> None:
    """block_check = every-step (L5) is not the lean search's: ends() asks movegen."""
    rules = Rules(block_check="every-step")
    for pos, roll in random_positions(200, 3):
        side = pos.turn
        me, opp = pos.board(side), pos.board(1 - side)
        got = sorted(ends(me, opp, side, roll, rules=rules))
        want = sorted((e.me, e.opp) for e in generate(turn_state(LONG, rules, side, roll),
                                                        list(me), list(opp)))  # fmt: skip
        assert got == want


def test_a_weights_file_of_another_encoder_is_refused(tmp_path: Path) -> None:
    net = Net.fresh(8, 1)
    net.header["encoder"] = ENCODER_VERSION + 98
    path = tmp_path / "old.net"
    net.save(path)
    with pytest.raises(WeightsError) as caught:
        Net.load(path)
    assert caught.value.code == "weights-encoder"
    assert f"made for encoder version {ENCODER_VERSION + 98}" in str(caught.value)
    assert f"this engine's encoder is version {ENCODER_VERSION}" in str(caught.value)


def test_a_file_that_is_no_weights_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.net"
    path.write_bytes(b"not a net at all")
    with pytest.raises(WeightsError) as caught:
        Net.load(path)
    assert caught.value.code == "weights-unreadable"
    assert str(path) in str(caught.value)


def test_saved_weights_load_back_with_their_header(tmp_path: Path) -> None:
    net = Net.fresh(8, 5, alpha=0.1)
    net.header["games"] = 1234
    net.save(tmp_path / "a.net")
    back = Net.load(tmp_path / "a.net")
    assert back.header == net.header
    assert back.games == 1234
    x = encode(as_boards([(LONG.start, LONG.start)]))
    assert np.allclose(back.outputs(x), net.outputs(x))


def test_the_shipped_net_declares_its_training() -> None:
    header = load_net().header
    assert header["encoder"] == ENCODER_VERSION
    assert header["inputs"] == INPUTS
    assert int(header["games"]) >= 50000  # type: ignore[call-overload]
    assert {"seed", "hidden", "alpha", "lambda"} <= set(header)
    assert SHIPPED.stat().st_size < 400_000  # tens to hundreds of KB


def test_the_shipped_net_was_trained_with_the_priming_inputs() -> None:
    """Encoder version 2's inputs (the last 8) carry weight in the shipped net: it was
    trained with them, not only widened from a version-1 net."""
    net = load_net()
    assert "widened_from" not in net.header
    assert float(np.abs(net.w1[V1_INPUTS:]).sum()) > 1.0


# The shipped net's outputs (win, win mars, lose mars) for the side to move, written down
# when long.net was last replaced (tests/engine/test_evaluator.py is updated with it).
START = (LONG.start, LONG.start)
RACE = (board_of({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}), board_of({6: 4, 5: 4, 4: 4, 3: 3}))
LAST = (board_of({0: 14, 1: 1}), board_of({24: 15}))
FIXED = {
    "start": (START, (0.58609, 0.19827, 0.10549)),
    "race": (RACE, (0.892, 0.00033, 0.00003)),
    "last": (LAST, (1.0, 1.0, 0.0)),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_the_shipped_net_gives_its_fixed_outputs(name: str) -> None:
    boards, expected = FIXED[name]
    got = load_net().outputs(encode(as_boards([boards])))[0]
    assert np.allclose(got, expected, atol=2e-4), got.tolist()


def test_the_shipped_net_is_sane_where_the_game_is_decided() -> None:
    """One checker left on point 1 against fifteen on the opponent's head: a near-certain
    win and a mars (L8); the other way round a near-certain mars loss."""
    net = load_net()
    win = net.outputs(encode(as_boards([LAST])))[0]
    assert win[0] > 0.99 and win[1] > 0.95
    lose = net.outputs(encode(as_boards([(LAST[1], LAST[0])])))[0]
    assert lose[0] < 0.01 and lose[2] > 0.95
    assert float(equity(win)) > 1.9


def test_bearing_off_the_last_checker_is_worth_the_points_won() -> None:
    """L8 at 0-ply and 1-ply alike: the end that bears off the last checker is the win
    itself, 2 points when the opponent has borne none off."""
    net = load_net()
    me, opp = LAST
    cands = ends(me, opp, WHITE, (3, 1))
    assert len(cands) == 1 and cands[0][0][0] == 15
    assert equities0(net, cands).tolist() == [2.0]
    assert equities1(net, cands, WHITE).tolist() == [2.0]


def test_21_rolls_weigh_36() -> None:
    from engine.evaluator.play import ROLL_WEIGHTS

    assert len(ROLLS) == 21 and abs(ROLL_WEIGHTS.sum() - 1) < 1e-12


def test_positions_json_of_the_fixed_positions_are_lawful() -> None:
    for boards, _ in FIXED.values():
        me, opp = boards
        pos = Position("long", WHITE, me, opp)
        assert Position.from_json(json.loads(json.dumps(pos.to_json()))) == pos


def test_random_positions_are_reproducible() -> None:
    assert random_positions(20, 9) == random_positions(20, 9)
    assert random.Random(1).random() == random.Random(1).random()
