"""A turn entered step by step (engine/turnsteps.py) against the engine's judges of whole
turns: every legal turn's steps are offered one after the other and end complete; every
walk along the offered steps ends in a turn the engine plays (``play``) to one of the
roll's legal ends (RULES Z7, Z8, Z10, S5); steps no legal turn begins with are refused;
and a crowded paš is answered at once."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from engine import legal_turns, read_records, replay
from engine.errors import EngineError
from engine.movegen import Turn
from engine.position import Position
from engine.replay import play
from engine.selfplay import random_game
from engine.turnsteps import StepError, turn_steps
from engine.variants import BAR, START

CROWDED = Path(__file__).parents[2] / "fixtures" / "lurc" / "crowded.jsonl"


def _positions(variant: str, games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        done = replay(read_records(random_game(variant, rng))[0], check_result=False)
        out.extend(p.before for p in done.played if p.action.kind == "turn")
    return out


def _written(dice: list[int], movetext: str) -> str:
    if len(dice) == 4:
        return f"{dice[0]}{dice[1]}+{dice[2]}{dice[3]}: {movetext}"
    return f"{dice[0]}{dice[1]}: {movetext}"


def _walk(pos: Position, dice: list[int], ends: set[Position], rng: random.Random) -> None:
    """Follow random offered steps to the end: a whole turn, legal by ``play``."""
    played: list[tuple[int, int]] = []
    while True:
        answer = turn_steps(pos, dice, played)
        assert answer is not None
        if not answer.next or (answer.complete and rng.random() < 0.2):
            break
        played.append(rng.choice(answer.next))
    assert answer.complete
    turn = play(pos, _written(dice, answer.movetext))
    assert turn.position in ends


def _follow_each(pos: Position, dice: list[int], turns: list[Turn], rng: random.Random) -> None:
    """Each legal turn (a sample) is offered step by step and ends complete."""
    positions = [t.position for t in turns]
    for t in rng.sample(turns, min(8, len(turns))):
        played: list[tuple[int, int]] = []
        for s in t.steps:
            answer = turn_steps(pos, dice, played, ends=positions)
            assert answer is not None
            shown = (BAR if s.frm == START else s.frm, s.to)
            assert shown in answer.next, (t.notation, played)
            played.append(shown)
        answer = turn_steps(pos, dice, played, ends=positions)
        assert answer is not None and answer.complete


@pytest.mark.parametrize("variant", ["lurc", "short"])
def test_steps_agree_with_the_legal_turns(variant: str) -> None:
    rng = random.Random(5)
    positions = _positions(variant, 2, 3)
    checked = 0
    for pos in rng.sample(positions, min(25, len(positions))):
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        if variant == "lurc" and sorted(dice) == [1, 2] and not pos.board(pos.turn)[START]:
            dice = [2, 1, 4, 4]  # a houšek with its paš chosen (Z8)
        try:
            turns = legal_turns(pos, dice)
        except EngineError:
            continue  # the game is over
        if len(turns) > 3000:
            continue
        ends = {t.position for t in turns}
        _follow_each(pos, dice, turns, rng)
        for _ in range(3):
            _walk(pos, dice, ends, rng)
        checked += 1
    assert checked >= 15


def test_a_houšek_plays_its_1_and_2_first() -> None:
    """Z8: the paš moves follow the 1 and the 2; none is offered before them."""
    rng = random.Random(2)
    for pos in _positions("lurc", 2, 9):
        if pos.board(pos.turn)[START]:
            continue
        turns = legal_turns(pos, [2, 1, 6, 6])
        if not turns or any(len(t.steps) < 10 for t in turns):
            continue  # the whole houšek is played in each legal turn
        answer = turn_steps(pos, [2, 1, 6, 6], [], ends=[t.position for t in turns])
        assert answer is not None and answer.next
        assert {frm - to for frm, to in answer.next} <= {1, 2}
        _walk(pos, [2, 1, 6, 6], {t.position for t in turns}, rng)
        return
    pytest.fail("no houšek position found")


def test_a_crowded_paš_step_by_step() -> None:
    """The 29,325 ends of the crowded paš are not listed: its steps are offered, each
    answer in well under a second once the ends are known."""
    query = json.loads(CROWDED.read_text().splitlines()[0])
    pos = Position.from_json(query["position"])
    turns = legal_turns(pos, query["dice"])
    ends = [t.position for t in turns]
    rng = random.Random(1)
    played: list[tuple[int, int]] = []
    slowest = 0.0
    while True:
        started = time.process_time()
        answer = turn_steps(pos, query["dice"], played, ends=ends)
        slowest = max(slowest, time.process_time() - started)
        assert answer is not None
        if not answer.next:
            break
        assert len(answer.next) <= 30
        played.append(rng.choice(answer.next))
    assert answer.complete and len(played) == 8  # Z7: all eight moves
    assert play(pos, _written(query["dice"], answer.movetext)).position in set(ends)
    assert slowest < 0.5


@pytest.mark.parametrize(
    ("played", "code"),
    [
        ([(20, 16)], "steps-illegal"),  # a 4 with a paš of 5-5 and 2-2
        ([(99, 3)], "steps-illegal"),
        ([(-1, 0)], "steps-illegal"),
        ([(20, 15), (20, 15)], "steps-illegal"),  # one checker on 20
    ],
)
def test_steps_no_turn_begins_with_are_refused(played: list[tuple[int, int]], code: str) -> None:
    query = json.loads(CROWDED.read_text().splitlines()[0])
    pos = Position.from_json(query["position"])
    with pytest.raises(StepError) as err:
        turn_steps(pos, query["dice"], played)
    assert err.value.code == code


def test_a_houšek_without_its_paš_is_refused() -> None:
    pos = Position.from_json(
        {"variant": "lurc", "turn": "white", "white": {"20": 5, "13": 10}, "black": {"1": 15}}
    )
    with pytest.raises(StepError) as err:
        turn_steps(pos, [2, 1], [])
    assert err.value.code == "steps-pas-first"
