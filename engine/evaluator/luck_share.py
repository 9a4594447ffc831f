"""How much of a game's result the dice explain (``python -m engine luck-share``,
docs/analysis_lurc.md): self-play games of the variant's net against itself, each
analysed as ``analyse`` does (the luck of every roll, in points), then over the sample
the share of the result's variance that the luck explains: R² of the first mover's
result (+1 or -1, a mars 2 in long nardy) on its luck minus the opponent's.

Both players are the same net, so what separates the results is the dice (and the
net's own slips, which the analysis calls errors): R² near 1 means the dice decided
nearly every game."""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.analysis import analyse_game
from engine.evaluator.lurc_players import LurcNetPlayer
from engine.evaluator.net import load_net, net_path
from engine.evaluator.players import NetPlayer
from engine.movegen import legal_turns
from engine.notation import WrittenAction, dice_text, read_records, write_movetext, write_tags
from engine.position import Position
from engine.replay import outcome_for, replay
from engine.rules import Rules
from engine.variants import CHECKERS, variant_named

MAX_TURNS = 1500


@dataclass(frozen=True, slots=True)
class LuckShare:
    games: int
    r2: float  # the share of the result's variance the luck difference explains
    slope: float  # points of result per point of luck difference
    mean_abs_luck: float  # the mean |luck difference| per game, in points

    @property
    def se(self) -> float:
        """The large-sample standard error of R² with one regressor (Olkin and Finn):
        sqrt(4 R² (1 - R²)² (n - 2)² / ((n² - 1)(n + 3)))."""
        n, r2 = self.games, self.r2
        if n < 3:
            return 0.0
        return math.sqrt(4 * r2 * (1 - r2) ** 2 * (n - 2) ** 2 / ((n * n - 1) * (n + 3)))

    def line(self, variant: str) -> str:
        return (f"{variant}: {self.games} self-play games, R^2 of the result on the luck "
                f"difference {self.r2:.3f} (slope {self.slope:.2f}, mean |luck difference| "
                f"{self.mean_abs_luck:.2f} points), SE of R^2 {self.se:.3f}")  # fmt: skip


def selfplay_record(variant: str, rng: random.Random) -> str:
    """A game of the variant's net (0-ply) against itself, as record text."""
    v = variant_named(variant)
    assert v.evaluator is not None
    net = load_net(net_path(v.evaluator))
    pos = Position.start(v.name)
    rules = Rules()
    lurc = LurcNetPlayer(net, width=16) if v.rolls_again else None
    player = NetPlayer(net)
    actions = []
    outcome = None
    for _ in range(MAX_TURNS):
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        mover = pos.turn
        if lurc is not None:
            turn = lurc.choose(pos, dice, rng)
        else:
            turns = legal_turns(pos, dice, rules)
            cands = [(t.position.board(mover), t.position.board(1 - mover)) for t in turns]
            turn = turns[player.choose(cands, mover, rng)]
        roll = dice_text((dice[0], dice[1]), turn.pas)
        actions.append(WrittenAction(mover, "turn", f"{roll}: {turn.notation}".rstrip()))
        pos = turn.position
        if pos.off(mover) == CHECKERS:
            outcome = outcome_for(pos, mover, rules)
            break
    assert outcome is not None
    tags = [("Variant", v.name), ("White", "Net"), ("Black", "Net"), ("Result", outcome.result)]
    body = write_movetext(actions, first_side=v.first_side)
    return "\n".join(write_tags(tags)) + "\n\n" + body + "\n"


def game_luck(variant: str, seed: int, game: int) -> tuple[float, float]:
    """Self-play game number ``game`` of ``seed``: (the first mover's luck minus the
    opponent's, the first mover's points), in points."""
    first = variant_named(variant).first_side
    record = selfplay_record(variant, random.Random(seed * 1_000_003 + game))
    analysis = analyse_game(record)
    luck = (analysis.side(first).luck - analysis.side(1 - first).luck) / 1000
    return luck, _result(record, first)


def read_pairs(path: Path, variant: str, seed: int) -> dict[int, tuple[float, float]]:
    """The games of ``variant`` and ``seed`` a pairs file holds (other lines ignored; a
    line cut short by a stopped run is skipped: the game is played again)."""
    found: dict[int, tuple[float, float]] = {}
    if not path.exists():
        return found
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
            if row["variant"] == variant and row["seed"] == seed:
                found[int(row["game"])] = (float(row["luck"]), float(row["result"]))
        except (ValueError, KeyError, TypeError):
            continue
    return found


def luck_share(variant: str, games: int, seed: int, pairs: Path | None = None,
               part: tuple[int, int] = (0, 1)) -> LuckShare:  # fmt: skip
    """R² of the result on the luck difference over ``games`` self-play games. With a
    pairs file each game's (luck, result) is appended to it as it is played and a game
    already there is not played again (a run resumes; runs on other ``part``s, game
    numbers k mod m, may append to the same file at once); the figure is over the games
    below ``games`` that the file holds when the run's own part is done."""
    k, m = part
    done = read_pairs(pairs, variant, seed) if pairs is not None else {}
    if pairs is not None and pairs.exists() and pairs.read_bytes()[-1:] not in (b"", b"\n"):
        with pairs.open("a") as out:  # a line cut by a stopped run: the next starts afresh
            out.write("\n")
    for g in range(games):
        if g % m != k or g in done:
            continue
        done[g] = game_luck(variant, seed, g)
        if pairs is not None:
            luck, result = done[g]
            row = {"variant": variant, "seed": seed, "game": g, "luck": luck, "result": result}
            with pairs.open("a") as out:  # one short line per write: appends do not mix
                out.write(json.dumps(row) + "\n")
    if pairs is not None:
        done.update(read_pairs(pairs, variant, seed))
    kept = [done[g] for g in sorted(done) if g < games]
    return share([x for x, _ in kept], [y for _, y in kept])


def _result(record: str, first: int) -> float:
    """The first mover's points won (negative: lost) by the record's outcome."""
    outcome = replay(read_records(record)[0], check_result=False).outcome
    assert outcome is not None and outcome.winner is not None
    return outcome.points if outcome.winner == first else -outcome.points


def share(xs: list[float], ys: list[float]) -> LuckShare:
    """R² and slope of ``ys`` on ``xs`` by least squares (one regressor)."""
    x, y = np.array(xs), np.array(ys)
    if len(x) < 3 or x.std() == 0 or y.std() == 0:
        return LuckShare(len(x), 0.0, 0.0, float(np.abs(x).mean()) if len(x) else 0.0)
    r = float(np.corrcoef(x, y)[0, 1])
    slope = float(r * y.std() / x.std())
    return LuckShare(len(x), r * r, slope, float(np.abs(x).mean()))
