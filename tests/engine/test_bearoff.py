"""The bear-off databases (engine/evaluator/bearoff.py, docs/analysis.md) against an
exact two-sided recursion written here (tests/engine/bearoff_exact.py: pure Python, the
engine's legal moves), RULES L7 (bearing off) and L8 (oin and mars); and their use by
everything that asks for a position's value."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from engine.analysis import roll_luck
from engine.evaluator.advice import evaluate_position, hint_plays
from engine.evaluator.bearoff import (
    CHECKERS,
    TWO_SIDED,
    home_positions,
    is_bearoff,
    load_bearoff,
)
from engine.evaluator.net import load_net
from engine.evaluator.play import ROLLS, ends, equities0
from engine.rules import Rules

from .bearoff_exact import ROLLS as ALL_ROLLS
from .bearoff_exact import Home, board, equity, homes, plays, position, win

SMALL = homes(1, 3)  # the 83 arrangements of 1-3 checkers: 6,889 pairs


def test_the_positions_are_every_arrangement_of_up_to_15_checkers() -> None:
    found = home_positions()
    assert len(found) == 54264 == len(set(found))  # C(21, 6)
    assert found[0] == (0,) * 6 and found[-1] == (0, 0, 0, 0, 0, 15)


def test_two_sided_table_is_the_exact_recursion_on_every_pair_of_1_to_3_checkers() -> None:
    db = load_bearoff()
    pairs = [(a, b) for a in SMALL for b in SMALL]
    got = db.outputs([(board(a), board(b)) for a, b in pairs])
    want = np.array([win(a, b) for a, b in pairs])
    assert len(pairs) == 6889
    assert np.abs(got[:, 0] - want).max() < 1e-6
    assert not got[:, 1:].any()  # both sides have checkers off: no mars (L8)


def test_two_sided_table_is_exact_on_a_sample_of_4_to_6_checkers() -> None:
    rng = random.Random(7)
    four = homes(4, 4)
    pairs = [(rng.choice(four), rng.choice(four)) for _ in range(12)]
    db = load_bearoff()
    got = db.outputs([(board(a), board(b)) for a, b in pairs])[:, 0]
    assert np.allclose(got, [win(a, b) for a, b in pairs], atol=1e-6)
    assert db.exact((0, 0, 0, 0, 0, TWO_SIDED), (TWO_SIDED, 0, 0, 0, 0, 0))
    assert not db.exact((0, 0, 0, 0, 0, TWO_SIDED + 1), (1, 0, 0, 0, 0, 0))


@cache
def fewest_rolls(h: Home) -> float:
    """The fewest rolls expected to bear ``h`` off, by its own recursion."""
    if not sum(h):
        return 0.0
    return 1 + sum(min(fewest_rolls(e) for e in plays(h, d)) for d in ALL_ROLLS) / 36


@cache
def rolls_to_first(h: Home) -> float:
    """The fewest rolls expected to bear off one checker of ``h`` (15 on the board)."""
    total = 0.0
    for d in ALL_ROLLS:
        found = plays(h, d)
        if any(sum(e) < sum(h) for e in found):
            continue
        total += min(rolls_to_first(e) for e in found)
    return 1 + total / 36


HOMES = [(0, 0, 0, 0, 0, 1), (1, 1, 1, 1, 0, 0), (0, 0, 2, 0, 0, 2), (4, 0, 0, 0, 1, 0),
         (0, 0, 0, 0, 3, 2), (2, 2, 2, 0, 0, 0)]  # fmt: skip


@pytest.mark.parametrize("h", HOMES)
def test_one_sided_mean_rolls_match_the_recursion(h: Home) -> None:
    assert load_bearoff().expected_rolls(h) == pytest.approx(fewest_rolls(h), abs=1e-3)


def test_first_checker_distribution_matches_the_recursion() -> None:
    db = load_bearoff()
    for h in [(0, 0, 0, 0, 0, 15), (0, 0, 0, 5, 5, 5), (3, 0, 0, 0, 0, 12)]:
        dist = db.first[db.index[h]]
        assert float(dist @ np.arange(len(dist))) == pytest.approx(rolls_to_first(h), abs=1e-3)
    # a position with a checker off has borne its first off already
    assert db.first[db.index[(0, 0, 0, 0, 0, 14)], 0] == 1.0


def test_mars_for_fifteen_on_the_six_point_against_one_checker_about_to_finish() -> None:
    """15 on the 6-point bear one off in one roll with a 6, 5-1, 4-2, 3-3 or 2-2 (L7):
    17 of 36; otherwise the opponent's last checker goes off and it is a mars (L8)."""
    me, opp = (0, 0, 0, 0, 0, 15), (1, 0, 0, 0, 0, 0)
    got = load_bearoff().outputs([(board(me), board(opp))])[0]
    assert got == pytest.approx([0.0, 0.0, 19 / 36], abs=1e-4)
    chances = evaluate_position(position(me, opp))
    assert chances.equity == pytest.approx(-1 - 19 / 36, abs=1e-4)
    # the other way round: the mover's last checker goes off now, a mars won
    won = evaluate_position(position(opp, me))
    assert (won.win, won.win_mars, won.equity) == (1.0, 1.0, 2.0)


def test_the_issues_two_examples() -> None:
    """2 on my 6-point against 2 on the opponent's 1-point win only with 6-6, 5-5, 4-4
    or 3-3: 4/36, equity -0.778; 1 on my 1-point against 1 on the 6-point is sure."""
    two = evaluate_position(position((0, 0, 0, 0, 0, 2), (2, 0, 0, 0, 0, 0)))
    assert two.equity == pytest.approx(2 * 4 / 36 - 1, abs=1e-6)
    assert round(two.equity, 3) == -0.778
    sure = evaluate_position(position((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1)))
    assert sure.equity == pytest.approx(1.0, abs=1e-9)


def test_one_sided_estimate_is_close_to_exact_where_both_apply() -> None:
    """The one-sided databases taken as independent (used beyond the two-sided table)
    are off the exact value by little on the small positions where both are known."""
    db = load_bearoff()
    rows = [db.index[h] for h in SMALL]
    from engine.evaluator.bearoff import win_chances

    fin, first = db.finish[rows], db.first[rows]
    est = win_chances(fin[:, None], first[:, None], fin[None, :], first[None, :])[..., 0]
    exact = np.array([[win(a, b) for b in SMALL] for a in SMALL])
    assert np.abs(est - exact).mean() < 0.01
    assert np.abs(est - exact).max() < 0.06


def _sample(n: int, seed: int) -> list[tuple[Home, Home]]:
    rng = random.Random(seed)
    return [(rng.choice(SMALL), rng.choice(SMALL)) for _ in range(n)]


def test_eval_and_hint_are_exact_on_a_seeded_sample_of_the_6889_small_bearoffs() -> None:
    """The gate (docs/analysis.md has the whole set's figures): eval within 10 mp of the
    exact value on average and 50 at most, hint's first play an exactly best one."""
    errors = []
    for me, opp in _sample(120, 33):
        pos = position(me, opp)
        errors.append(abs(evaluate_position(pos).equity - equity(me, opp)))
        for dice in ((6, 5), (2, 1), (3, 3)):
            ranked = hint_plays(pos, list(dice))
            exact = [1.0 if not sum(h) else 1 - win(opp, h) for h in plays(me, dice)]
            top = tuple(ranked[0].position.white[1:7])
            got = 1.0 if not sum(top) else 1 - win(opp, top)
            assert got == pytest.approx(max(exact), abs=1e-9)
    assert 1000 * np.mean(errors) < 10 and 1000 * max(errors) < 50


def test_every_value_asked_of_the_evaluator_is_the_tables_in_a_bearoff() -> None:
    """Players (equities0), the analysis' luck (roll_luck) and eval read the table: the
    values are the exact ones where the two-sided table applies."""
    net = load_net()
    me, opp = (0, 1, 0, 1, 0, 1), (1, 1, 0, 0, 0, 1)
    cands = ends(board(me), board(opp), 0, (4, 2))
    assert is_bearoff(board(me), board(opp))
    exact = [1.0 if c[0][0] == CHECKERS else 1 - win(opp, tuple(c[0][1:7])) for c in cands]
    assert np.allclose(equities0(net, cands), [2 * w - 1 for w in exact], atol=1e-6)
    per_roll, mean = roll_luck(net, board(me), board(opp), 0, Rules())
    assert mean == pytest.approx(equity(me, opp), abs=1e-6)
    assert len(per_roll) == len(ROLLS)
