"""Analysis of long-nardy games (engine.analysis, docs/analysis.md): errors and luck by hand on
one position, forced turns, a random mover's error rate against the bot's, the bot's
answers against ``legal`` and the commands ``bot``, ``analyse`` and ``duel``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Position, legal_turns, read_records, replay
from engine.analysis import NoEvaluatorError, analyse_game, error_class
from engine.evaluator.cli import answer_bot_query
from engine.evaluator.duel import play_game
from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import equity, flip, load_net
from engine.evaluator.players import HeuristicPlayer, NetPlayer, RandomPlayer
from engine.notation import dice_text
from engine.selfplay import random_game
from engine.variants import variant_named

from .evaluator_positions import random_positions

ROOT = Path(__file__).resolve().parents[2]


def _record(white: object, black: object, seed: int) -> str:
    """A finished game between two players as record text (their turns through
    legal_turns, so the record is the engine's own)."""
    rng = random.Random(seed)
    players = (white, black)
    pos = Position.start("long")
    moves: list[str] = []
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        turns = legal_turns(pos, [a, b])
        side = pos.turn
        cands = [(t.position.board(side), t.position.board(1 - side)) for t in turns]
        turn = turns[players[side].choose(cands, side, rng)]  # type: ignore[attr-defined]
        moves.append(f"{dice_text((a, b), None)}: {turn.notation}".rstrip())
        pos = turn.position
        if pos.off(side) == 15:
            break
    lines = [f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    return '[Variant "long"]\n\n' + "\n".join(lines) + "\n"


def _hand_equity(net: object, pos: Position) -> float:
    """The net's equity of ``pos`` for the side that just moved (the other to move)."""
    side = 1 - pos.turn
    me, opp = pos.board(side), pos.board(1 - side)
    if me[0] == 15:
        return 2.0 if opp[0] == 0 else 1.0
    out = net.outputs(encode(as_boards([(opp, me)])))  # type: ignore[attr-defined]
    return float(equity(flip(out))[0])


def test_luck_and_error_of_a_turn_by_hand() -> None:
    """Luck = the best equity for the roll rolled - the mean over the 36 rolls; error =
    the best equity for the roll - the played one's, each computed here from the net and
    legal_turns over all 36 ordered rolls, on the game's third turn."""
    record = '[Variant "long"]\n\n1. 62: 24/18/16 51: 24/19/18\n2. 43: 24/20/17\n'
    analysis = analyse_game(record)
    turn = analysis.turns[2]
    assert (turn.side, turn.dice, turn.played) == (0, (4, 3), "24/20/17")
    net = load_net()
    before = replay(read_records(record)[0]).played[2].before
    best = {}
    for a in range(1, 7):
        for b in range(1, 7):
            best[a, b] = max(_hand_equity(net, t.position) for t in legal_turns(before, [a, b]))
    mean = sum(best.values()) / 36
    assert turn.luck_mp == pytest.approx(1000 * (best[4, 3] - mean), abs=1)
    assert turn.equity_before_mp == pytest.approx(1000 * mean, abs=1)
    played = replay(read_records(record)[0]).played[2].after
    assert turn.error_mp == pytest.approx(1000 * (best[4, 3] - _hand_equity(net, played)), abs=1)
    assert turn.equity_after_mp == pytest.approx(1000 * _hand_equity(net, played), abs=1)


def test_forced_turns_have_no_error() -> None:
    """The opening 6-6 has one legal end (L4.2: 24/18(2)); so do many bear-offs."""
    record = '[Variant "long"]\n\n1. 66: 24/18(2) 66: 24/18(2)\n'
    analysis = analyse_game(record)
    assert [t.forced for t in analysis.turns] == [True, True]
    assert [t.error_mp for t in analysis.turns] == [0, 0]
    assert analysis.white.unforced == 0 and analysis.white.error_rate == 0.0
    for t in analyse_game(random_game("long", random.Random(4))).turns:
        if t.forced:
            assert t.error_mp == 0 and t.best == t.played


def test_a_random_mover_errs_far_more_than_the_net() -> None:
    """Five games of the net against a random mover: in each the random side errs far
    more, with marked errors; over the five its error rate is far above gnubg's 40 mp
    and it has dozens of marked errors (one game alone can be short on real choices:
    36 to 152 mp a game with the 50k net; 4 to 10 marked errors a game with the net
    of 2026-12-07, 34 in all)."""
    net = load_net()
    total, unforced, marked = 0.0, 0, 0
    for seed in range(7, 12):
        analysis = analyse_game(_record(NetPlayer(net), RandomPlayer(), seed=seed))
        net_side, random_side = analysis.white, analysis.black
        assert net_side.unforced > 10 and random_side.unforced > 10
        assert random_side.error_rate > 3 * net_side.error_rate + 20, seed
        marks = random_side.doubtful + random_side.bad + random_side.very_bad
        assert marks >= 3, seed
        total += random_side.error_rate * random_side.unforced
        unforced += random_side.unforced
        marked += marks
    assert total / unforced > 50
    assert marked >= 25


def test_errors_are_classed_by_the_thresholds() -> None:
    assert [error_class(e) for e in (0, 39, 40, 79, 80, 159, 160, 900)] == [
        None, None, "doubtful", "doubtful", "bad", "bad", "very_bad", "very_bad",
    ]  # fmt: skip


def test_variants_without_an_evaluator_say_so() -> None:
    """Short backgammon declares no evaluator (docs/analysis.md: nothing offers analysis
    where there is none); Lurč declares its own (docs/analysis_lurc.md)."""
    assert variant_named("long").evaluator == "long"
    assert variant_named("short").evaluator is None
    assert variant_named("lurc").evaluator == "lurc"
    with pytest.raises(NoEvaluatorError) as caught:
        analyse_game(random_game("short", random.Random(1)))
    assert caught.value.code == "no-evaluator"
    assert "short backgammon has no evaluator" in str(caught.value)


def test_the_bot_never_answers_an_illegal_turn() -> None:
    """On 2,000 positions at the 0-ply levels and 20 at the strongest: every answer is
    one of legal's turns for the query."""
    rng = random.Random(5)
    checked = 0
    for i, (pos, roll) in enumerate(random_positions(2020, 11)):
        level = "strongest" if i < 20 else ("beginner", "advanced")[i % 2]
        line = json.dumps({"position": pos.to_json(), "dice": list(roll)})
        answer = answer_bot_query(line, level, rng)
        legal = [{"moves": t.notation, "position": t.position.to_json()}
                 for t in legal_turns(pos, list(roll))]  # fmt: skip
        assert answer in legal, (line, answer)
        checked += 1
    assert checked == 2020


def test_the_strongest_level_beats_a_random_mover_on_a_few_games() -> None:
    net = load_net()
    strong = NetPlayer(net, ply=1)
    results = [play_game(strong, RandomPlayer(), random.Random(s), random.Random(s + 99))
               for s in range(2)]  # fmt: skip
    assert all(r > 0 for r in results)


HOSTILE = [
    "not json",
    "[]",
    '{"position": 5, "dice": [6, 5]}',
    '{"position": {"variant": "long"}, "dice": [7, 1]}',
    '{"position": {"variant": "long"}}',
    '{"position": {"variant": "short"}, "dice": [6, 5]}',
    '{"position": {"variant": "long"}, "dice": [6, 5], "extra": 1}',
    '{"position": {"variant": "long", "white": {"off": 15}}, "dice": [6, 5]}',
    "[" * 100_000,
]


def test_the_bot_command_answers_hostile_lines_with_an_error_line() -> None:
    good = json.dumps({"position": Position.start("long").to_json(), "dice": [6, 5]})
    stdin = "\n".join([*HOSTILE, good]) + "\n"
    done = subprocess.run([sys.executable, "-m", "engine", "bot", "--level", "advanced"],
                          cwd=ROOT, input=stdin, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(lines) == len(HOSTILE) + 1
    assert all(set(x) == {"error"} and x["error"] for x in lines[:-1])
    assert "has no evaluator" in lines[5]["error"]
    assert lines[-1] == {"moves": "24/18/13", "position": next(
        t.position.to_json() for t in legal_turns(Position.start("long"), [6, 5]))}  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["position", "dice", "rules", "variant", "white", "black", "turn", "x"]),
        inner, max_size=4),
    max_leaves=12).map(json.dumps)))  # fmt: skip
def test_any_line_gets_a_turn_or_an_error(line: str) -> None:
    answer = answer_bot_query(line, "advanced", random.Random(1))
    assert set(answer) in ({"error"}, {"moves", "position"})


def test_the_analyse_command_prints_one_line_a_game(tmp_path: Path) -> None:
    rng = random.Random(8)
    path = tmp_path / "two.nrd"
    path.write_text(random_game("long", rng) + "\n" + random_game("long", rng), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine", "analyse", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    games = [json.loads(x) for x in done.stdout.splitlines()]
    assert [g["game"] for g in games] == [1, 2]
    for g in games:
        assert set(g) == {"game", "white", "black", "turns"}
        assert set(g["white"]) == {"error_rate", "unforced", "errors", "luck", "luck_rate"}
        assert set(g["white"]["errors"]) == {"doubtful", "bad", "very_bad"}
        turn = g["turns"][0]
        assert set(turn) == {"turn", "side", "dice", "played", "best", "error", "luck"}
        assert turn["side"] == "white" and turn["turn"] == 1
        assert sum(t["luck"] for t in g["turns"] if t["side"] == "black") == g["black"]["luck"]


def test_the_duel_command_prints_the_rate_and_its_interval() -> None:
    done = subprocess.run([sys.executable, "-m", "engine", "duel", "heuristic", "random",
                           "--games", "4", "--seed", "3"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("heuristic vs random: 4 games, heuristic won ")
    assert "95 % CI" in done.stdout and "points per game" in done.stdout


def test_the_heuristic_beats_a_random_mover() -> None:
    wins = [play_game(HeuristicPlayer(), RandomPlayer(), random.Random(s), random.Random(s))
            for s in range(4)]  # fmt: skip
    assert sum(w > 0 for w in wins) >= 3
    assert np.isfinite(wins).all()
