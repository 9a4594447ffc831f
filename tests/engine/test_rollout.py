"""Rollouts (engine/evaluator/rollout.py), ``python -m engine rollout`` and ``benchmark`` as
a user runs them, and the benchmark's scorer (engine/evaluator/bench_positions.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.evaluator import bench_positions as bench
from engine.evaluator.net import load_net
from engine.evaluator.play import position_equity0
from engine.evaluator.rollout import first_roll, game_results, rollout_boards, summary
from engine.position import Position
from engine.variants import variant_named

from .boards import board

ROOT = Path(__file__).resolve().parents[2]
START = variant_named("long").start


# a middle game from the shipped candidates (white to move): cheap enough to roll out
MIDDLE = Position.from_json(
    json.loads(bench.CANDIDATES.read_text(encoding="utf-8").splitlines()[1])["position"]
)


def middle() -> tuple[tuple[int, ...], tuple[int, ...], int]:
    return MIDDLE.board(MIDDLE.turn), MIDDLE.board(1 - MIDDLE.turn), MIDDLE.turn


def test_a_seeded_rollout_reproduces_and_its_parts_join() -> None:
    me, opp, side = middle()
    a = rollout_boards(me, opp, side=side, games=40, seed=9, truncate=6)
    assert a == rollout_boards(me, opp, side=side, games=40, seed=9, truncate=6)
    assert a != rollout_boards(me, opp, side=side, games=40, seed=10, truncate=6)
    whole = game_results(me, opp, range(40), seed=9, side=side, truncate=6)
    parts = np.concatenate([game_results(me, opp, range(k, k + 10), seed=9, side=side,
                                         truncate=6) for k in range(0, 40, 10)])  # fmt: skip
    # the same games: only float32 rounding differs with the batch they were played in
    assert np.allclose(whole, parts, atol=1e-5)
    assert summary(whole, True, 6) == a


def test_every_block_of_36_games_rolls_each_first_roll_once() -> None:
    rolls = [first_roll(4, g) for g in range(36, 72)]
    assert sorted(rolls) == sorted((max(a, b), min(a, b)) for a in range(1, 7)
                                   for b in range(1, 7))  # fmt: skip


@pytest.mark.parametrize("reduce", [False, True])
def test_a_sure_win_rolls_out_to_exactly_one_point(reduce: bool) -> None:
    # white's last checker on its 1-point, black has borne off one: an oin on any roll (L8)
    me, opp = board({1: 1}), board({24: 14})
    r = rollout_boards(me, opp, games=72, seed=1, reduce=reduce)
    assert (r.equity, r.win, r.win_mars, r.lose_mars, r.se) == (1.0, 1.0, 0.0, 0.0, 0.0)
    # and nothing borne off by black: a mars, 2 points
    assert rollout_boards(me, board({24: 15}), games=36, seed=1, reduce=reduce).equity == 2.0


def test_a_sure_loss_seen_from_the_other_side() -> None:
    # black to move with 15 checkers left against white's one on its 1-point, which black
    # cannot stop: black's one turn, then white bears off (a mars)
    me, opp = board({24: 15}), board({1: 1})
    r = rollout_boards(me, opp, side=1, games=36, seed=2, reduce=False)
    assert (r.equity, r.win, r.lose_mars) == (-2.0, 0.0, 1.0)
    assert r.flipped().equity == 2.0


def test_the_luck_adjustment_keeps_the_mean_and_shrinks_the_error() -> None:
    me, opp, side = middle()
    plain = rollout_boards(me, opp, side=side, games=72, seed=3, truncate=4, reduce=False)
    reduced = rollout_boards(me, opp, side=side, games=72, seed=3, truncate=4, reduce=True)
    assert reduced.se < plain.se / 2
    assert abs(reduced.equity - plain.equity) < 3 * math.hypot(plain.se, reduced.se)


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_the_rollout_command_answers_every_line() -> None:
    start = json.dumps(Position.start("long").to_json())
    won = json.dumps({"variant": "long", "turn": "white", "white": {"1": 1},
                      "black": {"24": 14}})  # fmt: skip
    lines = [
        f'{{"position": {won}}}',
        f'{{"position": {start}, "dice": [6, 4], "moves": "24/18/14"}}',
        "not json",
        "[1, 2]",
        '{"position": {"variant": "short"}}',
        f'{{"position": {start}, "dice": [6, 4], "moves": "24/13"}}',
        f'{{"position": {start}, "dice": [6, 4]}}',
        f'{{"position": {start}, "dice": [9, 4], "moves": "24/14"}}',
        f'{{"position": {start}, "cube": 2}}',
        '{"position": {"variant": "long", "white": {"24": 16}}}',
        '{"position": {"variant": "long"}}',
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[" * 40,
    ]
    done = run("rollout", "--games", "36", "--seed", "2", "--truncate", "2",
               stdin="\n".join(lines) + "\n")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["equity"] == 1.0 and answers[0]["games"] == 36
    assert answers[1]["moves"] == "24/18/14" and -2 <= answers[1]["equity"] <= 2
    assert answers[1]["truncate"] == 2 and answers[1]["se"] >= 0
    assert all(set(a) == {"error"} for a in answers[2:]), answers[2:]
    assert "no evaluator" in answers[4]["error"]
    assert "over" in answers[10]["error"]


def test_a_play_that_ends_the_game_is_its_result() -> None:
    last = json.dumps({"variant": "long", "turn": "white", "white": {"2": 1},
                       "black": {"24": 15}})  # fmt: skip
    done = run("rollout", "--games", "36", stdin=f'{{"position": {last}, "dice": [3, 1], '
               '"moves": "2/off"}\n')  # fmt: skip
    answer = json.loads(done.stdout)
    assert (answer["equity"], answer["win_mars"], answer["se"]) == (2.0, 1.0, 0.0), answer


def test_the_rollout_command_refuses_bad_options() -> None:
    done = run("rollout", "--games", "1", stdin="")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_the_benchmark_scorer_on_a_small_sample(tmp_path: Path) -> None:
    net = load_net()
    lines = [json.loads(line) for line in bench.CANDIDATES.read_text().splitlines()[:4]]
    for k, line in enumerate(lines):  # rollout figures made up around the net's value
        pos = Position.from_json(line["position"])
        value = position_equity0(net, pos.board(pos.turn), pos.board(1 - pos.turn))
        line["phase"] = bench.PHASES[k % 2]
        line["rollout"] = {"equity": value + (0.1 if k % 2 else -0.3)}
    sample = tmp_path / "sample.jsonl"
    sample.write_text("".join(json.dumps(line) + "\n" for line in lines))
    figures = bench.score(bench.net_evaluator(net), sample)
    rms = round(math.sqrt((0.01 + 0.09) / 2) * 1000, 1)
    assert figures["all"] == {"positions": 4, "rms_mp": rms, "mean_mp": 100.0, "max_mp": 300.0}
    assert figures["contact"] == {"positions": 2, "rms_mp": 300.0, "mean_mp": 300.0,
                                  "max_mp": 300.0}  # fmt: skip
    assert figures["race"] == {"positions": 2, "rms_mp": 100.0, "mean_mp": -100.0,
                               "max_mp": 100.0}  # fmt: skip
    assert figures["bearoff"] == {"positions": 0}
    done = subprocess.run([sys.executable, "-m", "engine", "benchmark", "--file", str(sample)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert json.loads(done.stdout) == figures


def test_the_shipped_benchmark_lines_are_rolled_out_to_its_standard_error() -> None:
    lines = [json.loads(line) for line in bench.ROLLED.read_text().splitlines()]
    assert lines, "the benchmark holds rolled-out positions"
    for line in lines:
        pos = Position.from_json(line["position"])
        assert line["phase"] == bench.phase(pos.board(pos.turn), pos.board(1 - pos.turn))
        r = line["rollout"]
        # "se" is rounded to 0.1 mp: under the target before rounding
        assert r["se"] <= bench.SE_TARGET or r["games"] >= bench.MAX_GAMES
        # each of the four is rounded to 4 decimals: at most 0.5e-4 off, the win counted
        # twice, so the two sides may differ by 2.5e-4 (position 298 of the set: 0.3727 and
        # 0.3725)
        assert r["equity"] == pytest.approx(2 * r["win"] - 1 + r["win_mars"] - r["lose_mars"],
                                            abs=2.5e-4 + 1e-9)  # fmt: skip


def test_phases() -> None:
    assert bench.phase(START, START) == "contact"
    assert bench.phase(board({12: 15}), board({1: 15})) == "race"
    assert bench.phase(board({6: 15}), board({1: 15})) == "bearoff"


def test_a_benchmark_rollout_stops_at_the_bear_off_database() -> None:
    from engine.evaluator.bearoff import load_bearoff
    from engine.evaluator.net import equity

    pos = Position.from_json({"variant": "long", "turn": "white",
                              "white": {"6": 2, "1": 3}, "black": {"5": 4}})  # fmt: skip
    me, opp = pos.board(0), pos.board(1)
    exact = float(equity(load_bearoff().outputs([(me, opp)]))[0])
    rolled = bench.roll_out_position(pos, seed=1)
    assert (rolled["se"], rolled["games"]) == (0.0, bench.CHUNK)
    assert rolled["equity"] == pytest.approx(exact, abs=1e-4)
    # a race that reaches the bear-off is settled there: less noise than played out
    race = Position.from_json({"variant": "long", "turn": "white",
                               "white": {"8": 3, "4": 4}, "black": {"9": 3, "3": 4}})  # fmt: skip
    me, opp = race.board(0), race.board(1)
    plain = rollout_boards(me, opp, games=144, seed=4, reduce=False)
    settled = rollout_boards(me, opp, games=144, seed=4, reduce=False,
                             settle=bench.bearoff_settle)  # fmt: skip
    assert settled.se < plain.se


def test_each_rolled_out_line_names_the_net_that_played_it(tmp_path: Path) -> None:
    """The benchmark's rollouts are played by a net (``benchmark --roll N [--net FILE]``):
    each line keeps its name, so that a set rolled out by two nets says so."""
    from engine.evaluator.net import Net, load_net

    cand = {"id": 0, "source": "test", "phase": "bearoff",
            "position": {"variant": "long", "turn": "white", "white": {"6": 2, "1": 3},
                         "black": {"5": 4}}}  # fmt: skip
    candidates, out = tmp_path / "candidates.jsonl", tmp_path / "rolled.jsonl"
    candidates.write_text(json.dumps(cand) + "\n")
    other = load_net()
    other = Net(other.w1, other.b1, other.w2, other.b2, {**other.header, "distill_commit": "x1"})
    assert bench.run_rollouts(1, candidates=candidates, out=out, net=other, log=lambda _: None) == 1
    line = json.loads(out.read_text())
    assert line["player"] == f"long ({other.header['games']} games, x1)"
    assert bench.run_rollouts(1, candidates=candidates, out=out, log=lambda _: None) == 0  # resumed
    for shipped in bench.ROLLED.read_text().splitlines():
        assert json.loads(shipped)["player"].startswith("long (")
