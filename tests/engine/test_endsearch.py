"""The breadth-first search of a roll's ends (engine/endsearch.py) against the
depth-first walk it replaced for variants without a block rule (RULES Z7, Z8, Z10, S5):
the same ends with the same number of moves, each reached by its steps, on positions of
random Lurč and short-backgammon games; and a crowded paš answered in seconds."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from engine import Rules, legal_turns, read_records, replay
from engine.endsearch import applies
from engine.movegen import (
    End,
    TurnState,
    legal_positions,
    phased_ends,
    side_lists,
    turn_state,
    walk_phased_ends,
)
from engine.position import Position
from engine.selfplay import random_game

CROWDED = Path(__file__).parents[2] / "fixtures" / "lurc" / "crowded.jsonl"


def _positions(variant: str, games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        done = replay(read_records(random_game(variant, rng))[0], check_result=False)
        out.extend(p.before for p in done.played if p.action.kind == "turn")
    return out


def _check_steps(st: TurnState, me: list[int], opp: list[int], end: End) -> None:
    """Each step of an end is a legal step where it is played, and they reach its boards."""
    me, opp = me[:], opp[:]
    for s in end.steps:
        assert st.target(me, opp, s.frm, s.die) == s.to
        assert st.move(me, opp, s.frm, s.to) == s.hit
    assert (tuple(me), tuple(opp)) == (end.me, end.opp)


def _compare(pos: Position, dice: list[int], most: int = 400) -> int:
    """Compare the two searches for each paš choice of ``dice``; how many compared
    (the walk is left out where the search finds more than ``most`` ends: it is slow)."""
    variant = pos.rules_variant
    me, opp = side_lists(pos)
    roll, choices = variant.roll_choices(dice, me)
    st = turn_state(variant, Rules(), pos.turn, roll)
    assert applies(st)
    compared = 0
    for pas in choices:
        phases, _ = variant.roll_phases(me, roll, pas)
        new = phased_ends(st, me, opp, phases)
        if len(new) > most:
            continue
        compared += 1
        old = walk_phased_ends(st, me, opp, phases)
        assert {(e.me, e.opp): len(e.steps) for e in new} == {
            (e.me, e.opp): len(e.steps) for e in old
        }
        assert len(new) == len({(e.me, e.opp) for e in new})
        for end in new:
            _check_steps(st, me, opp, end)
    return compared


@pytest.mark.parametrize("variant", ["lurc", "short"])
def test_same_ends_as_the_walk_on_random_positions(variant: str) -> None:
    rng = random.Random(34)
    positions = _positions(variant, 2, 7)
    checked = 0
    for pos in rng.sample(positions, min(50, len(positions))):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if variant == "lurc" and a == b:
            b = a % 6 + 1  # the paš: the next test
        checked += _compare(pos, [a, b])
    assert checked >= 40


def test_paš_and_houšek_ends_match_the_walk() -> None:
    """Z7, Z8: eight moves of a paš, the 1-2 then the chosen paš; positions where the
    walk is quick enough to compare (at most a few thousand ends)."""
    rng = random.Random(8)
    positions = [p for p in _positions("lurc", 3, 11) if not p.board(p.turn)[26]]
    compared = 0
    started = time.process_time()
    for pos in rng.sample(positions, 30):
        dice = rng.choice([[3, 3], [6, 6], [2, 1, 4, 4], [2, 1, 1, 1]])
        compared += _compare(pos, dice, most=150)
        if time.process_time() - started > 8:  # the walk is slow: a bounded sample
            break
    assert compared >= 5


def test_a_crowded_paš_in_seconds() -> None:
    """A paš with 29,325 distinct ends (the walk took about 3 CPU s, the search ~1)."""
    query = json.loads(CROWDED.read_text().splitlines()[0])
    pos = Position.from_json(query["position"])
    started = time.process_time()
    turns = legal_turns(pos, query["dice"])
    spent = time.process_time() - started
    assert len(turns) == 29325
    assert len({t.position for t in turns}) == 29325
    assert all(len(t.steps) == 8 and t.position.turn == pos.turn for t in turns)  # Z7
    assert spent < 6


@pytest.mark.parametrize("variant", ["lurc", "short", "long"])
def test_legal_positions_are_the_legal_turns_positions(variant: str) -> None:
    """The gate's check (engine/evaluator/lurc_gates.py) reads the ends without their
    plays: the same positions as ``legal_turns``, the side to move after included
    (a paš played in full rolls again, Z7; a houšek's [2, 1] every paš, Z8)."""
    rng = random.Random(3)
    positions = _positions(variant, 2, 5)
    rolls = [[a, b] for a in range(1, 7) for b in range(1, 7)]
    if variant == "lurc":
        rolls += [[2, 1, 4, 4], [2, 1, 6, 6]]
    checked = 0
    for pos in rng.sample(positions, min(40, len(positions))):
        dice = rng.choice(rolls)
        expected = {t.position for t in legal_turns(pos, dice)}
        assert legal_positions(pos, dice) == expected
        checked += 1
    assert checked >= 30


def test_legal_positions_of_a_crowded_paš() -> None:
    query = json.loads(CROWDED.read_text().splitlines()[0])
    pos = Position.from_json(query["position"])
    ends = legal_positions(pos, query["dice"])
    assert ends == {t.position for t in legal_turns(pos, query["dice"])}
    assert len(ends) == 29325
    assert {p.turn for p in ends} == {pos.turn}  # every end plays all eight: Z7
