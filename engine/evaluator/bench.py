"""``python -m engine bench-evaluator``: the evaluator's speed on fixed seeded inputs (a
benchmark, not a test; the targets of docs/analysis.md: 50 ms a move at 0-ply, 500 ms at the
strongest level, a 60-turn game analysed in 2 s at 0-ply and 10 s at 1-ply). CPU
seconds, as :func:`engine.bench._clock` measures them."""

from __future__ import annotations

import random
import time

from engine.analysis import analyse_game
from engine.evaluator.net import load_net
from engine.evaluator.play import ends
from engine.evaluator.players import NetPlayer
from engine.movegen import legal_turns
from engine.notation import dice_text
from engine.position import Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

SEED = 20261202


def bot_game(turns: int, seed: int = SEED) -> tuple[str, list[tuple[Position, tuple[int, int]]]]:
    """The first ``turns`` turns of a game of the net against itself at 0-ply, as record
    text, and the (position, roll) of each turn."""
    rng = random.Random(seed)
    player = NetPlayer(load_net())
    pos = Position.start("long")
    moves: list[str] = []
    seen: list[tuple[Position, tuple[int, int]]] = []
    while len(moves) < turns and pos.off(1 - pos.turn) < 15:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        side = pos.turn
        options = legal_turns(pos, [a, b])
        cands = [(t.position.board(side), t.position.board(1 - side)) for t in options]
        seen.append((pos, (max(a, b), min(a, b))))
        turn = options[player.choose(cands, side, rng)]
        moves.append(f"{dice_text((a, b), None)}: {turn.notation}".rstrip())
        pos = turn.position
    lines = [f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    return '[Variant "long"]\n\n' + "\n".join(lines) + "\n", seen


def _cpu(fn: object) -> float:
    start = time.process_time()
    fn()  # type: ignore[operator]
    return time.process_time() - start


def run_bench(out: TextIO, quick: bool = False) -> int:
    net = load_net()
    text, seen = bot_game(20 if quick else 60)
    rng = random.Random(SEED)
    for name, player in (("0-ply", NetPlayer(net)), ("strongest", NetPlayer(net, ply=1))):
        sample = seen[: 10 if quick else len(seen)]

        def moves(player: NetPlayer = player, sample: list = sample) -> None:  # type: ignore[type-arg]
            for pos, roll in sample:
                side = pos.turn
                cands = ends(pos.board(side), pos.board(1 - side), side, roll)
                player.choose(cands, side, rng)

        spent = _cpu(moves)
        print(f"bot {name}: {1000 * spent / len(sample):.1f} ms a move (CPU, mean of "
              f"{len(sample)} positions of a bot game)", file=out)  # fmt: skip
    for ply in (0, 1):
        spent = _cpu(lambda ply=ply: analyse_game(text, ply=ply))
        print(f"analyse at {ply}-ply: {spent:.2f} s for a {len(seen)}-turn game (CPU)", file=out)
    return 0
