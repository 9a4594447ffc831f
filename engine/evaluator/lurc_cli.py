"""``python -m engine duel --variant lurc`` and ``python -m engine luck-share``
(docs/analysis_lurc.md)."""

from __future__ import annotations

import sys

from engine.errors import EngineError
from engine.evaluator.luck_share import luck_share
from engine.evaluator.lurc_duel import lurc_duel
from engine.evaluator.lurc_players import lurc_player_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


def cmd_lurc_duel(a: str, b: str, games: int, seed: int, out: TextIO) -> int:
    """Two Lurč players (random, heuristic, net, net:FILE) in duplicate-dice pairs."""
    try:
        first, second = lurc_player_named(a), lurc_player_named(b)
    except EngineError as exc:
        print(exc.describe(), file=sys.stderr)
        return 2
    print(lurc_duel(first, second, games, seed).line(a, b), file=out)
    return 0


def cmd_luck_share(variant: str, games: int, seed: int, out: TextIO) -> int:
    """R² of self-play results on the luck difference, one line."""
    print(luck_share(variant, games, seed).line(variant), file=out, flush=True)
    return 0
