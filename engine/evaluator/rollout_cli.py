"""``python -m engine rollout`` and ``python -m engine benchmark`` (docs/analysis.md).

``rollout`` reads JSON lines as ``legal`` does, a position (NOTATION.md section 2) and
optionally a play: ``{"position": ..., "rules": {...}}`` rolls the position out for the
side to move before its roll; with ``"dice": [a, b], "moves": "24/18/14"`` it rolls out
the position after that play and reports it for the side that played. Each line is
answered with one line: the rollout's figures, or ``{"error": ...}`` for that line only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from engine.errors import EngineError, refused_with_2
from engine.evaluator import bench_positions as bench
from engine.evaluator.net import load_net
from engine.evaluator.rollout import RolloutResult, rollout_boards
from engine.queries import play_text, read_rollout_query
from engine.replay import play

MAX_GAMES = 1_000_000


class RolloutQueryError(EngineError):
    code = "bad-rollout-query"


def answer_rollout_query(line: str, *, games: int, seed: int, truncate: int,
                         reduce: bool) -> dict[str, object]:  # fmt: skip
    """One query line's answer (module docstring)."""
    try:
        query = read_rollout_query(line)
        position, rules = query.position, query.rules
        if position.rules_variant.evaluator is None:
            raise RolloutQueryError(
                f"{position.rules_variant.title} has no evaluator: rollouts are of long nardy",
                code="rollout-no-evaluator",
                params={"variant": position.rules_variant.name},
            )
        played = None
        if query.has_play:
            played = play(position, play_text(query.dice, query.moves), rules)
            position = played.position
        side = position.turn
        me, opp = position.board(side), position.board(1 - side)
        if played is not None and opp[0] == 15:  # the play bore off the last checker (L8)
            mars = rules.mars and me[0] == 0
            done = RolloutResult(games, 2.0 if mars else 1.0, 1.0, float(mars), 0.0, 0.0,
                                 reduce, truncate)  # fmt: skip
            return {"moves": played.notation, **done.to_json()}
        if me[0] == 15 or opp[0] == 15:
            raise RolloutQueryError("the game is over: nothing to roll out",
                                    code="rollout-game-over")  # fmt: skip
        result: RolloutResult = rollout_boards(
            me,
            opp,
            games=games,
            seed=seed,
            side=side,
            truncate=truncate,
            reduce=reduce,
            rules=rules,
        )
    except EngineError as exc:
        return {"error": str(exc)}
    if played is not None:
        answer: dict[str, object] = {"moves": played.notation, **result.flipped().to_json()}
        return answer
    return result.to_json()


def cmd_rollout(games: int, seed: int, truncate: int, reduce: bool, inp: TextIO,
                out: TextIO) -> int:  # fmt: skip
    if not 2 <= games <= MAX_GAMES or truncate < 0:
        print(f"--games is 2-{MAX_GAMES} and --truncate 0 or more", file=sys.stderr)
        return 2
    for line in inp:
        if line.strip():
            answer = answer_rollout_query(line, games=games, seed=seed, truncate=truncate,
                                          reduce=reduce)  # fmt: skip
            print(json.dumps(answer, separators=(",", ":")), file=out)
            out.flush()
    return 0


@refused_with_2
def cmd_benchmark(net_file: str | None, path: str | None, roll: int | None, out: TextIO) -> int:
    """The net's figures on the benchmark; with ``roll``, N more positions rolled out,
    played by ``net_file``'s net (the shipped one by default)."""
    net = load_net(Path(net_file) if net_file else None)
    if roll is not None:
        done = bench.run_rollouts(roll, net=net,
                                  log=lambda text: print(text, file=out, flush=True))  # fmt: skip
        print(f"{done} positions rolled out", file=out)
        return 0
    figures = bench.score(bench.net_evaluator(net), Path(path) if path else bench.ROLLED)
    print(json.dumps(figures, separators=(",", ":")), file=out)
    return 0


def run(args: object) -> int:
    a = args
    if getattr(a, "command", None) == "rollout":
        return cmd_rollout(a.games, a.seed, a.truncate, a.luck, sys.stdin, sys.stdout)  # type: ignore[attr-defined]
    return cmd_benchmark(a.net, a.file, a.roll, sys.stdout)  # type: ignore[attr-defined]
