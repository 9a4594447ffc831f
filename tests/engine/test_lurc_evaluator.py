"""The Lurč evaluator (RULES Z1-Z11): its inputs, the net it declares, the bot's answers
checked against every legal end, the analysis of a game with a paš and a houšek, and
the training's traces for a turn that does not pass (Z7)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import legal_turns, read_records, replay
from engine.analysis import analyse_game
from engine.evaluator import lurc_encoding
from engine.evaluator.bot import bot_turn
from engine.evaluator.judge import EQUAL_MP
from engine.evaluator.luck_share import share
from engine.evaluator.lurc_gates import checked_answers, game_record
from engine.evaluator.lurc_play import beam_choices, lurc_ends
from engine.evaluator.lurc_players import LurcHeuristic, LurcRandom
from engine.evaluator.lurc_train import play_lurc_game
from engine.evaluator.net import Net, load_net, net_path
from engine.movegen import side_lists
from engine.position import Position
from engine.variants import LURC, WHITE


def test_the_variant_declares_its_net() -> None:
    assert LURC.evaluator is not None
    net = load_net(net_path(LURC.evaluator))
    assert net.variant == "lurc" and net.w2.shape[1] == 1  # Z11: one output, no mars
    assert net.games >= 100


def test_inputs_see_the_start_the_bar_and_bridges() -> None:
    """Z3 checkers to enter, Z5 hit ones, Z4 bridges: each changes the inputs."""
    start = Position.start("lurc")
    me, opp = start.board(1), start.board(0)
    x = lurc_encoding.encode(lurc_encoding.as_boards([(me, opp)]))[0]
    assert x.shape == (lurc_encoding.INPUTS,)
    assert x[72] == 1.0  # all fifteen still to enter
    assert x[lurc_encoding.V1_INPUTS - 2] == 1.0  # contact: checkers to enter meet everything
    bridge = list(me)
    bridge[26] -= 2
    bridge[20] = 2
    hit = list(me)
    hit[26] -= 1
    hit[25] = 1
    rows = lurc_encoding.encode(lurc_encoding.as_boards([(tuple(bridge), opp), (tuple(hit), opp)]))
    assert rows[0][24 + 19] == 1.0  # point 20 holds a bridge
    assert rows[1][73] > 0  # a hit checker waits
    # the routes meet twice (Z2): a mover's checker on 13 and an opponent's on 13 of its
    # own numbering (the far ends of both routes' second halves) can still meet
    far = [0] * 27
    far[1] = 15
    near = [0] * 27
    near[1] = 15
    race = lurc_encoding.encode(lurc_encoding.as_boards([(tuple(far), tuple(near))]))[0]
    assert race[lurc_encoding.V1_INPUTS - 2] == 0.0  # both on their last point: no contact left


def test_bot_answers_are_legal() -> None:
    done, illegal = checked_answers(40, 5)
    assert (done, illegal) == (40, 0)


def test_bot_plays_a_houšek_with_its_paš() -> None:
    """Z8: after 1-2 the bot picks a paš and plays it; the turn is one legal_turns
    lists for that paš, and the same side rolls again (Z7)."""
    pos = Position.from_json({"variant": "lurc", "turn": "white",
                              "white": {"20": 3, "18": 3, "15": 3, "10": 3, "8": 3},
                              "black": {"24": 5, "23": 5, "21": 5}})  # fmt: skip
    turn = bot_turn(pos, [1, 2], "advanced", random.Random(1))
    assert turn.pas is not None and turn.pas[0] == turn.pas[1]
    assert turn.position in {t.position for t in legal_turns(pos, [2, 1, *turn.pas])}
    assert len(turn.steps) == 10 and turn.position.turn == WHITE


def test_analysis_of_a_lurc_game() -> None:
    rng = random.Random(3)
    record = game_record(LurcHeuristic(), LurcRandom(), rng)
    analysis = analyse_game(record)
    played = replay(read_records(record)[0], check_result=False)
    turns = [p for p in played.played if p.action.kind == "turn"]
    assert len(analysis.turns) == len(turns)
    assert any(t.dice[0] == t.dice[1] for t in analysis.turns)  # a paš was judged
    assert all(t.error_mp >= 0 for t in analysis.turns)
    assert all(t.error_mp == 0 for t in analysis.turns if t.forced)
    # a play within EQUAL_MP of the best is one of the best, as in long nardy
    assert all(t.error_mp == 0 or t.error_mp >= EQUAL_MP for t in analysis.turns)
    assert all(t.best == t.played for t in analysis.turns if t.error_mp == 0)
    # placing (Z3) is forced; the random mover errs more than the heuristic
    assert analysis.white.error_rate > analysis.black.error_rate


def test_training_a_game_moves_the_weights() -> None:
    net = Net.fresh(8, 1, variant="lurc", alpha=0.1, **{"lambda": 0.7})
    before = net.w1.copy()
    turns = play_lurc_game(net, random.Random(2), 0.1, 0.7)
    assert 20 < turns < 1500
    assert not np.allclose(before, net.w1)


def test_lurc_ends_roll_again_only_after_a_full_paš() -> None:
    start = Position.start("lurc")
    placed = lurc_ends(start.board(1), start.board(0), 1, (6, 6))
    assert placed and not any(again for _, _, again in placed)  # Z3: no paš while placing


def test_luck_share_is_r_squared() -> None:
    assert share([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0]).r2 == pytest.approx(1.0)
    assert share([1.0, -1.0, 1.0, -1.0], [1.0, 1.0, -1.0, -1.0]).r2 == pytest.approx(0.0)


# Z8: white's houšek with two checkers on the bar and its 2 unplayable (black holds
# white's entry point for a 2): a paš 3-3 played in full after it is no extra roll
HOUSEK_TWO_BLOCKED = {
    "variant": "lurc", "turn": "white",
    "white": {"24": 2, "22": 2, "21": 2, "20": 3, "11": 2, "6": 2, "bar": 2},
    "black": {"21": 4, "19": 1, "18": 4, "14": 4, "4": 1, "3": 1},
}  # fmt: skip


def test_the_beam_gives_no_extra_roll_when_a_housek_move_is_lost() -> None:
    """The beam's ends say "rolls again" exactly when the full search does (it said so
    after every paš played in full, the houšek's lost 2 forgotten), and the bot's turn
    there passes to the opponent and is one of the legal turns."""
    pos = Position.from_json(HOUSEK_TWO_BLOCKED)
    me, opp = side_lists(pos)
    net = load_net(net_path("lurc"))
    full = {(m, o): again for m, o, again in lurc_ends(tuple(me), tuple(opp), pos.turn, (2, 1))}
    assert not any(full.values())
    beam = beam_choices(net, tuple(me), tuple(opp), pos.turn, [2, 1, 3, 3], 32)
    assert beam and all(full[(c.me, c.opp)] == c.again for c in beam)
    turn = bot_turn(pos, [1, 2], "advanced", random.Random(1))
    assert turn.pas is not None
    assert turn.position in {t.position for t in legal_turns(pos, [2, 1, *turn.pas])}
    assert turn.position.turn != pos.turn
