"""``python -m engine verify`` as a whole process, on long-nardy records as players write them.

    .venv/bin/python tools/bench_verify_process.py [--games 1000] [--distinct 1000] [--runs 5]

Writes ``--games`` games to a file (``--distinct`` random long games, seeded, rewritten by
``engine.handwritten`` as players write them: each die its own move, in a random legal
order, one checker's steps apart, hits unmarked; repeated when ``--games`` is larger) and
times ``python -m engine verify FILE`` in a child process: start-up, reading and
verifying, every game checked to be ``ok``. The time is the child's CPU time
(``getrusage(RUSAGE_CHILDREN)``), the fastest of ``--runs`` runs: on a shared machine a
process waits for a core, and that wait is not the engine's.

In the same run it times ``python -c pass`` (the interpreter's own start-up) and
``python -m engine verify`` of a one-game file (the engine's start-up), so that figures
from a busy machine can be compared as ratios. The engine's bytecode is compiled first,
as an installed package has it (``PYTHONDONTWRITEBYTECODE`` would otherwise make every
run compile the engine again). The target (docs/performance.md) is 2,000 games/s.

The distinct games take a while to generate (about a minute per thousand); they are kept
in ``build/bench-verify/`` and reused.
"""

from __future__ import annotations

import argparse
import compileall
import itertools
import os
import random
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bench import SEED, sample_games  # noqa: E402
from engine.handwritten import as_players_write  # noqa: E402

CACHE = ROOT / "build" / "bench-verify"
TARGET = 2000  # games/s, docs/performance.md


def written_games(distinct: int) -> list[str]:
    """``distinct`` long games as players write them (cached in ``build/bench-verify``)."""
    path = CACHE / f"written-long-{SEED}-{distinct}.nrd"
    if not path.exists():
        print(f"writing {distinct} games as players write them (once) ...", file=sys.stderr)
        rng = random.Random(f"{SEED}-long-written")
        games = [as_players_write(text, rng) for text in sample_games("long", distinct)]
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(games), encoding="utf-8")
    return _games(path.read_text(encoding="utf-8"))


def _games(text: str) -> list[str]:
    """The games of a file that holds games written by ``as_players_write`` (each starts
    with its ``[Variant`` tag)."""
    parts = text.split("\n\n[Variant ")
    return [parts[0], *("[Variant " + p for p in parts[1:])]


def child_cpu(command: Sequence[str]) -> float:
    """CPU seconds (user + system) of one run of ``command``; it must exit with 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, env=_env(), check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {done.returncode}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def fastest(command: Sequence[str], runs: int) -> float:
    return min(child_cpu(command) for _ in range(runs))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--distinct", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    distinct = min(args.distinct, args.games)
    games = list(itertools.islice(itertools.cycle(written_games(distinct)), args.games))
    CACHE.mkdir(parents=True, exist_ok=True)
    records = CACHE / f"verify-{args.games}.nrd"
    records.write_text("\n".join(games), encoding="utf-8")
    one = CACHE / "verify-1.nrd"
    one.write_text(games[0], encoding="utf-8")
    compileall.compile_dir(ROOT / "engine", quiet=1)

    python = sys.executable
    bare = fastest([python, "-c", "pass"], args.runs)
    start = fastest([python, "-m", "engine", "verify", str(one)], args.runs)
    whole = fastest([python, "-m", "engine", "verify", str(records)], args.runs)
    rate = args.games / whole
    print(
        f"verify as written, whole process: {args.games} long games ({distinct} distinct) in "
        f"{whole:.3f} s CPU = {rate:.0f} games/s ({rate / TARGET:.2f} of the target {TARGET})"
    )
    print(
        f"start-up: python -c pass {bare * 1000:.0f} ms, python -m engine verify of one game "
        f"{start * 1000:.0f} ms ({start / bare:.1f} x python -c pass)"
    )
    print(
        f"ratios: the whole run = {whole / bare:.1f} x python -c pass; "
        f"{(whole - start) / (args.games - 1) * 1e6:.0f} us a game after start-up "
        f"({(args.games - 1) / (whole - start):.0f} games/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
