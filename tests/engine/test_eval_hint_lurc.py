"""``python -m engine eval|hint`` for Lurč (docs/analysis_lurc.md): the values are the
analysis's (a Lurč net's equity 2p - 1, no mars: Z11), a paš played in full is valued with
the mover to roll again (Z7), a houšek without its paš ranks the plays of all six paš
choices (Z8) and with ``[2, 1, n, n]`` those of that paš only; every play hinted is a
legal turn."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Position
from engine.evaluator.advice import evaluate_position, evaluate_roll, hint_plays
from engine.evaluator.lurc_advice import DEEP
from engine.evaluator.lurc_play import position_value
from engine.evaluator.net import load_net, net_path
from engine.movegen import legal_turns

ROOT = Path(__file__).resolve().parents[2]
# black to move after the placement (Z3), a hit checker of black's waiting (Z5)
MIDDLE = {
    "variant": "lurc", "turn": "black",
    "white": {"21": 5, "20": 3, "19": 3, "17": 2, "15": 1, "11": 1},
    "black": {"23": 2, "21": 6, "19": 5, "8": 1, "bar": 1},
}  # fmt: skip


def run(*args: str, stdin: str) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def middle() -> Position:
    return Position.from_json(MIDDLE)


def test_eval_and_hint_answer_lurc_lines_and_refuse_bad_dice() -> None:
    start = Position.start("lurc").to_json()
    queries = [start, {"position": MIDDLE, "dice": [3, 3]}, {"position": MIDDLE, "dice": [2]}]
    got = run("eval", stdin="\n".join(json.dumps(q) for q in queries) + "\n")
    assert -1 < float(got[0]["equity"]) < 1  # type: ignore[arg-type]
    assert got[0]["win_mars"] == got[0]["lose_mars"] == 0.0  # no mars in Lurč (Z11)
    assert got[0]["equity"] == pytest.approx(2 * float(got[0]["win"]) - 1, abs=2e-4)  # type: ignore[arg-type]
    assert got[1]["dice"] == [3, 3] and "error" in got[2]
    hints = run("hint", stdin=json.dumps({"position": MIDDLE, "dice": [1, 2]}) + "\n")
    plays = hints[0]["plays"]
    assert isinstance(plays, list) and plays and all(p["pas"] for p in plays)
    assert plays[0]["diff"] == 0.0 and all(p["diff"] <= 0 for p in plays)
    assert run("eval", stdin=json.dumps(Position.start("short").to_json()))[0]["error"]


def test_a_housek_ranks_every_pas_and_a_fixed_pas_only_its_own(middle: Position) -> None:
    free = hint_plays(middle, [1, 2])
    # a paš n-n plays the faces n and 7 - n: paš 6-6 reaches the ends of paš 1-1
    assert all(h.pas is not None for h in free)
    assert {min(h.pas[0], 7 - h.pas[0]) for h in free if h.pas} == {1, 2, 3}
    fixed = {n: hint_plays(middle, [2, 1, n, n]) for n in range(1, 7)}
    for n, hints in fixed.items():
        assert {h.pas for h in hints} == {(n, n)}
    best = max(hints[0].chances.equity for hints in fixed.values())
    assert free[0].chances.equity == pytest.approx(best)
    assert evaluate_roll(middle, [1, 2]).equity == pytest.approx(best)


def test_every_hinted_play_is_legal_and_a_full_pas_rolls_again(middle: Position) -> None:
    net = load_net(net_path("lurc"))
    for dice in ([3, 3], [2, 1, 4, 4], [6, 4]):
        legal = {t.position for t in legal_turns(middle, dice)}
        hints = hint_plays(middle, dice)
        assert hints and all(h.position in legal for h in hints)
        for h in hints:
            assert h.again == (h.position.turn == middle.turn)
            if h.again:  # valued with the mover to roll again (Z7)
                me, opp = h.position.board(middle.turn), h.position.board(1 - middle.turn)
                assert h.chances.equity == pytest.approx(position_value(net, me, opp), abs=1e-6)
    assert any(h.again for h in hint_plays(middle, [3, 3]))


def test_one_ply_looks_at_the_best_plays_again(middle: Position) -> None:
    deep = hint_plays(middle, [3, 3], ply=1)
    assert 0 < len(deep) <= DEEP
    assert deep[0].chances.equity == pytest.approx(evaluate_roll(middle, [3, 3], ply=1).equity)
    before = evaluate_position(middle).equity
    assert -1 < before < 1 and -1 < evaluate_position(middle, ply=1).equity < 1
