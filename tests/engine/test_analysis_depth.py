"""The analysis at one depth (docs/analysis.md, "Equal plays", "Luck at the depth of the
errors", "Confirmed marks"): plays within EQUAL_MP of the best are no error, the luck at
1-ply is each roll's best play valued at 1-ply, and a bad play's mark follows its
rollout."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine import Position, legal_turns, read_records, replay
from engine.analysis import CONFIRM_MOST, analyse_game, error_class
from engine.evaluator.judge import EQUAL_MP
from engine.evaluator.net import load_net
from engine.evaluator.play import ROLL_WEIGHTS, ROLLS, equities0, equities1
from engine.evaluator.players import NetPlayer
from engine.notation import dice_text


def _record(seed: int, noise: float, turns: int = 400) -> str:
    """A game (or its first ``turns`` turns) of the net with noise on its equities
    against itself, through legal_turns."""
    net = load_net()
    rng = random.Random(seed)
    player = NetPlayer(net, noise=noise)
    pos = Position.start("long")
    moves: list[str] = []
    while len(moves) < turns:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        side = pos.turn
        found = legal_turns(pos, [a, b])
        cands = [(t.position.board(side), t.position.board(1 - side)) for t in found]
        turn = found[player.choose(cands, side, rng)]
        moves.append(f"{dice_text((a, b), None)}: {turn.notation}".rstrip())
        pos = turn.position
        if pos.off(side) == 15:
            break
    lines = [f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    return '[Variant "long"]\n\n' + "\n".join(lines) + "\n"


def _boards(pos: Position, side: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return pos.board(side), pos.board(1 - side)


def test_plays_within_the_threshold_of_the_best_are_no_error() -> None:
    """Each turn's 0-ply figures by hand: a play less than EQUAL_MP below the best has
    no error and is shown as the best; one further below has its whole difference."""
    net = load_net()
    equal = unequal = 0
    for seed in (1, 2, 3):
        record = _record(seed, noise=0.01)
        played = [p for p in replay(read_records(record)[0]).played if p.action.kind == "turn"]
        for t, p in zip(analyse_game(record).turns, played, strict=True):
            if t.forced:
                continue
            cands = [_boards(x.position, t.side) for x in legal_turns(p.before, list(t.dice))]
            eq = equities0(net, cands)
            diff = 1000 * (eq.max() - eq[cands.index(_boards(p.after, t.side))])
            if 0.5 < diff < EQUAL_MP - 0.5:
                equal += 1
                assert (t.error_mp, t.best) == (0, t.played)
            elif diff >= EQUAL_MP + 0.5:
                unequal += 1
                assert t.error_mp == pytest.approx(diff, abs=1) and t.best != t.played
    assert equal and unequal  # both cases met


def test_the_luck_at_one_ply_is_each_rolls_best_play_valued_at_one_ply() -> None:
    record = '[Variant "long"]\n\n1. 62: 24/18/16 51: 24/19/18\n2. 43: 24/20/17\n'
    net = load_net()
    before = replay(read_records(record)[0]).played[2].before
    values = []
    for roll in ROLLS:
        cands = [_boards(x.position, 0) for x in legal_turns(before, list(roll))]
        best = cands[int(np.argmax(equities0(net, cands)))]
        values.append(float(equities1(net, [best], 0)[0]))
    mean = float(np.array(values) @ ROLL_WEIGHTS)
    turn = analyse_game(record, ply=1).turns[2]
    assert turn.equity_before_mp == round(1000 * mean)
    assert turn.luck_mp == pytest.approx(1000 * (values[ROLLS.index((4, 3))] - mean), abs=1)
    assert turn.luck_mp != analyse_game(record, ply=0).turns[2].luck_mp


def test_a_bad_play_keeps_its_mark_only_as_far_as_its_rollout_agrees() -> None:
    record = _record(7, noise=0.3, turns=24)
    plain = analyse_game(record)
    confirmed = analyse_game(record, confirm=True)
    bad = [t for t in plain.turns if error_class(t.error_mp) in ("bad", "very_bad")]
    assert bad, "the noisy player makes bad plays"
    # only the largest errors are rolled out (CONFIRM_MOST of them): no smaller bad play is
    # confirmed while a larger one is not
    worst = sorted(bad, key=lambda t: -t.error_mp)[:CONFIRM_MOST]
    assert len(bad) > CONFIRM_MOST or worst == sorted(bad, key=lambda t: -t.error_mp)
    for t, c in zip(plain.turns, confirmed.turns, strict=True):
        assert (c.error_mp, c.luck_mp, c.best) == (t.error_mp, t.luck_mp, t.best)
        if t in worst:
            assert c.rollout_mp is not None and c.rollout_mp >= 0
            assert c.mark == error_class(min(t.error_mp, c.rollout_mp))
        else:
            assert c.rollout_mp is None and c.mark == t.mark == error_class(t.error_mp)
    for side in (0, 1):
        marks = [c.mark for c in confirmed.turns if c.side == side and not c.forced]
        summary = confirmed.side(side)
        assert (summary.bad, summary.very_bad) == (marks.count("bad"), marks.count("very_bad"))
    again = analyse_game(record, confirm=True)
    assert [t.rollout_mp for t in again.turns] == [t.rollout_mp for t in confirmed.turns]
