"""The net with the bear-off tables and the race net against the same net judging every
position itself, at 0-ply, in duplicate-dice pairs (docs/analysis.md):

    .venv/bin/python tests/engine/bearoff_duel.py GAMES SEED
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.evaluator import play
from engine.evaluator.duel import duel
from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import Floats, Net, load_net
from engine.evaluator.play import BoardPair
from engine.evaluator.players import NetPlayer

SWITCHED = play.position_outputs  # type: ignore[attr-defined]


def net_only(net: Net, pairs: list[BoardPair]) -> Floats:
    return net.outputs(encode(as_boards(pairs)))


class NetOnly(NetPlayer):
    """The player as it was: every position to the contact net."""

    def choose(self, cands: list[BoardPair], side: int, rng: random.Random) -> int:
        setattr(play, "position_outputs", net_only)  # noqa: B010
        try:
            return super().choose(cands, side, rng)
        finally:
            setattr(play, "position_outputs", SWITCHED)  # noqa: B010


def main() -> int:
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    net = load_net()
    result = duel(NetPlayer(net, name="tables"), NetOnly(net, name="net-only"), games, seed)
    print(result.line("tables+race", "net-only"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
