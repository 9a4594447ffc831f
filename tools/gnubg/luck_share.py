"""Short backgammon's luck share (docs/analysis.md, "How much is luck"): cubeless
self-play games of GNU Backgammon against itself (0-ply, no noise), each analysed by
gnubg for luck (tools/gnubg/luck_share_games.py, run inside gnubg), and over the sample
the statistic ``python -m engine luck-share`` gives for the project's nets
(engine/evaluator/luck_share.py ``share``): R² of the first mover's result (points,
+-1, 2 or 3) on its luck minus the opponent's (gnubg's luck, in equity = points).
The first mover is the side that won the opening roll.

From the repository root (gnubg installed)::

    .venv/bin/python -m tools.gnubg.luck_share --games 1000 --seed 1

It prints the engine's line for ``short`` and the standard error of R²."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from engine.evaluator.luck_share import LuckShare, share

GAMES_SCRIPT = Path(__file__).resolve().with_name("luck_share_games.py")


def gnubg_program() -> str | None:
    """gnubg: $NARDY_GNUBG, else on PATH, else Debian's /usr/games/gnubg."""
    if "NARDY_GNUBG" in os.environ:
        return os.environ["NARDY_GNUBG"]
    found = shutil.which("gnubg")
    return found or ("/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None)


def selfplay_luck(games: int, seed: int, program: str) -> list[tuple[float, float]]:
    """Per game: (the first mover's luck minus the opponent's, the first mover's points)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / ".gnubg").mkdir()  # a throw-away HOME: no personal settings leak in
        env = {**os.environ, "HOME": tmp, "GNUBG_LUCK_GAMES": str(games)}
        env["GNUBG_LUCK_SEED"] = str(seed)
        done = subprocess.run(
            [program, "-t", "-q", "-p", str(GAMES_SCRIPT)], stdin=subprocess.DEVNULL,
            capture_output=True, text=True, env=env, timeout=120 + 2 * games, check=False,
        )  # fmt: skip
    rows = []
    for line in done.stdout.splitlines():
        if line.startswith("LUCK "):
            _, _, first, second, points = line.split()
            rows.append((float(first) - float(second), float(points)))
    if len(rows) != games:
        raise RuntimeError(f"gnubg gave {len(rows)} of {games} games: {done.stderr[-2000:]}")
    return rows


def r2_standard_error(r2: float, n: int) -> float:
    """The standard error of R² (engine/evaluator/luck_share.py ``LuckShare.se``)."""
    return LuckShare(n, r2, 0.0, 0.0).se


def luck_share(games: int, seed: int, program: str) -> LuckShare:
    rows = selfplay_luck(games, seed, program)
    return share([x for x, _ in rows], [y for _, y in rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gnubg", default=gnubg_program(), help="the gnubg program")
    a = parser.parse_args(argv)
    if a.gnubg is None:
        print("GNU Backgammon (gnubg) is not installed", file=sys.stderr)
        return 2
    result = luck_share(a.games, a.seed, a.gnubg)
    print(result.line("short").replace(" self-play", " gnubg self-play"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
