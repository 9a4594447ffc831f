"""What a 1-ply analysis costs against a 0-ply one: fixtures/demo/podzim-2026.nrd's third
game (95 turns) analysed at both depths in one run, CPU seconds and their ratio
(docs/analysis.md, "One depth everywhere"). With ``--engine DIR`` the engine in DIR is
measured instead (``git archive <commit> engine | tar -x -C DIR``: the code before a
change, in the same conditions); with ``--golden FILE`` the figures of every turn are
written to FILE (fixtures/analysis/podzim-2026-3.json was written so by the code
before the memo and the batching, commit f3329b1, and again with the net of 2026-12-06;
test_analysis_speed.py compares the analysis with it).

    .venv/bin/python tests/engine/analysis_speed.py [--engine DIR] [--golden FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "fixtures" / "demo" / "podzim-2026.nrd"
INDEX = 2  # the file's third game


def figures(analysis: object) -> list[list[object]]:
    """Each turn's error, luck, equities before and after (mp) and best play."""
    return [[t.error_mp, t.luck_mp, t.equity_before_mp, t.equity_after_mp, t.best]
            for t in analysis.turns]  # type: ignore[attr-defined]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", help="a directory holding the engine to measure")
    parser.add_argument("--golden", help="write every turn's figures to this file")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.engine).resolve() if args.engine else ROOT))
    import engine
    from engine import read_records
    from engine.analysis import analyse_game
    from engine.evaluator.net import load_net

    record = read_records(GAME.read_text(encoding="utf-8"))[INDEX]
    net = load_net()
    analyse_game(record, ply=0, net=net)  # the tables and the race net loaded
    start = time.process_time()
    zero = analyse_game(record, ply=0, net=net)
    cpu0 = time.process_time() - start
    start = time.process_time()
    one = analyse_game(record, ply=1, net=net)
    cpu1 = time.process_time() - start
    where = Path(engine.__file__).parent
    print(f"{where}: {len(one.turns)} turns, 0-ply {cpu0:.2f} s, 1-ply {cpu1:.2f} s CPU, "
          f"ratio {cpu1 / cpu0:.1f}")  # fmt: skip
    if args.golden:
        data = {"game": f"{GAME.name} #{INDEX + 1}", "ply0": figures(zero), "ply1": figures(one)}
        Path(args.golden).write_text(json.dumps(data) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
