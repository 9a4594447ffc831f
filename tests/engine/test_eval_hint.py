"""``python -m engine eval|hint`` as a user runs them (docs/analysis.md): JSON lines of
positions (NOTATION.md section 2) or queries on standard input, one answer line each,
an ``{"error": ...}`` line for a line that is not one, never a traceback. Also the
training log's clocks (CPU apart from wall)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.evaluator.net import Net
from engine.evaluator.train import train

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def pos(white: dict[str, int], black: dict[str, int], turn: str = "white") -> dict[str, object]:
    return {"variant": "long", "turn": turn, "white": white, "black": black}


SIX_VS_ONE = pos({"6": 2}, {"1": 2})  # 2 on my 6-point against 2 on the opponent's 1-point
ONE_VS_SIX = pos({"1": 1}, {"6": 1})


def lines(done: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_eval_gives_the_chances_before_the_roll_of_the_issues_examples() -> None:
    """L7-L8: 2 on the 6-point lose unless 6-6, 5-5, 4-4 or 3-3 (equity -0.778); a last
    checker on the 1-point against one on the 6-point is a sure win. A position line and
    a query line are read alike; black to move is judged for black."""
    queries = [SIX_VS_ONE, {"position": ONE_VS_SIX}, pos({"1": 2}, {"6": 2}, turn="black")]
    got = lines(run("eval", stdin="\n".join(json.dumps(q) for q in queries) + "\n"))
    assert got[0]["equity"] == pytest.approx(-0.7778, abs=1e-4)
    assert got[0]["win"] == pytest.approx(4 / 36, abs=1e-4)
    assert (got[1]["win"], got[1]["equity"], got[1]["lose_mars"]) == (1.0, 1.0, 0.0)
    assert got[2]["equity"] == pytest.approx(-0.7778, abs=1e-4)


def test_eval_with_dice_answers_for_that_rolls_best_play() -> None:
    both = [{"position": SIX_VS_ONE, "dice": [6, 6]}, {"position": SIX_VS_ONE, "dice": [2, 1]}]
    got = lines(run("eval", stdin="\n".join(json.dumps(q) for q in both)))
    # 6-6 bears both off; the opponent has borne 13 off: an oin (L8)...
    assert (got[0]["win"], got[0]["win_mars"], got[0]["equity"]) == (1.0, 0.0, 1.0)
    assert got[1]["equity"] == -1.0  # ...and after 2-1 the opponent's 2 go off surely


def test_eval_scores_as_the_rules_say() -> None:
    """15 on the 6-point against a last checker on the 1-point: a mars lost unless one
    goes off at once, 19 rolls of 36 (L7, L8); with ``mars = off`` a loss is 1 point."""
    lone = pos({"6": 15}, {"1": 1})
    queries = [lone, {"position": lone, "rules": {"mars": "off"}}]
    got = lines(run("eval", stdin="\n".join(json.dumps(q) for q in queries) + "\n"))
    assert got[0]["lose_mars"] == pytest.approx(19 / 36, abs=1e-4)
    assert got[0]["equity"] == pytest.approx(-1 - 19 / 36, abs=1e-4)
    assert (got[1]["lose_mars"], got[1]["equity"]) == (0.0, -1.0)


def test_hint_ranks_the_plays_with_their_difference_from_the_best() -> None:
    query = {"position": pos({"6": 1, "4": 1, "2": 1}, {"1": 1, "5": 2}), "dice": [6, 2]}
    got = lines(run("hint", stdin=json.dumps(query) + "\n"))[0]
    plays = got["plays"]
    assert isinstance(plays, list) and len(plays) > 1
    equities = [p["equity"] for p in plays]
    assert equities == sorted(equities, reverse=True)
    assert plays[0]["diff"] == 0.0
    assert all(p["diff"] == pytest.approx(p["equity"] - equities[0], abs=2e-4) for p in plays)
    assert {"moves", "win", "win_mars", "lose_mars"} <= set(plays[0])


def test_hint_at_1_ply_on_the_second_turn() -> None:
    """At 1-ply too the plays come ranked; the opening 6-5 has one (L4.1: one checker
    leaves the head)."""
    second = {"position": pos({"24": 14, "13": 1}, {"24": 14, "13": 1}), "dice": [3, 1]}
    opening = {"position": pos({"24": 15}, {"24": 15}), "dice": [6, 5]}
    stdin = json.dumps(second) + "\n" + json.dumps(opening) + "\n"
    got = lines(run("hint", "--ply", "1", stdin=stdin))
    assert got[0]["ply"] == 1
    plays, forced = got[0]["plays"], got[1]["plays"]
    assert isinstance(plays, list) and isinstance(forced, list)
    equities = [p["equity"] for p in plays]
    assert len(equities) > 2 and equities == sorted(equities, reverse=True)
    assert [p["moves"] for p in forced] == ["24/18/13"]


HOSTILE = [
    "not json",
    "[]",
    "1e999",
    "[" * 100000,
    json.dumps({"position": {"variant": "short"}}),
    json.dumps({"position": {"variant": "long"}, "dice": [7, 1]}),
    json.dumps({"position": {"variant": "long"}, "dice": "64"}),
    json.dumps({"position": {"variant": "long"}, "bogus": 1}),
    json.dumps({"dice": [6, 5]}),
    json.dumps(pos({}, {"1": 3})),  # white has borne everything off: the game is over
    json.dumps(pos({"1": 16}, {"1": 1})),
    json.dumps({"position": SIX_VS_ONE, "rules": {"mars": "sometimes"}}),
]


@pytest.mark.parametrize("command", ["eval", "hint"])
def test_hostile_lines_are_answered_with_an_error_line(command: str) -> None:
    done = run(command, stdin="\n".join(HOSTILE) + "\n")
    got = lines(done)
    assert len(got) == len(HOSTILE)
    assert all(set(g) == {"error"} and isinstance(g["error"], str) for g in got)


def test_hint_needs_dice_and_a_short_game_has_no_evaluator_but_lurc_has() -> None:
    got = lines(run("hint", stdin=json.dumps({"position": SIX_VS_ONE}) + "\n"))
    assert "dice" in str(got[0]["error"])
    lurc = {"variant": "lurc", "white": {"start": 15}, "black": {"start": 15}}
    stdin = json.dumps({"variant": "short"}) + "\n" + json.dumps(lurc) + "\n"
    got = lines(run("eval", stdin=stdin))
    assert "no evaluator" in str(got[0]["error"])
    assert "error" not in got[1] and got[1]["win_mars"] == 0.0  # Lurč's net (Z11: no mars)


def test_training_logs_cpu_and_wall_seconds_apart(tmp_path: Path) -> None:
    """The header's "seconds" are CPU seconds (time.process_time), the wall clock is
    "wall_seconds"; the log names each."""
    log_path = tmp_path / "log"
    with log_path.open("w") as log:
        train(str(tmp_path / "t.net"), 2, 3, resume=False, hidden=4, every=1, log=log)
    net = Net.load(tmp_path / "t.net")
    assert {"seconds", "wall_seconds"} <= set(net.header)
    text = log_path.read_text()
    assert " cpu " in text and " wall " in text
