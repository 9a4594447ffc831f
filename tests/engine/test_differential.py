"""Differential property test (docs/architecture.md): for random legal games and for the same games
with one thing changed in the record, the three doors to the rules agree.

- ``verify`` (the fast path, no positions kept) and ``replay`` (every position kept) give
  the same verdict: the same error text, code, rule and place, the same outcome and the
  same final position.
- Every turn ``replay`` accepts ends in a position ``legal_turns`` lists for its roll,
  and the position before the first refused turn is one the accepted turns reached.
  Lurč's paš and houšek turns are left out of this check: a paš of eight moves can end
  in some 16,000 distinct positions, and listing them takes seconds (a houšek: minutes).
- ``play_written``, with its fast path (``play_without_search``, and the must-play
  check by search when a written play leaves dice unused), and the full walk of the
  written moves alone (``WrittenTurn``) accept the same turns with the same boards and
  refuse the others with the same error: the fast path is an optimisation of the one
  way to play a written turn, not a second rule set.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RecordSyntaxError, Rules, legal_turns, read_records, replay, verify
from engine.errors import IllegalTurnError
from engine.handwritten import as_players_write
from engine.movegen import turn_state
from engine.notation import Action
from engine.position import Position
from engine.selfplay import random_game
from engine.variants import variant_named
from engine.written import PlayedTurn, WrittenTurn, play_written, segments

DIFFERENTIAL = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure reproduces as it is
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
_NUMBER = re.compile(r"[0-9]+|bar|off")
_LANDING = re.compile(r"(?<=/)(?:[0-9]+|off)")  # where a move lands
_MOVE = re.compile(r"\b([0-9]+)/([0-9]+)\b(?!/)")  # a one-die move between two points


def _mutate(text: str, kind: str, where: int, value: int) -> str:
    """The record with one thing of its movetext changed: the ``where``-th number (a
    die, a point, a turn number) or landing point set to ``value``, or a move shifted
    by ``value`` points (its die unchanged: only the landing rules can refuse it)."""
    head, _, body = text.partition("\n\n")
    pattern = {"number": _NUMBER, "landing": _LANDING, "shift": _MOVE}[kind]
    found = list(pattern.finditer(body))
    if not found:
        return text
    m = found[where % len(found)]
    if kind == "shift":
        a, b = int(m.group(1)) + value, int(m.group(2)) + value
        new = f"{a}/{b}"
    else:
        new = "off" if value == 0 else "bar" if value == 25 else str(value)
    return f"{head}\n\n{body[: m.start()]}{new}{body[m.end() :]}"


def _agree(text: str) -> None:
    try:
        records = read_records(text)
    except RecordSyntaxError:
        return  # the mutation broke the syntax: there is nothing to play
    record = records[0]
    full, fast = replay(record), verify(record)
    assert (full.ok, full.outcome, full.position) == (fast.ok, fast.outcome, fast.position)
    if full.error is not None:
        assert fast.error is not None
        assert full.error.to_dict() == fast.error.to_dict()
        assert str(full.error) == str(fast.error)
    rules = Rules(last_roll=record.tag("LastRoll") == "on")
    variant = variant_named(record.variant)
    for played in full.played:
        if played.action.kind != "turn":
            continue
        dice = played.action.dice
        assert dice is not None
        phases, _ = variant.roll_phases(played.before.board(played.side), dice, played.action.pas)
        if sum(map(len, phases)) > 4:
            continue  # a paš: too many ends to list (see above)
        ends = {t.position for t in legal_turns(played.before, list(dice), rules)}
        assert played.after in ends, played.action.text
    if full.error is not None and full.played:
        assert full.position == full.played[-1].after


@DIFFERENTIAL
@given(st.sampled_from(["long", "short", "lurc"]), st.integers(0, 10**9))
def test_random_games_agree(variant: str, seed: int) -> None:
    """Z10, L6, S5: a legal random game is accepted by both paths, turn by turn."""
    text = random_game(variant, random.Random(seed), Rules())
    assert verify(read_records(text)[0]).ok
    _agree(text)


@settings(DIFFERENTIAL, max_examples=60)
@given(
    st.sampled_from(["long", "short", "lurc"]),
    st.integers(0, 10**9),
    st.sampled_from(["number", "landing", "shift"]),
    st.integers(0, 10**6),
    st.lists(st.integers(-6, 25), min_size=8, max_size=8),
)
def test_mutated_games_agree(
    variant: str, seed: int, kind: str, where: int, values: list[int]
) -> None:
    """One thing of a random game changed (a die, a point, a move shifted), eight times
    in different places: both paths give the same verdict, and what they accept the
    generator lists."""
    text = random_game(variant, random.Random(seed), Rules())
    for i, value in enumerate(values):
        _agree(_mutate(text, kind, where + 7919 * i, value))


def _played_or_refused(play: Callable[[], PlayedTurn]) -> object:
    """The boards and number of steps of a turn played, or the error refusing it."""
    try:
        turn = play()
    except IllegalTurnError as exc:
        return exc.to_dict()
    return turn.me, turn.opp, len(turn.steps)


def _one_way(before: Position, side: int, action: Action, rules: Rules) -> None:
    """``play_written`` (fast path first) and the full walk agree on one turn."""
    assert action.dice is not None
    state = turn_state(before.rules_variant, rules, side, action.dice)
    me, opp = list(before.board(side)), list(before.board(1 - side))
    phases = (
        (state.to_play,)
        if state.one_phase
        else state.variant.roll_phases(me, state.dice, action.pas)[0]
    )
    fast = _played_or_refused(lambda: play_written(state, me, opp, action.moves, action.pas))
    walked = _played_or_refused(
        lambda: WrittenTurn(state, me, opp, segments(action.moves), phases).play()
    )
    assert fast == walked, action.text
    assert (list(before.board(side)), list(before.board(1 - side))) == (me, opp)


def _fast_path_agrees(text: str) -> None:
    try:
        record = read_records(text)[0]
    except RecordSyntaxError:
        return
    rules = Rules(last_roll=record.tag("LastRoll") == "on")
    full = replay(record)
    for played in full.played:
        if played.action.kind == "turn" and not played.irregular:
            _one_way(played.before, played.side, played.action, rules)
    if full.error is None or len(full.played) >= len(record.actions):
        return
    refused = record.actions[len(full.played)]  # the turn refused, when a turn was
    if refused.kind == "turn" and full.error.to_dict().get("text") == refused.text:
        _one_way(full.position, full.position.turn, refused, rules)


def _from_the_head(text: str, where: int) -> str:
    """The record with one one-die move played from point 24 instead (the same die): in
    long nardy often a second checker off the head (L4)."""
    head, _, body = text.partition("\n\n")
    found = list(_MOVE.finditer(body))
    if not found:
        return text
    m = found[where % len(found)]
    die = int(m.group(1)) - int(m.group(2))
    return f"{head}\n\n{body[: m.start()]}24/{24 - die}{body[m.end() :]}"


@settings(DIFFERENTIAL, max_examples=40)
@given(
    st.sampled_from(["long", "short", "lurc"]),
    st.integers(0, 10**9),
    st.sampled_from(["number", "landing", "shift", "head"]),
    st.integers(0, 10**6),
    st.lists(st.integers(-6, 25), min_size=4, max_size=4),
)
def test_the_fast_path_and_the_full_walk_agree(
    variant: str, seed: int, kind: str, where: int, values: list[int]
) -> None:
    """L3-L7, S3-S5, Z8-Z10: a random game, the same game as players write it (each die
    its own move, in a random order, hits unmarked), and these records with one thing
    changed (four times, in different places): every turn is accepted or refused alike
    by both ways of playing it."""
    rng = random.Random(seed)
    text = random_game(variant, rng, Rules())
    for game in (text, as_players_write(text, rng)):
        _fast_path_agrees(game)
        for i, value in enumerate(values):
            place = where + 7919 * i
            changed = _from_the_head(game, place) if kind == "head" else None
            _fast_path_agrees(changed or _mutate(game, kind, place, value))
