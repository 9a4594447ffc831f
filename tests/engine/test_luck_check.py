"""``python -m engine luck-check`` (engine/evaluator/consistency.py, docs/analysis.md
"Luck against results"): the line as a user reads it, the figure against the games'
own analyses, and ``--net`` judging with another contact net."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.analysis import analyse_game
from engine.evaluator.consistency import luck_check, selfplay_record
from engine.evaluator.net import Net, load_net
from engine.evaluator.play import ends
from engine.evaluator.players import NetPlayer
from engine.movegen import legal_turns
from engine.notation import read_records
from engine.position import Position
from engine.replay import replay

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(
    r"luck-check: (\d+) games of the net against itself \(seed (\d+)\), analysed at 0-ply: "
    r"correlation of start \+ luck with the result (-?[\d.]+), mean \|residual\| ([\d.]+) points"
)


def luck_check_cli(*args: str) -> re.Match[str]:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "luck-check", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    found = LINE.fullmatch(done.stdout.strip())
    assert found, done.stdout
    return found


def test_the_figure_is_the_correlation_of_start_plus_luck_with_the_points() -> None:
    net = load_net()
    x, y = [], []
    for g in range(4):
        record, points = selfplay_record(net, 7 * 1_000_003 + g)
        game = read_records(record)[0]
        done = replay(game, check_result=False)
        assert done.error is None  # a legal game of the engine's rules
        assert done.position is not None
        winner_off = done.position.off(0 if points > 0 else 1)
        assert winner_off == 15 and abs(points) in (1, 2)  # L8: an oin or a mars
        a = analyse_game(record, net=net)
        x.append((a.turns[0].equity_before_mp + a.white.luck - a.black.luck) / 1000)
        y.append(points)
    got = luck_check(4, 7, net=net)
    assert got.correlation == pytest.approx(np.corrcoef(x, y)[0, 1])
    assert got.residual == pytest.approx(np.mean(np.abs(np.array(y) - np.array(x))))


def test_the_command_and_another_net(tmp_path: Path) -> None:
    shipped = luck_check_cli("--games", "3", "--seed", "2")
    assert shipped.group(1, 2) == ("3", "2")
    # a net judging its own games explains most of their results
    assert float(shipped.group(3)) > 0.5
    # an untrained net plays and judges other games: another figure
    fresh = tmp_path / "fresh.net"
    Net.fresh(8, 1).save(fresh)
    other = luck_check_cli("--games", "3", "--seed", "2", "--net", str(fresh))
    assert other.group(3, 4) != shipped.group(3, 4)


def test_a_file_that_is_not_weights_is_said_so(tmp_path: Path) -> None:
    junk = tmp_path / "junk.net"
    junk.write_bytes(b"\x00not an npz")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "luck-check", "--games", "1", "--net", str(junk)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert "not a weights file of the evaluator" in done.stderr
    assert "Traceback" not in done.stderr


def test_games_played_at_1_ply_are_the_strongest_bots() -> None:
    """``--play-ply 1``: each turn of the self-play record is the 1-ply player's choice
    among the roll's ends (re-derived here turn by turn from the same dice), so the
    strongest bot can be judged at the depth it plays."""
    net = load_net()
    record, points = selfplay_record(net, 3, ply=1)
    game = read_records(record)[0]
    done = replay(game, check_result=False)
    assert done.error is None and done.position is not None
    assert done.position.off(0 if points > 0 else 1) == 15
    rng = random.Random("luck-check:3")
    deep, shallow = NetPlayer(net, ply=1), NetPlayer(net)
    pos = Position.start("long")
    differs = 0
    for action in game.actions[:16]:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        assert action.dice == (max(a, b), min(a, b))
        side = pos.turn
        me, opp = pos.board(side), pos.board(1 - side)
        cands = ends(me, opp, side, (max(a, b), min(a, b)))
        chosen = cands[deep.choose(cands, side, rng)]
        differs += chosen != cands[shallow.choose(cands, side, rng)]
        written = " ".join(m.text for m in action.moves)
        played = next(t for t in legal_turns(pos, [a, b]) if t.notation == written)
        assert (played.position.board(side), played.position.board(1 - side)) == chosen
        pos = played.position
    # the look-ahead changed some of these plays: the record is not the 0-ply game's
    assert differs or record != selfplay_record(net, 3)[0]


def test_the_command_says_the_depth_the_games_were_played_at() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "luck-check", "--games", "2", "--seed", "5",
         "--play-ply", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert re.fullmatch(
        r"luck-check: 2 games of the net against itself \(seed 5, played at 1-ply\), "
        r"analysed at 0-ply: correlation of start \+ luck with the result -?[\d.]+, "
        r"mean \|residual\| [\d.]+ points",
        done.stdout.strip(),
    ), done.stdout
