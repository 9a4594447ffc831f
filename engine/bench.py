"""``python -m engine bench``: speed on fixed seeded inputs (a benchmark, not a test)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import TextIO

from engine.handwritten import as_players_write
from engine.movegen import legal_turns
from engine.notation import read_records
from engine.openspiel_bench import check_same_plays, openspiel_rate, ours_rate, sample_positions
from engine.position import Position
from engine.replay import replay, verify
from engine.selfplay import random_game
from engine.variants import LONG, SHORT, Rules

SEED = 20261129


def _clock(fn: Callable[[], object], min_seconds: float = 1.0) -> tuple[float, int]:
    """CPU seconds per call of ``fn``: the fastest of the calls made in ``min_seconds`` of
    this process's CPU time (as ``timeit`` advises: slower runs measure the machine's other
    work, not the code). CPU time, not wall time: on a shared machine the process waits
    for a core, and that wait is not the engine's."""
    runs = 0
    best = float("inf")
    start = time.process_time()
    while True:
        before = time.process_time()
        fn()
        best = min(best, time.process_time() - before)
        runs += 1
        if time.process_time() - start >= min_seconds and runs >= 3:
            return best, runs


def sample_games(variant: str, count: int, seed: int = SEED) -> list[str]:
    rng = random.Random(f"{seed}-{variant}")
    return [random_game(variant, rng, Rules()) for _ in range(count)]


def sample_queries(
    texts: list[str], count: int, seed: int = SEED
) -> list[tuple[Position, list[int]]]:
    """Positions met in the sample games with a fresh random roll for each."""
    rng = random.Random(seed)
    positions: list[Position] = []
    for text in texts:
        result = replay(read_records(text)[0])
        positions.extend(p.before for p in result.played)
    rng.shuffle(positions)
    return [(p, [rng.randint(1, 6), rng.randint(1, 6)]) for p in positions[:count]]


def _verify_all(texts: list[str]) -> None:
    for t in texts:
        result = verify(read_records(t)[0])
        assert result.ok, result.error


def run_bench(*, quick: bool = False, out: TextIO) -> int:
    games = 20 if quick else 200
    queries = 200 if quick else 3000
    seconds = 0.2 if quick else 2.0
    print(
        f"engine bench (seed {SEED}; {games} random games and {queries} positions a variant; "
        "the fastest of repeated runs)",
        file=out,
    )
    for variant in (LONG.name, SHORT.name):
        texts = sample_games(variant, games)
        records = [read_records(t)[0] for t in texts]
        turns = sum(len(r.actions) for r in records)
        canonical = games / _clock(partial(_verify_all, texts), seconds)[0]
        print(
            f"{variant:5s} verify: {canonical:9.0f} games/s {turns * canonical / games:10.0f} "
            f"turns/s  ({turns / games:.1f} turns a game, parsing included)",
            file=out,
        )
        rng = random.Random(f"{SEED}-{variant}-written")
        written = [as_players_write(t, rng) for t in texts]
        rate = games / _clock(partial(_verify_all, written), seconds)[0]
        print(
            f"{variant:5s} verify as written: {rate:9.0f} games/s ({rate / canonical:.2f} of the "
            "canonical rate; each die its own move, in a random legal order, hits unmarked)",
            file=out,
        )
        sample = sample_queries(texts, queries)

        def generate_all(sample: list[tuple[Position, list[int]]] = sample) -> None:
            for pos, dice in sample:
                legal_turns(pos, dice)

        per_run, _ = _clock(generate_all, seconds)
        print(
            f"{variant:5s} legal:  {len(sample) / per_run:9.0f} positions/s "
            "(every distinct legal end of a roll)",
            file=out,
        )
    _openspiel(seconds, out)  # open_spiel's backgammon: short backgammon's positions
    return 0


def _openspiel(seconds: float, out: TextIO) -> None:
    """open_spiel's backgammon legal_actions() and legal_turns on the same positions
    (positions met in open_spiel's own random games; doubles left out, since open_spiel
    plays a double as two half-turns)."""
    samples = sample_positions(1000, SEED)
    if samples is None:
        print("open_spiel: not installed (make bench-openspiel installs it)", file=out)
        return
    mismatches = check_same_plays(samples)
    print(
        f"short legal: the end positions of every open_spiel legal action equal legal_turns' "
        f"on {len(samples) - mismatches} of {len(samples)} positions",
        file=out,
    )
    theirs, ours = openspiel_rate(samples, seconds), ours_rate(samples, seconds)
    print(
        f"short legal on {len(samples)} open_spiel positions: open_spiel legal_actions() "
        f"{theirs:9.0f} positions/s, legal_turns {ours:9.0f} positions/s, "
        f"ours / open_spiel = {ours / theirs:.3f}",
        file=out,
    )
