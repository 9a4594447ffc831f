"""Property tests (hypothesis) over random legal games of long nardy and short
backgammon: they verify, their canonical form is stable, checkers are conserved, and
the written-turn verifier agrees with the legal-turn generator (RULES L6, S5)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    IllegalTurnError,
    Position,
    Rules,
    format_text,
    legal_turns,
    play,
    read_records,
    replay,
    verify_text,
    write_steps,
)
from engine.selfplay import random_game
from engine.variants import BAR, CHECKERS, OFF, START

VARIANTS = st.sampled_from(["long", "short"])
RULES = st.builds(
    Rules,
    mars=st.booleans(),
    last_roll=st.booleans(),
    block_check=st.sampled_from(["turn-end", "every-step"]),
    block_ahead=st.sampled_from(["anywhere", "in-home"]),
)
# derandomize: CI runs the same examples every time (a failure is reproducible as it is)
FAST = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _game(variant: str, seed: int, rules: Rules, resign: bool = False) -> str:
    return random_game(variant, random.Random(seed), rules, resign_chance=0.01 if resign else 0)


@FAST
@given(VARIANTS, st.integers(0, 10**9), RULES, st.booleans())
def test_random_legal_games_verify(variant, seed, rules, resign):
    results = verify_text(_game(variant, seed, rules, resign))
    assert len(results) == 1
    result = results[0]
    assert getattr(result, "error", None) is None, result
    assert result.outcome is not None  # type: ignore[union-attr]


@FAST
@given(VARIANTS, st.integers(0, 10**9), RULES)
def test_canonical_round_trip_is_stable(variant, seed, rules):
    text = _game(variant, seed, rules)
    once = format_text(text)
    assert once == text  # the generator writes canonically already
    assert format_text(once) == once
    # a looser spelling of the same game (6-4 dice, side letters, extra spaces and
    # line breaks) formats to the same text
    loose = once.replace(": ", ":\n  ").replace("\n1. ", "\n1.  ")
    assert format_text(loose) == once


@FAST
@given(VARIANTS, st.integers(0, 10**9))
def test_fifteen_checkers_a_side_are_conserved(variant, seed):
    result = replay(read_records(_game(variant, seed, Rules()))[0])
    for pos in result.positions:
        for side in (0, 1):
            board = pos.board(side)
            assert sum(board[OFF : START + 1]) == CHECKERS
            assert min(board) >= 0
        if variant == "long":
            assert pos.white[BAR] == pos.black[BAR] == 0  # L3: no hitting


def _positions(variant: str, seed: int) -> list[Position]:
    result = replay(read_records(_game(variant, seed, Rules()))[0])
    return [p.before for p in result.played]


@FAST
@given(VARIANTS, st.integers(0, 10**9), st.integers(1, 6), st.integers(1, 6), st.data())
def test_every_listed_legal_turn_verifies(variant, seed, a, b, data):
    positions = _positions(variant, seed)
    pos = data.draw(st.sampled_from(positions))
    turns = legal_turns(pos, [a, b])
    assert turns, "there is always at least the empty turn"
    assert len({t.position for t in turns}) == len(turns)  # distinct end positions
    roll = f"{max(a, b)}{min(a, b)}: "
    for turn in turns:
        assert play(pos, roll + turn.notation).position == turn.position
        assert write_steps(turn.steps) == turn.notation


@FAST
@given(VARIANTS, st.integers(0, 10**9), st.integers(1, 6), st.integers(1, 6), st.data())
def test_a_shortened_play_is_refused_unless_it_ends_where_a_legal_play_does(
    variant, seed, a, b, data
):
    """L6 must-play: dropping the last step of a legal play is refused, except where
    the shorter play ends in a position that is itself a legal end (a wasted pip in a
    bear-off)."""
    pos = data.draw(st.sampled_from(_positions(variant, seed)))
    turns = legal_turns(pos, [a, b])
    ends = {t.position for t in turns}
    roll = f"{max(a, b)}{min(a, b)}: "
    for turn in turns:
        if not turn.steps:
            continue
        shorter = write_steps(turn.steps[:-1])
        try:
            got = play(pos, roll + shorter).position
        except IllegalTurnError:
            continue
        assert got in ends


@FAST
@given(st.integers(0, 10**9), st.integers(1, 6), st.integers(1, 6), st.data())
def test_each_single_step_is_legal_exactly_when_some_legal_play_starts_with_it(seed, a, b, data):
    """Cross-check of the two paths of the verifier: a one-step play is accepted only
    when it ends where a legal play ends (with one die, or with more when a bear-off
    wastes pips: 3/off with 3-1 ends where 3/2/off does) (L6)."""
    variant = data.draw(VARIANTS)
    pos = data.draw(st.sampled_from(_positions(variant, seed)))
    turns = legal_turns(pos, [a, b])
    roll = f"{max(a, b)}{min(a, b)}: "
    ends = {t.position for t in turns}
    one_step_ends = {t.position for t in turns if len(t.steps) == 1}
    for frm in [*range(24, 0, -1), BAR]:
        for die in {a, b}:
            to = frm - die if frm != BAR else 25 - die
            text = f"{'bar' if frm == BAR else frm}/{'off' if to <= 0 else to}"
            try:
                got = play(pos, roll + text).position
            except (IllegalTurnError, ValueError):
                continue
            assert got in ends
            if got not in one_step_ends:  # only a wasted-pip bear-off ends like a longer play
                assert text.endswith("/off")
