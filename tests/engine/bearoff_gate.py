"""The whole bear-off gate of docs/analysis.md, too slow for the suite (which checks a
seeded sample, tests/engine/test_bearoff.py): on all 6,889 positions with 1-3 checkers
a side at home, ``eval``'s equity (evaluate_position, 0-ply) against the exact value of
the independent recursion, and ``hint``'s first play in every decision (each of the 21
rolls with more than one distinct play) against the exactly best.

    .venv/bin/python tests/engine/bearoff_gate.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).resolve().parents[2])]

from bearoff_exact import equity, homes, plays, position, win  # type: ignore[import-not-found]  # noqa: E402

from engine.evaluator.advice import evaluate_position, hint_plays  # noqa: E402

ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


def main() -> int:
    cpu = time.process_time()
    small = homes(1, 3)
    errors: list[float] = []
    decisions = best = 0
    worst = 0.0
    for me in small:
        for opp in small:
            pos = position(me, opp)
            errors.append(abs(evaluate_position(pos).equity - equity(me, opp)))
            for dice in ROLLS:
                found = plays(me, dice)
                if len(found) < 2:
                    continue
                decisions += 1
                value = {h: 1.0 if not sum(h) else 1 - win(opp, h) for h in found}
                top = tuple(hint_plays(pos, list(dice))[0].position.white[1:7])
                lost = max(value.values()) - value[top]
                best += lost < 1e-9
                worst = max(worst, 2 * lost)
    mean = 1000 * sum(errors) / len(errors)
    print(f"{len(errors)} positions: eval off the exact equity by {mean:.3f} mp "
          f"on average, {1000 * max(errors):.3f} mp at most")  # fmt: skip
    print(f"{decisions} decisions: hint's first play exactly best in {best} "
          f"({100 * best / decisions:.2f} %), worst loss {1000 * worst:.3f} mp")  # fmt: skip
    print(f"{time.process_time() - cpu:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
