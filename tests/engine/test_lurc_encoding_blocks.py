"""The Lurč encoder's version 2 (engine/evaluator/lurc_encoding.py): what hit and unplaced
checkers face (Z3, Z5: they enter on the side's points 19-24 before anything else
moves; Z4: a bridge cannot be landed on), the bridges in an opponent's way (Z2: the
routes run against each other) and the rolls that hit a lone checker in one step,
checked against a plain reading of RULES Z2 on fields of the board, by hand and on
positions of random games; a version-1 net read by version 2 with its values unchanged."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.evaluator.lurc_encoding import BLOCK_INPUTS, INPUTS, V1_INPUTS, as_boards, encode
from engine.evaluator.net import Net
from engine.movegen import side_lists
from engine.notation import read_records
from engine.position import Position
from engine.replay import replay
from engine.selfplay import random_game
from engine.variants import BLACK, WHITE

ROOT = Path(__file__).resolve().parents[2]
BAR, START = 25, 26


def field(side: int, point: int) -> int:
    """RULES Z2: black point p is field 25 - p; white point p is field p - 12 (p > 12)
    or p + 12 (p <= 12)."""
    if side == BLACK:
        return 25 - point
    return point - 12 if point > 12 else point + 12


def reference(board: tuple[int, ...], other: tuple[int, ...], side: int) -> list[float]:
    """The three inputs of ``side`` (``board``, its own numbering) against the other
    side's ``other``, from the fields."""
    them = 1 - side
    bridges = {field(them, p) for p in range(1, 25) if other[p] >= 2}
    entry = [field(side, 25 - d) for d in range(1, 7)]  # Z3: die d enters on 25 - d
    blocked = sum(f in bridges for f in entry) / 6
    waiting = board[BAR] + board[START] > 0
    # the fields the other side's checkers will still land on or pass
    ahead = set()
    for q in range(1, 25):
        if other[q]:
            ahead |= {field(them, r) for r in range(1, q)}
    if other[BAR] + other[START]:
        ahead |= {field(them, r) for r in range(1, 25)}
    in_way = sum(board[p] >= 2 and field(side, p) in ahead for p in range(1, 25)) / 8
    blots = {field(side, p) for p in range(1, 25) if board[p] == 1}
    if other[BAR] + other[START]:  # Z3, Z5: every die enters, on the other's 25 - die
        hit = {k for k in range(1, 7) if field(them, 25 - k) in blots}
    else:
        hit = {k for k in range(1, 7) for q in range(k + 1, 25)
               if other[q] and field(them, q - k) in blots}  # fmt: skip
    shots = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if {a, b} == {1, 2}:
                steps = set(range(1, 7))  # Z8: the houšek's paš, any
            elif a == b:
                steps = {a, 7 - a}  # Z7: four of n, four of 7 - n
            else:
                steps = {a, b}
            shots += bool(steps & hit)
    return [blocked, blocked * blocked if waiting else 0.0, in_way, shots / 36]


def blocks_of(pos: Position) -> tuple[list[float], list[float]]:
    me, opp = side_lists(pos)
    x = encode(as_boards([(tuple(me), tuple(opp))]))[0]
    mine = x[V1_INPUTS : V1_INPUTS + BLOCK_INPUTS]
    theirs = x[V1_INPUTS + BLOCK_INPUTS :]
    return [float(v) for v in mine], [float(v) for v in theirs]


def test_worked_by_hand() -> None:
    """Black to move with three checkers to place (Z3); white holds bridges on its 13
    and 16, the fields of black's 24 and 21 (black's dice 1 and 4 cannot enter): 2/6
    blocked, neither die enters with (2/6)^2 of the rolls. Black's bridge on its 15 is
    the field of white's 22, where white's 3 enters: 1/6; white has
    nothing waiting. Black's 15 (field 10) lies ahead of white's checkers on its 23
    (field 11); black's bridges on its 10 and 2 (fields 15 and 23) are ahead of them
    too (white goes on 12 -> 1, fields 24 -> 13): three in white's way. White's three
    bridges (fields 1, 4, 11) all lie ahead of black's three to enter. Black's lone
    checker on its 1 (field 24, white's 12) is a step of 1 from white's 13 and of 4 from
    white's 16: the rolls with a 1 or a 4 (18 of the 30 mixed ones, the houšek
    included), and the paš 1-1, 6-6, 3-3, 4-4 (their steps 1 and 6, 3 and 4): 22 of
    36. White has no lone checker."""
    pos = Position.from_json({"variant": "lurc", "turn": "black",
                              "black": {"start": 3, "15": 2, "2": 2, "10": 7, "1": 1},
                              "white": {"13": 2, "16": 2, "23": 11}})  # fmt: skip
    mine, theirs = blocks_of(pos)
    assert mine == pytest.approx([2 / 6, 1 / 9, 3 / 8, 22 / 36])
    assert theirs == pytest.approx([1 / 6, 0.0, 3 / 8, 0.0])
    me, opp = side_lists(pos)
    assert mine == pytest.approx(reference(tuple(me), tuple(opp), BLACK))
    assert theirs == pytest.approx(reference(tuple(opp), tuple(me), WHITE))


def test_a_bridge_behind_every_opponent_checker_is_in_nobodys_way() -> None:
    """White's last checkers on its 1 (field 13): nothing of white's passes black's
    fields any more; black's bridge on its 24 (field 1) blocks nothing."""
    pos = Position.from_json({"variant": "lurc", "turn": "black",
                              "black": {"24": 2, "3": 13},
                              "white": {"1": 15}})  # fmt: skip
    mine, theirs = blocks_of(pos)
    assert mine[2] == 0.0
    assert theirs[0] == 0.0  # nothing of black's stands on white's entry fields


def random_game_positions(count: int, seed: int) -> list[Position]:
    """The positions before each turn of the engine's random Lurč games."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        done = replay(read_records(random_game("lurc", rng))[0], check_result=False)
        found.extend(p.before for p in done.played if p.action.kind == "turn")
    return found[:count]


def test_the_inputs_equal_their_reading_on_random_games() -> None:
    positions = random_game_positions(600, 5)
    seen = np.zeros(2 * BLOCK_INPUTS)
    for pos in positions:
        me, opp = side_lists(pos)
        mine, theirs = blocks_of(pos)
        assert mine == pytest.approx(reference(tuple(me), tuple(opp), pos.turn))
        assert theirs == pytest.approx(reference(tuple(opp), tuple(me), 1 - pos.turn))
        seen += np.array(mine + theirs) > 0
    assert (seen > 10).all()  # each input took other values than 0 many times


def test_a_version_1_net_reads_the_same_values() -> None:
    """The 12,000-game net of encoder 1 (tools/training/lurc-1.net) is read widened: its
    outputs are those of its version-1 weights on the version-1 inputs."""
    path = ROOT / "tools/training/lurc-1.net"
    net = Net.load(path)
    assert net.header["widened_from"] == 1 and net.w1.shape[0] == INPUTS
    with np.load(path) as raw:
        w1, b1, w2, b2 = raw["w1"], raw["b1"], raw["w2"], raw["b2"]
    assert w1.shape[0] == V1_INPUTS
    sides = [side_lists(p) for p in random_game_positions(200, 6)]
    x = encode(as_boards([(tuple(me), tuple(opp)) for me, opp in sides]))
    hidden = 1 / (1 + np.exp(-(x[:, :V1_INPUTS] @ w1 + b1)))
    old = 1 / (1 + np.exp(-(hidden @ w2 + b2)))
    assert net.outputs(x) == pytest.approx(old, abs=1e-6)


def test_the_shipped_net_was_trained_with_the_new_inputs() -> None:
    """The shipped lurc.net is encoder 2's own (not an older net read widened): it has
    weight on the eight inputs version 2 added."""
    net = Net.load(ROOT / "engine/evaluator/lurc.net")
    assert "widened_from" not in net.header and net.header["encoder"] == 2
    assert (np.abs(net.w1[V1_INPUTS:]).sum(axis=1) > 0).all()  # widened: exactly 0
