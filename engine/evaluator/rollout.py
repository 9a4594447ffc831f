"""Rollouts of a long-nardy position as GNU Backgammon does them: the position (the side
to move before its roll) is played out ``games`` times by the net at 0-ply, and the
results averaged, with the standard error of the mean.

- **Seeded**: the dice of game ``i`` come from the seed and ``i`` alone, so a rollout
  reproduces whatever it is split into; the first roll of game ``i`` is the
  ``perm[i mod 36]``-th of the 36 (a seeded permutation), so every block of 36 games
  plays each first roll once (quasi-random dice: the first roll's luck cancels).
- **Variance reduction** (gnubg's luck adjustment): at each turn the net's value of the
  best play of each of the 21 rolls is known, so the luck of the roll rolled is its
  value minus their mean over the 36 rolls. Its expectation is exactly 0 whatever the
  players do, so subtracting every turn's luck from the game's result leaves the mean
  unchanged and removes most of the dice's noise. It is done on the three chances
  (win, win mars, lose mars), and the equity follows from them.
- **Truncation**: a game stops after ``truncate`` turns (0: never) and counts the net's
  value there; and wherever ``settle`` (an exact or race evaluator) gives a value.

>>> from engine.variants import variant_named
>>> start = variant_named("long").start
>>> r = rollout_boards(start, start, games=2, seed=1, truncate=2)
>>> r.games, r == rollout_boards(start, start, games=2, seed=1, truncate=2)
(2, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import Floats, Net, equity, flip, load_net
from engine.evaluator.play import ROLL_WEIGHTS, ROLLS, RULES, BoardPair, ends, outcomes
from engine.rules import Rules

Board = tuple[int, ...]
# a value wherever an exact evaluator applies: the side to move's (win, win mars, lose
# mars) before its roll, or None (the net goes on)
Settle = Callable[[Board, Board], "Floats | None"]

MAX_TURNS = 2000  # a guard: no game of long nardy is this long
# the 36 ordered rolls as the 21 (higher first): a double once, the others twice
_ORDERED = [(max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)]


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """A rollout's means for the side to move at its root: equity in points, the
    chances (win, win mars, lose mars) and the standard error of the equity."""

    games: int
    equity: float
    win: float
    win_mars: float
    lose_mars: float
    se: float
    reduced: bool  # variance reduction used
    truncate: int

    def flipped(self) -> RolloutResult:
        """The same rollout seen by the other side (a play's rollout is its opponent's)."""
        return RolloutResult(self.games, -self.equity, 1 - self.win, self.lose_mars,
                             self.win_mars, self.se, self.reduced, self.truncate)  # fmt: skip

    def to_json(self) -> dict[str, object]:
        return {"games": self.games, "equity": round(self.equity, 4),
                "win": round(self.win, 4), "win_mars": round(self.win_mars, 4),
                "lose_mars": round(self.lose_mars, 4), "se": round(self.se, 4),
                "equity_mp": round(1000 * self.equity), "se_mp": round(1000 * self.se),
                "variance_reduction": self.reduced, "truncate": self.truncate}  # fmt: skip


def game_dice(seed: int, game: int) -> random.Random:
    """The dice of game ``game`` of a rollout seeded ``seed`` (after its first roll)."""
    return random.Random(f"rollout:{seed}:{game}")


def first_roll(seed: int, game: int) -> tuple[int, int]:
    """The first roll of game ``game``: every block of 36 games rolls each of the 36
    once, in an order drawn from the seed."""
    perm = list(range(36))
    random.Random(f"rollout-first:{seed}:{game // 36}").shuffle(perm)
    return _ORDERED[perm[game % 36]]


class _Game:
    """One game in progress, its boards seen by the side to move."""

    __slots__ = ("dice", "first", "luck", "me", "opp", "result", "root", "side", "turns")

    def __init__(self, me: Board, opp: Board, side: int, seed: int, index: int) -> None:
        self.me, self.opp, self.side = me, opp, side
        self.root = True  # the side to move is the root's
        self.turns = 0
        self.luck = np.zeros(3)
        self.dice = game_dice(seed, index)
        self.first: tuple[int, int] | None = first_roll(seed, index)
        self.result: Floats | None = None

    def roll(self) -> tuple[int, int]:
        if self.first is not None:
            roll, self.first = self.first, None
            return roll
        a, b = self.dice.randint(1, 6), self.dice.randint(1, 6)
        return (max(a, b), min(a, b))

    def finish(self, outs: Floats) -> None:
        """The game's result from the side to move's chances ``outs``."""
        self.result = (outs if self.root else flip(outs)) - self.luck


def _batch_outcomes(net: Net, cands: list[BoardPair]) -> Floats:
    return outcomes(net, cands) if cands else np.empty((0, 3))


def _settled(net: Net, games: list[_Game], settle: Settle | None, truncate: int) -> None:
    """Finish the games that have reached the truncation or an exact evaluator."""
    cut = [g for g in games if g.result is None and truncate and g.turns >= truncate]
    for g in games:
        if g.result is None and settle is not None:
            exact = settle(g.me, g.opp)
            if exact is not None:
                g.finish(np.asarray(exact, dtype=np.float64))
    cut = [g for g in cut if g.result is None]
    if cut:
        outs = net.outputs(encode(as_boards([(g.me, g.opp) for g in cut])))
        for g, o in zip(cut, outs, strict=True):
            g.finish(o.astype(np.float64))


def _step(net: Net, live: list[_Game], reduce: bool, rules: Rules) -> None:
    """One turn of every live game: all 21 rolls' ends evaluated in one batch when the
    luck is measured, only the rolled roll's otherwise."""
    cands: list[BoardPair] = []
    spans: list[list[tuple[int, int]]] = []  # per game, per roll looked at: [start, end)
    rolled: list[int] = []
    for g in live:
        roll = g.roll()
        rolls = ROLLS if reduce else (roll,)
        rolled.append(rolls.index(roll))
        mine = []
        for r in rolls:
            found = ends(g.me, g.opp, g.side, r, rules=rules)
            mine.append((len(cands), len(cands) + len(found)))
            cands.extend(found)
        spans.append(mine)
    outs = _batch_outcomes(net, cands)
    eqs = equity(outs)
    for g, mine, k in zip(live, spans, rolled, strict=True):
        best = [lo + int(np.argmax(eqs[lo:hi])) for lo, hi in mine]
        if reduce:
            values = outs[best]  # the mover's chances after each roll's best play
            luck = values[k] - ROLL_WEIGHTS @ values
            g.luck += luck if g.root else np.array([-luck[0], luck[2], luck[1]])
        me, opp = cands[best[k]]
        g.turns += 1
        if me[0] == 15:  # borne off everything: the mover won (L8)
            mars = rules.mars and opp[0] == 0
            g.finish(np.array([1.0, 1.0 if mars else 0.0, 0.0]))
        else:
            g.me, g.opp, g.root, g.side = opp, me, not g.root, 1 - g.side


def rollout_boards(
    me: Board, opp: Board, *, games: int, seed: int, truncate: int = 0, side: int = 0,
    reduce: bool = True, net: Net | None = None, settle: Settle | None = None,
    rules: Rules = RULES,
) -> RolloutResult:  # fmt: skip
    """Roll out the position with ``me`` to move before its roll (boards in each
    owner's numbering, as :meth:`Position.board`)."""
    results = game_results(me, opp, range(games), seed=seed, truncate=truncate, side=side,
                           reduce=reduce, net=net, settle=settle, rules=rules)  # fmt: skip
    return summary(results, reduce, truncate)


def game_results(
    me: Board, opp: Board, numbers: range, *, seed: int, truncate: int = 0, side: int = 0,
    reduce: bool = True, net: Net | None = None, settle: Settle | None = None,
    rules: Rules = RULES, batch: int = 36,
) -> Floats:  # fmt: skip
    """The results (rows: win, win mars, lose mars for the root's side, less the luck
    when ``reduce``) of the games ``numbers`` of a rollout: a rollout may be played in
    parts and the parts joined."""
    net = net or load_net()
    results: list[Floats] = []
    for lo in range(numbers.start, numbers.stop, batch):
        block = [_Game(me, opp, side, seed, i) for i in range(lo, min(numbers.stop, lo + batch))]
        _settled(net, block, settle, truncate)
        for _ in range(MAX_TURNS):
            live = [g for g in block if g.result is None]
            if not live:
                break
            _step(net, live, reduce, rules)
            _settled(net, live, settle, truncate)
        _settled(net, block, None, 1)  # a game still on at the guard: the net's value
        results.extend(g.result for g in block if g.result is not None)
    return np.array(results).reshape(-1, 3)


def summary(results: Floats, reduced: bool, truncate: int) -> RolloutResult:
    """The means and the standard error of per-game results (rows: win, win mars, lose
    mars, each adjusted for the luck when ``reduced``)."""
    n = len(results)
    eq = equity(results)
    se = float(np.std(eq, ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    win, wm, lm = (float(v) for v in results.mean(axis=0))
    return RolloutResult(n, float(eq.mean()), win, wm, lm, se, reduced, truncate)
