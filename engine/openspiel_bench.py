"""OpenSpiel's backgammon against our move generator on the same short-backgammon positions.

Bench only: ``pyspiel`` (the optional ``open-spiel`` package, ``make bench-openspiel``) is
imported lazily, and :func:`sample_positions` returns ``None`` when it is missing.

OpenSpiel's conventions (open_spiel/games/backgammon/backgammon.cc): player 0 is ``x``,
here white; player 1 is ``o``, here black. ``state.board(player, pos)`` counts a player's
checkers on the absolute field ``pos`` 0..23 (100 is the bar): x moves 0 -> 23, so white's
point p is field 24 - p; o moves 23 -> 0, so black's point p is field p - 1 (white p and
black 25 - p are the same field). Borne-off checkers are the ones not on the board or
bar. The dice are the last two values of ``observation_tensor``.

A double is two OpenSpiel decisions of two checker moves each (the second an "extra
turn"), so ``legal_actions()`` at a double lists half-turns, not whole plays, and the
first half applies "play as many dice as possible" to its own two dice only (expanding
both halves matched our plays on 30,000 random doubles all the same). Timing half-turns
against whole turns would be unfair, so doubles are skipped: only the 15 non-double rolls
(5/6 of all rolls) are sampled.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.movegen import legal_turns
from engine.position import Board, Position
from engine.variants import BAR, CHECKERS, SIZE, WHITE

Sample = tuple[Any, Position, list[int]]

_BAR_FIELD = 100  # OpenSpiel's kBarPos
_DICE = slice(198, 200)  # the dice in observation_tensor (kStateEncodingSize 200)


def _pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel


def _side(state: Any, player: int) -> Board:
    """One player's checkers as our board (own numbering, 0 = off, 25 = bar)."""
    board = [0] * SIZE
    for p in range(1, 25):
        board[p] = state.board(player, 24 - p if player == WHITE else p - 1)
    board[BAR] = state.board(player, _BAR_FIELD)
    board[0] = CHECKERS - sum(board)
    return tuple(board)


def boards(state: Any) -> tuple[Board, Board]:
    """White's (OpenSpiel player 0) and black's (player 1) boards of a state."""
    return _side(state, 0), _side(state, 1)


def dice(state: Any) -> list[int]:
    """The two dice of a decision node."""
    return [int(d) for d in state.observation_tensor(0)[_DICE]]


def to_position(state: Any) -> Position:
    """The short-backgammon position of a decision node, its mover to move."""
    white, black = boards(state)
    return Position("short", state.current_player(), white, black)


def sample_positions(count: int, seed: int) -> list[Sample] | None:
    """Up to ``count`` decision points (non-double rolls) of seeded random OpenSpiel
    games: a clone of each state, the equal :class:`Position` and its dice. ``None``
    when pyspiel is not installed."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    out: list[Sample] = []
    games = 0
    while len(out) < count and games < 10 * count + 10:
        games += 1
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            roll = dice(state)
            if roll[0] != roll[1]:
                out.append((state.clone(), to_position(state), roll))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def plays_openspiel(state: Any) -> set[tuple[Board, Board]]:
    """The (white, black) boards after each legal action of a decision node."""
    ends = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        ends.add(boards(child))
    return ends


def plays_ours(position: Position, roll: list[int]) -> set[tuple[Board, Board]]:
    """The (white, black) boards after each of our legal turns."""
    return {(t.position.white, t.position.black) for t in legal_turns(position, roll)}


def check_same_plays(samples: list[Sample] | None) -> int:
    """How many samples disagree: the position or the set of end positions differ."""
    bad = 0
    for state, position, roll in samples or []:
        if to_position(state) != position or plays_openspiel(state) != plays_ours(position, roll):
            bad += 1
    return bad


def _rate(samples: list[Sample], seconds: float, fn: Callable[[Sample], object]) -> float:
    """Samples handled per second by ``fn``, looping over them for ``seconds``."""
    if not samples:
        return 0.0
    done = 0
    start = time.perf_counter()
    while True:
        for sample in samples:
            fn(sample)
        done += len(samples)
        spent = time.perf_counter() - start
        if spent >= seconds:
            return done / spent


def openspiel_rate(samples: list[Sample], seconds: float) -> float:
    """Positions per second of OpenSpiel's ``state.legal_actions()``."""
    return _rate(samples, seconds, lambda s: s[0].legal_actions())


def ours_rate(samples: list[Sample], seconds: float) -> float:
    """Positions per second of our ``legal_turns(position, dice)``."""
    return _rate(samples, seconds, lambda s: legal_turns(s[1], s[2]))
