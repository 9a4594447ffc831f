"""A turn entered step by step without the roll's legal ends (engine/turnsteps.py): when
some play uses every die, the whole plays are the legal turns (RULES Z10, L6) and the
ends are not listed; the answers are those given with the ends listed, and a houšek's
crowded paš (Z8: 243,496 ends, half a minute to list) is answered at once."""

from __future__ import annotations

import random
import time
from pathlib import Path

from engine import legal_turns, read_records, replay
from engine.errors import EngineError
from engine.position import Position
from engine.selfplay import random_game
from engine.turnsteps import turn_steps
from engine.variants import START

CROWDED = Path(__file__).parents[2] / "fixtures" / "lurc" / "crowded_game.txt"


def _positions(games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        done = replay(read_records(random_game("lurc", rng))[0], check_result=False)
        out.extend(p.before for p in done.played if p.action.kind == "turn")
    return out


def test_the_answers_without_the_ends_are_those_with_them() -> None:
    rng = random.Random(11)
    checked = 0
    for pos in rng.sample(_positions(3, 4), 60):
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        if sorted(dice) == [1, 2]:
            if pos.board(pos.turn)[START]:
                continue
            dice = [2, 1, *[rng.randint(1, 6)] * 2]  # a houšek with its paš chosen
        try:
            turns = legal_turns(pos, dice)
        except EngineError:
            continue  # the game is over
        if len(turns) > 3000:
            continue
        ends = [t.position for t in turns]
        played: list[tuple[int, int]] = []
        while True:
            listed = turn_steps(pos, dice, played, ends=ends)
            alone = turn_steps(pos, dice, played)
            assert listed is not None and alone is not None
            assert (alone.next, alone.complete, alone.boards) == (
                listed.next, listed.complete, listed.boards,
            ), (pos, dice, played)  # fmt: skip
            if not listed.next:
                break
            played.append(rng.choice(listed.next))
        checked += 1
    assert checked >= 30


def test_a_housek_with_a_crowded_paš_is_answered_at_once() -> None:
    done = replay(read_records(f'[Variant "lurc"]\n\n{CROWDED.read_text()}')[0],
                  check_result=False)  # fmt: skip
    pos = done.position
    started = time.process_time()
    answer = turn_steps(pos, [2, 1, 6, 6], [])
    spent = time.process_time() - started
    assert answer is not None and answer.next and not answer.complete
    assert {a - b for a, b in answer.next} <= {1, 2}  # Z8: the 1 and the 2 first
    assert spent < 2, spent
