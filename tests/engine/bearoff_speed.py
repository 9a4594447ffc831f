"""How much the bear-off switch (engine/evaluator/judge.py) costs a 0-ply analysis:
the same bot games analysed with every position sent to the net (the code before the
switch) and with the switch, in one run, CPU seconds (docs/analysis.md).

    .venv/bin/python tests/engine/bearoff_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.analysis import analyse_game
from engine.evaluator import play
from engine.evaluator.bench import bot_game
from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import Floats, Net


def net_only(net: Net, pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Floats:
    return net.outputs(encode(as_boards(pairs)))


def cpu(text: str, rounds: int) -> float:
    start = time.process_time()
    for _ in range(rounds):
        analyse_game(text, ply=0)
    return (time.process_time() - start) / rounds


def main() -> int:
    switched = play.position_outputs  # type: ignore[attr-defined]
    for turns in (60, 400):
        text, seen = bot_game(turns)
        cpu(text, 1)  # loads the net and the tables
        new = cpu(text, 3)
        setattr(play, "position_outputs", net_only)  # noqa: B010
        old = cpu(text, 3)
        setattr(play, "position_outputs", switched)  # noqa: B010
        print(f"{len(seen)}-turn bot game, 0-ply analysis: {new:.2f} s CPU with the tables, "
              f"{old:.2f} s net only (ratio {new / old:.2f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
