"""The race evaluator (engine/evaluator/race.py, docs/analysis.md): what a race is
(RULES L3: the sides have passed each other), its one-sided targets against the
bear-off database and the engine's legal moves, and the order of the evaluators
(bear-off table > race net > contact net)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.evaluator.bearoff import load_bearoff
from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.judge import BEAROFF, CONTACT, RACE, kind_of
from engine.evaluator.net import equity, load_net
from engine.evaluator.race import RaceNet, is_race, load_race
from engine.evaluator.race_train import targets
from engine.movegen import legal_turns
from engine.position import Position

from .boards import board
from .race_check import exact_tables, small_sides


def test_a_race_is_each_side_in_its_own_points_1_to_12() -> None:
    """A side's point p is the other's p + 12 (L1) and both travel 24 -> 1: a checker
    on the mover's 13-24 still has the other side's first half ahead of it."""
    assert is_race(board({12: 3, 1: 2}), board({7: 1}))
    assert not is_race(board({13: 1, 1: 2}), board({7: 1}))  # the mover still to pass
    assert not is_race(board({1: 2}), board({20: 1}))  # the opponent still to pass
    assert kind_of(board({1: 2}), board({6: 1})) == BEAROFF
    assert kind_of(board({8: 2}), board({6: 1})) == RACE
    assert kind_of(board({18: 2}), board({6: 1})) == CONTACT


def one_roll_from_home(side: dict[int, int]) -> float:
    """The fewest rolls expected to finish a side with its last checker one roll from
    home, from the engine's legal turns and the one-sided database's expected rolls."""
    db = load_bearoff()
    pos = Position("long", 0, board(side), board({1: 1}))
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            best = np.inf
            for t in legal_turns(pos, [a, b]):
                w = t.position.white
                if any(w[7:]):
                    raise AssertionError("a roll that leaves a checker outside")
                best = min(best, db.expected_rolls(tuple(w[1:7])))
            total += best / 36
    return 1 + total


@pytest.mark.parametrize("side", [{7: 1}, {7: 1, 1: 3}, {7: 1, 1: 2}])
def test_targets_next_to_home_are_the_databases(side: dict[int, int]) -> None:
    """Every roll brings these sides home, so their 1-ply target is exact whatever the
    net: it must equal the recursion one roll deep on the database."""
    net = RaceNet.fresh(8, 1)
    s = board(side)[:13]
    fin, _ = targets(net, load_bearoff(), [s])
    assert float(fin[0] @ np.arange(fin.shape[1])) == pytest.approx(
        one_roll_from_home(side), abs=1e-3
    )


def test_the_race_net_reads_the_database_for_a_side_at_home() -> None:
    db = load_bearoff()
    net = RaceNet.fresh(8, 1)
    sides = np.array([board({6: 2, 1: 1})[:13], board({0: 0, 3: 15})[:13]], dtype=np.int64)
    fin, first = net.distributions(sides, db)
    assert np.allclose(fin[0], db.finish[db.index[(1, 0, 0, 0, 0, 2)]])
    assert np.allclose(first[1], db.first[db.index[(0, 0, 15, 0, 0, 0)]])


def test_the_shipped_race_net_gives_chances_that_add_up() -> None:
    race = load_race()
    if race is None:
        pytest.fail("no race.net shipped")
    pairs = [(board({8: 3, 2: 4}), board({10: 2, 5: 6})), (board({12: 15}), board({9: 1}))]
    out = race.outputs(pairs)
    assert np.all((out >= 0) & (out <= 1))
    assert np.all(out[:, 1] <= out[:, 0] + 1e-9) and np.all(out[:, 2] <= 1 - out[:, 0] + 1e-9)
    # 15 checkers on the 12-point against one on the 9-point: nearly a sure mars lost
    assert out[1, 2] > 0.95


def test_the_shipped_race_net_is_near_exact_on_small_races() -> None:
    """Every pair of racing sides of 1-2 checkers (at least one outside home): the exact
    chance of winning by the two-sided recursion over the engine's plays
    (tests/engine/race_check.py, which measures 1-3 checkers for docs/analysis.md)
    against the race evaluator's; and the contact net's, which the race net replaces."""
    race = load_race()
    if race is None:
        pytest.fail("no race.net shipped")
    sides = [(15, *([0] * 12)), *small_sides(2)]
    _, win, _ = exact_tables(sides[1:])
    boards = [(*s, *([0] * 14)) for s in sides]
    pairs = [(a, b) for a in range(1, len(sides)) for b in range(1, len(sides))
             if any(sides[a][7:]) or any(sides[b][7:])]  # fmt: skip
    exact = np.array([2 * win[a, b] - 1 for a, b in pairs])
    got = race.outputs([(boards[a], boards[b]) for a, b in pairs])
    err = np.abs(2 * got[:, 0] - 1 - exact)
    net = load_net()
    cont = equity(net.outputs(encode(as_boards([(boards[a], boards[b]) for a, b in pairs]))))
    assert len(pairs) > 7000
    assert 1000 * err.mean() < 25 and 1000 * err.max() < 250
    assert err.mean() < np.abs(cont - exact).mean() / 4
