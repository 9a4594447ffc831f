"""The analysis is as fast as it can be made without changing what it says: a fixture
game analysed at 0-ply and 1-ply gives, turn by turn, the figures the code gave before
the memo of the last two turns' searches and the batched look-ahead
(fixtures/analysis/podzim-2026-3.json, written by tests/engine/analysis_speed.py from
commit f3329b1 and again when long.net was replaced on 2026-12-06; write it again so
only when the evaluator itself changes, the net or its tables). And the engine keeps
BLAS to one thread whichever of its modules is imported first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import read_records
from engine.analysis import analyse_game
from engine.evaluator.net import load_net
from engine.evaluator.play import Memo, equities1
from engine.replay import replay
from tests.engine.analysis_speed import GAME, INDEX, figures

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "fixtures" / "analysis" / "podzim-2026-3.json").read_text())


@pytest.mark.parametrize("ply", [0, 1])
def test_a_fixture_game_is_analysed_as_before(ply: int) -> None:
    record = read_records(GAME.read_text(encoding="utf-8"))[INDEX]
    got = json.loads(json.dumps(figures(analyse_game(record, ply=ply))))
    want = GOLDEN[f"ply{ply}"]
    assert len(got) == len(want) == 95
    for turn, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"turn {turn}: {g} != {w}"


def test_the_memo_keeps_two_turns_and_changes_no_value() -> None:
    """A play's 1-ply value through a memo filled by other turns equals a fresh one's;
    the memo forgets a turn two turns later."""
    net = load_net()
    game = replay(read_records(GAME.read_text(encoding="utf-8"))[INDEX], check_result=False)
    played = [p for p in game.played if p.action.dice is not None][:3]
    pairs = [(p.after.board(p.side), p.after.board(1 - p.side)) for p in played]
    memo = Memo()
    for p, pair in zip(played, pairs, strict=True):
        memo.next_turn()
        answers = memo.rolls(net, [(pair[1], pair[0], 1 - p.side)], game.rules)
        assert len(answers) == 21
        alone = equities1(net, [pair], p.side, game.rules)
        assert equities1(net, [pair], p.side, game.rules, memo).tolist() == alone.tolist()
    first = ((pairs[0][1], pairs[0][0]), 1 - played[0].side, (6, 6))
    last = ((pairs[2][1], pairs[2][0]), 1 - played[2].side, (6, 6))
    assert first not in memo.now and first not in memo.old and last in memo.now


def test_one_blas_thread_whichever_module_comes_first() -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    code = ("import sys, os; import engine; assert 'numpy' not in sys.modules; "
            "import engine.analysis; print(os.environ['OPENBLAS_NUM_THREADS'])")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"
