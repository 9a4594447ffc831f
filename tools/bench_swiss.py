"""Time Swiss pairings of a large field late in the event.

    .venv/bin/python tools/bench_swiss.py [--players 256] [--rounds 9] [--seed 1] [--draws 0.05]

Rounds 1 .. rounds-1 are paired by ``pair_swiss_round`` itself, with random results:
a drawn series (half a point each, as in "exactly N games" series) with probability
``--draws``, else the better-ranked player wins 60% of the series; a bye is worth a point.
Draws make half-point score groups and odd groups, hence floats.

Each round's pairing time is printed; the figure to watch is the last one,
round ``rounds - 1`` (round 8 of 9 by default). The target is under one second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import FloatDirection, SwissPlayer, pair_swiss_round


@dataclass
class Entry:
    id: int
    score: Decimal = Decimal(0)
    had_bye: bool = False
    opponents: set[int] = field(default_factory=set)
    floats: list[FloatDirection | None] = field(default_factory=list)


def snapshot(entries: list[Entry]) -> list[SwissPlayer[int]]:
    return [
        SwissPlayer(e.id, e.score, e.id, e.had_bye, frozenset(e.opponents), tuple(e.floats))
        for e in entries
    ]


def play_round(entries: list[Entry], rng: random.Random, draws: float) -> tuple[float, int]:
    """Pair and play one round; return the pairing time in seconds and the floats."""
    players = snapshot(entries)
    start = time.perf_counter()
    pairing = pair_swiss_round(players)
    elapsed = time.perf_counter() - start
    by_id = {e.id: e for e in entries}
    for e in entries:
        e.floats.append(None)
    for pair in pairing.pairs:
        a, b = by_id[pair.first], by_id[pair.second]
        a.opponents.add(b.id)
        b.opponents.add(a.id)
        if pair.is_float:
            a.floats[-1], b.floats[-1] = "down", "up"
        better, worse = (a, b) if a.id < b.id else (b, a)
        if rng.random() < draws:
            a.score += Decimal("0.5")
            b.score += Decimal("0.5")
        else:
            (better if rng.random() < 0.6 else worse).score += 1
    if pairing.bye is not None:
        by_id[pairing.bye].had_bye = True
        by_id[pairing.bye].score += 1
    return elapsed, pairing.floats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draws", type=float, default=0.05)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    entries = [Entry(i) for i in range(1, args.players + 1)]
    last = args.rounds - 1
    timing = 0.0
    for number in range(1, last + 1):
        timing, floats = play_round(entries, rng, args.draws)
        print(f"round {number}: {timing:.3f} s, {floats} floats")
    print(
        f"{args.players} players, round {last} of {args.rounds}: paired in {timing:.3f} s "
        f"(target < 1 s)"
    )


if __name__ == "__main__":
    main()
