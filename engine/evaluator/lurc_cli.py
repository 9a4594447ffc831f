"""``python -m engine duel --variant lurc`` and ``python -m engine luck-share``
(docs/analysis_lurc.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import refused_with_2
from engine.evaluator.luck_share import luck_share
from engine.evaluator.lurc_duel import lurc_duel
from engine.evaluator.lurc_players import lurc_player_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


@refused_with_2
def cmd_lurc_duel(a: str, b: str, games: int, seed: int, out: TextIO) -> int:
    """Two Lurč players (random, heuristic, net, net:FILE) in duplicate-dice pairs."""
    first, second = lurc_player_named(a), lurc_player_named(b)
    print(lurc_duel(first, second, games, seed).line(a, b), file=out)
    return 0


def cmd_luck_share(variant: str, games: int, seed: int, out: TextIO,
                   pairs: str | None = None, part: str = "0/1") -> int:  # fmt: skip
    """R² of self-play results on the luck difference, one line."""
    k, _, m = part.partition("/")
    if not (k.isdigit() and m.isdigit() and 0 <= int(k) < int(m)):
        print(f"--part is K/M with 0 <= K < M, not {part!r}", file=sys.stderr)
        return 2
    found = luck_share(variant, games, seed, Path(pairs) if pairs else None, (int(k), int(m)))
    print(found.line(variant), file=out, flush=True)
    return 0
