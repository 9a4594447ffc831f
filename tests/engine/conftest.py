"""Shared fixtures of the engine's rule tests.

Records always start from the start position, so rules that matter late in a game
(bearing off, the end, the last roll) are reached by ``autoplay``: a fixed roll for each
side and a greedy, deterministic choice among the legal turns (most checkers off, then
fewest pips, then the smallest position as sorted JSON). The tests assert the position
that autoplay reaches before they rely on it, so a change in the engine shows up there
and not as a puzzling failure later.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine import WHITE, Position, Rules, legal_turns

Roll = tuple[int, int]


@dataclass(frozen=True)
class Played:
    """Turns written canonically (``65: 24/18/13``), white's turns numbered, and the
    position reached."""

    turns: tuple[str, ...]
    position: Position

    @property
    def movetext(self) -> str:
        lines = []
        for i in range(0, len(self.turns), 2):
            lines.append(f"{i // 2 + 1}. " + " ".join(self.turns[i : i + 2]))
        return "\n".join(lines)


def _greedy_key(turn_position: Position, side: int) -> tuple[int, int, str]:
    return (
        -turn_position.off(side),
        turn_position.pips(side),
        json.dumps(turn_position.to_json(), sort_keys=True),
    )


def _autoplay(
    variant: str,
    white: Roll,
    black: Roll,
    *,
    rules: Rules | None = None,
    stop: Callable[[Position], bool] | None = None,
    max_turns: int = 400,
) -> Played:
    rules = rules or Rules()
    pos = Position.start(variant)
    turns: list[str] = []
    while len(turns) < max_turns:
        if pos.off(0) == 15 or pos.off(1) == 15:
            break
        if stop is not None and stop(pos):
            break
        a, b = white if pos.turn == WHITE else black
        side = pos.turn
        turn = min(legal_turns(pos, [a, b], rules), key=lambda t: _greedy_key(t.position, side))
        turns.append(f"{max(a, b)}{min(a, b)}: {turn.notation}".rstrip())
        pos = turn.position
    return Played(tuple(turns), pos)


@pytest.fixture
def autoplay() -> Callable[..., Played]:
    """``autoplay("long", (6, 5), (5, 3), stop=...)``: a deterministic game."""
    return _autoplay
