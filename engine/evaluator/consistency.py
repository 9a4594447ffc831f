"""Does the luck explain the results? (``python -m engine luck-check``, docs/analysis.md)

Games of the net against itself (0-ply, no noise: the ``advanced`` level; or at 1-ply,
the strongest level, so that it is analysed at the depth it plays) are analysed;
for each game, white's starting equity plus white's luck minus black's (the luck is each
mover's) is set against the points white won. With a consistent evaluator the sum of
the luck is the result less the starting equity and the errors, so the two correlate
closely; a net whose value jumps within a turn spreads them apart."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from engine.analysis import analyse_game
from engine.errors import refused_with_2
from engine.evaluator.net import Net, load_net
from engine.evaluator.play import ends, terminal
from engine.evaluator.players import NetPlayer
from engine.movegen import legal_turns
from engine.notation import dice_text
from engine.position import Position
from engine.variants import WHITE, variant_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


@dataclass(frozen=True, slots=True)
class LuckCheck:
    games: int
    correlation: float
    residual: float  # the mean |result - (start + luck)| in points

    def line(self, ply: int, seed: int, play_ply: int = 0) -> str:
        played = f", played at {play_ply}-ply" if play_ply else ""
        return (f"luck-check: {self.games} games of the net against itself (seed {seed}"
                f"{played}), analysed at {ply}-ply: correlation of start + luck with the result "
                f"{self.correlation:.3f}, mean |residual| {self.residual:.3f} points")  # fmt: skip


def selfplay_record(net: Net, seed: int, ply: int = 0) -> tuple[str, int]:
    """A game of the net against itself at ``ply`` as record text, and white's points."""
    rng = random.Random(f"luck-check:{seed}")
    player = NetPlayer(net, ply=ply)
    me = opp = variant_named("long").start
    side = WHITE
    moves: list[str] = []
    pos = Position.start("long")
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        cands = ends(me, opp, side, (max(a, b), min(a, b)))
        me, opp = cands[player.choose(cands, side, rng)]
        turns = legal_turns(pos, [a, b])
        turn = next(t for t in turns if t.position.board(side) == me)
        moves.append(f"{dice_text((a, b), None)}: {turn.notation}".rstrip())
        pos = turn.position
        won = terminal(me, opp)
        if won is not None:
            points = int(won) if side == WHITE else -int(won)
            break
        me, opp, side = opp, me, 1 - side
    lines = [f"{i // 2 + 1}. " + " ".join(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    return '[Variant "long"]\n\n' + "\n".join(lines) + "\n", points


def luck_check(games: int, seed: int, ply: int = 0, net: Net | None = None,
               play_ply: int = 0) -> LuckCheck:  # fmt: skip
    """The figure over ``games`` self-play games played at ``play_ply``, analysed at ``ply``."""
    net = net or load_net()
    explained, results = [], []
    for g in range(games):
        record, points = selfplay_record(net, seed * 1_000_003 + g, play_ply)
        analysis = analyse_game(record, ply=ply, net=net)
        start = analysis.turns[0].equity_before_mp
        luck = analysis.white.luck - analysis.black.luck
        explained.append((start + luck) / 1000)
        results.append(points)
    x, y = np.array(explained), np.array(results, dtype=float)
    r = float(np.corrcoef(x, y)[0, 1]) if games > 1 else math.nan
    return LuckCheck(games, r, float(np.mean(np.abs(y - x))))


@refused_with_2
def cmd_luck_check(games: int, seed: int, ply: int, out: TextIO, net: str | None = None,
                   play_ply: int = 0) -> int:  # fmt: skip
    """The figure for the shipped net, or for the contact net of the weights file ``net``
    (the games played and analysed with it; not a weights file: said, not a traceback)."""
    judge = load_net(net) if net else None
    got = luck_check(games, seed, ply, judge, play_ply)
    print(got.line(ply, seed, play_ply), file=out)
    return 0
