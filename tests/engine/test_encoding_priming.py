"""The long-nardy encoder's version 2 (engine/evaluator/encoding.py): the inputs a priming
position needs (one checker holds a point, RULES L5; the two sides travel the same way,
L1-L3), checked against a plain reading of their definitions on positions of random
games and on generated boards, and worked out by hand on three positions; and a net of
version 1 read by version 2 with its values unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.evaluator.encoding import (
    INPUTS,
    PRIMING_INPUTS,
    V1_INPUTS,
    as_boards,
    encode,
)
from engine.evaluator.net import Net, WeightsError
from engine.variants import variant_named

from .boards import board
from .evaluator_positions import random_positions

LONG = variant_named("long")
# the blocker's points in the order the runner meets them (the runner's 24 -> 1)
ROUTE = [*range(12, 0, -1), *range(24, 12, -1)]


def reference(blocker: tuple[int, ...], runner: tuple[int, ...]) -> list[float]:
    """The four inputs of ``blocker`` against ``runner``, by their definitions, one roll
    of the 36 at a time."""
    held = [blocker[p] > 0 for p in ROUTE]
    along = [runner[24 - i] for i in range(24)]  # route index i is the runner's 24 - i
    best, start, run = 0, 0, 0
    for i, h in enumerate(held):
        run = run + 1 if h else 0
        if run > best:
            best, start = run, i - run + 1
    trapped = sum(along[:start]) if best else 0
    rear = next((i for i in range(24) if along[i]), 24)
    last = max((i for i in range(24) if held[i]), default=-1)

    def free(pips: int) -> bool:
        return rear + pips >= 24 or not held[rear + pips]

    escapes = moves = reach_sum = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if a == b:
                reach = 0
                for k in range(1, 5):
                    if not free(k * a):
                        break
                    reach = k * a
            else:
                reach = max(
                    [a] * free(a) + [b] * free(b) + [a + b] * (free(a + b) and (free(a) or free(b)))
                    or [0]
                )
            escapes += rear + reach > last
            moves += reach > 0
            reach_sum += reach
    return [trapped / 15, escapes / 36, moves / 36, reach_sum / (36 * 24)]


def priming(me: tuple[int, ...], opp: tuple[int, ...]) -> list[float]:
    """Version 2's inputs for the mover (as the blocker) and the opponent, as encoded."""
    return [float(v) for v in encode(as_boards([(me, opp)]))[0, V1_INPUTS:]]


def expected(me: tuple[int, ...], opp: tuple[int, ...]) -> list[float]:
    return reference(me, opp) + reference(opp, me)


def test_version_2_appends_the_priming_inputs() -> None:
    assert INPUTS == V1_INPUTS + 2 * PRIMING_INPUTS
    assert encode(as_boards([(LONG.start, LONG.start)])).shape == (1, INPUTS)


def test_the_start_worked_out_by_hand() -> None:
    """Fifteen on each head: the runner's rear checker is on its 24, the blocker's head
    (its 24) is 12 pips ahead of it. All 15 are behind it; only 5-5 passes it (3-3 and 6-6
    stop at 12, 4-4 too); every roll moves; the mixed rolls go a + b (210 pips over their
    30 ways), the doubles 4, 8, 9, 8, 20 and 6."""
    side = [1.0, 1 / 36, 1.0, (210 + 55) / (36 * 24)]
    assert priming(LONG.start, LONG.start) == pytest.approx(side + side, abs=1e-6)


def test_a_full_prime_holds_a_checker_in_place() -> None:
    """The blocker holds its 11-6 (the runner's 23-18, six in a row: L5 allows it while a
    runner's checker is ahead of it, here the other 14 on the runner's 1-6); the runner's
    last checker on its 24, right behind: no roll moves it."""
    me = board({11: 3, 10: 3, 9: 3, 8: 2, 7: 2, 6: 2})
    opp = board({24: 1, 6: 3, 5: 3, 4: 3, 3: 3, 2: 2})
    assert priming(me, opp)[:PRIMING_INPUTS] == pytest.approx([1 / 15, 0.0, 0.0, 0.0])


def test_a_checker_already_past_has_escaped() -> None:
    """Every runner's checker is past the blocker's last point: every roll counts as
    past, none is trapped."""
    me = board({24: 5, 23: 5, 22: 5})
    opp = board({6: 5, 5: 5, 4: 5})  # the runner's 6-4 are the blocker's 18-16: ahead
    got = priming(me, opp)[:PRIMING_INPUTS]
    assert got[:3] == pytest.approx([0.0, 1.0, 1.0])


def test_the_inputs_of_random_games_match_their_definitions() -> None:
    pairs = [(p.board(p.turn), p.board(1 - p.turn)) for p, _ in random_positions(1500, 21)]
    got = encode(as_boards(pairs))[:, V1_INPUTS:]
    for row, (me, opp) in zip(got, pairs, strict=True):
        assert row.tolist() == pytest.approx(expected(me, opp), abs=1e-6), (me, opp)


def boards_of(counts: list[int]) -> tuple[int, ...]:
    """15 checkers spread by ``counts`` (25 weights: off, then the points 1-24)."""
    return (*counts, 0, 0)


spread = st.lists(st.integers(0, 15), min_size=25, max_size=25).filter(lambda c: sum(c) <= 15)


@settings(max_examples=300, deadline=None)
@given(spread, spread)
def test_generated_boards_match_their_definitions(me: list[int], opp: list[int]) -> None:
    """Any spread of checkers (not only the legal ones), none on the board included."""
    a, b = boards_of(me), boards_of(opp)
    assert priming(a, b) == pytest.approx(expected(a, b), abs=1e-6)


def test_a_version_1_net_reads_version_2_with_its_values_unchanged(tmp_path: Path) -> None:
    old = Net.fresh(16, 3)
    old.w1 = old.w1[:V1_INPUTS].copy()
    old.header.update(encoder=1, inputs=V1_INPUTS)
    old.save(tmp_path / "v1.net")
    net = Net.load(tmp_path / "v1.net")
    assert net.header["encoder"] == 2 and net.header["inputs"] == INPUTS
    assert net.header["widened_from"] == 1
    pairs = [(p.board(p.turn), p.board(1 - p.turn)) for p, _ in random_positions(200, 4)]
    x = encode(as_boards(pairs))
    hidden = 1 / (1 + np.exp(-(x[:, :V1_INPUTS] @ old.w1 + old.b1)))
    want = 1 / (1 + np.exp(-(hidden @ old.w2 + old.b2)))
    assert np.allclose(net.outputs(x), want, atol=1e-6)


def test_a_version_1_file_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    old = Net.fresh(16, 3)  # version 2's input count under version 1's number
    old.header.update(encoder=1)
    old.save(tmp_path / "odd.net")
    with pytest.raises(WeightsError) as caught:
        Net.load(tmp_path / "odd.net")
    assert caught.value.code == "weights-encoder"
