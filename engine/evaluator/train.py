"""TD(lambda) self-play training of the long-nardy net (``python -m engine train``).

Every position is seen by the side to move; the net's value of the next position is
flipped (the other side's win is our loss, mars for mars) to be this one's target, and
so is each eligibility trace as the turn passes. The dice of game ``g`` come from the
seed and ``g`` alone, so a resumed run plays the same games as one never stopped."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.evaluator.encoding import as_boards, encode
from engine.evaluator.net import Floats, Net
from engine.evaluator.play import ends
from engine.variants import BLACK, WHITE, variant_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

# the flip's Jacobian by the net's outputs: -win, and the two mars swap (three outputs);
# -win alone (one output: a game without mars, Lurč)
_FLIPS = {
    3: ([0, 2, 1], np.array([-1.0, 1.0, 1.0], np.float32)),
    1: ([0], np.array([-1.0], np.float32)),
}


def alpha_at(games: int, alpha: float) -> float:
    """The learning rate after ``games``: ``alpha`` falling as 1/(1 + games/20000) to a
    fifth of it (large steps early, finer ones as the play gets better)."""
    return max(alpha / 5, alpha / (1 + games / 20000))


def commit_id() -> str:
    """The repository's commit (short), kept in a trained file's header; empty without git."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).parent,
        )
        return found.stdout.strip()
    except OSError:
        return ""


class Traces:
    """The eligibility traces, one per output for each weight, kept in a fixed frame:
    the flip J between the two sides' views (J J = 1) is applied to each new gradient
    and to each error as the turn number's parity says, not to the whole trace every
    turn (e_t = J^t f_t, f_t = lam f_(t-1) + J^t grad V(s_t))."""

    def __init__(self, net: Net) -> None:
        k = net.w2.shape[1]
        self.w1 = np.zeros((k, *net.w1.shape), np.float32)
        self.b1 = np.zeros((k, *net.b1.shape), np.float32)
        self.w2 = np.zeros((k, *net.w2.shape), np.float32)
        self.b2 = np.zeros((k, k), np.float32)
        self.swap, self.sign = _FLIPS[k]
        self.odd = False

    def _frame(self, v: Floats) -> Floats:
        """J^t v for a vector or array indexed by output first."""
        if not self.odd:
            return v
        return v[self.swap] * self.sign.reshape(len(self.swap), *([1] * (v.ndim - 1)))

    def step(self, net: Net, x: Floats, hidden: Floats, out: Floats, lam: float) -> None:
        """f <- lam f + J^t grad V(s), for the inputs, hidden and outputs of s."""
        c = out * (1 - out)  # (outputs,)
        back: Floats = c[:, None] * net.w2.T * (hidden * (1 - hidden))  # (outputs, H)
        top: Floats = np.zeros((len(c), *net.w2.shape), np.float32)
        for k in range(len(c)):
            top[k, :, k] = c[k] * hidden
        gb2: Floats = np.diag(c)
        back, top, gb2 = self._frame(back), self._frame(top), self._frame(gb2)
        for e in (self.w1, self.b1, self.w2, self.b2):
            e *= lam
        nz = np.flatnonzero(x)
        self.w1[:, nz, :] += x[nz][None, :, None] * back[:, None, :]
        self.b1 += back
        self.w2 += top
        self.b2 += gb2

    def apply(self, net: Net, delta: Floats, alpha: float, passes: bool = True) -> None:
        """The weights move by alpha * sum_k delta_k e_k; then the turn passes (not when
        the same side rolls again: a Lurč paš, Z7)."""
        d = (alpha * self._frame(delta)).astype(np.float32)
        net.w1 += np.tensordot(d, self.w1, axes=1)
        net.b1 += d @ self.b1
        net.w2 += np.tensordot(d, self.w2, axes=1)
        net.b2 += d @ self.b2
        if passes:
            self.odd = not self.odd


def play_training_game(net: Net, rng: random.Random, alpha: float, lam: float) -> int:
    """One self-play game, learning as it goes; returns the number of turns."""
    start = variant_named("long").start
    me, opp, side = start, start, WHITE
    x = encode(as_boards([(me, opp)]))
    out, hidden = net.forward(x)
    x, out, hidden = x[0], out[0], hidden[0]
    traces = Traces(net)
    turns = 0
    while True:
        turns += 1
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        cands = ends(me, opp, side, (max(a, b), min(a, b)))
        won = [c for c in cands if c[0][0] == 15]
        traces.step(net, x, hidden, out, lam)
        if won:  # bearing off the last checker is always best (L8)
            mars = any(c[1][0] == 0 for c in won)
            traces.apply(net, np.array([1.0, float(mars), 0.0]) - out, alpha)
            return turns
        xs = encode(as_boards([(o, m) for m, o in cands]))  # the opponent to move
        outs, hiddens = net.forward(xs)
        # the mover's equity is minus the opponent's: 2 win - 1 + win mars - lose mars
        i = int(np.argmin(2 * outs[:, 0] + outs[:, 1] - outs[:, 2]))
        nxt = outs[i]
        traces.apply(net, np.array([1 - nxt[0], nxt[2], nxt[1]]) - out, alpha)
        if turns > 1000:
            return turns
        new_me, new_opp = cands[i]
        me, opp, side = new_opp, new_me, BLACK - side
        x, out, hidden = xs[i], outs[i], hiddens[i]


def train(
    out_path: str, games: int, seed: int, *, resume: bool, hidden: int = 128,
    alpha: float = 0.1, lam: float = 0.7, every: int = 2000, log: TextIO = sys.stdout,
    variant: str = "long", report: int = 100,
    play_game: Callable[[Net, random.Random, float, float], int] | None = None,
) -> int:  # fmt: skip
    """Train to ``games`` games in all, checkpointing to ``out_path`` every ``every``
    games and at the end; prints a progress line every ``report`` games. ``variant``
    picks the net's encoder and outputs, ``play_game`` its self-play (long nardy's by
    default; Lurč's is :func:`engine.evaluator.lurc_train.play_lurc_game`)."""
    path = Path(out_path)
    if resume and path.exists():
        net = Net.load(path)
        alpha, lam = float(net.header["alpha"]), float(net.header["lambda"])  # type: ignore[arg-type]
        seed = int(net.header["seed"])  # type: ignore[call-overload]
        variant = net.variant
    else:
        net = Net.fresh(hidden, seed, variant=variant, alpha=alpha, **{"lambda": lam},
                        seconds=0.0)  # fmt: skip
    play_game = play_game or play_training_game
    done = net.games
    # CPU seconds (the header's "seconds", as docs/analysis.md reports them) and the wall
    # clock's apart: on a shared machine the two differ by the other processes' share
    started, wall_started = time.process_time(), time.perf_counter()
    seconds = float(net.header.get("seconds", 0.0))  # type: ignore[arg-type]
    wall = float(net.header.get("wall_seconds", 0.0))  # type: ignore[arg-type]
    turns = 0
    window = 0
    while done < games:
        rng = random.Random(seed * 1_000_003 + done)
        turns += play_game(net, rng, alpha_at(done, alpha), lam)
        done += 1
        window += 1
        if done % report == 0 or done == games:
            spent = max(time.process_time() - started, 1e-9)
            clock = time.perf_counter() - wall_started
            print(f"games {done}  {window / spent:.1f} games/s (CPU)  {turns / window:.0f} "
                  f"turns/game  alpha {alpha_at(done, alpha):.4f}  cpu {seconds + spent:.0f} s  "
                  f"wall {wall + clock:.0f} s", file=log, flush=True)  # fmt: skip
        if done % every == 0 or done == games:
            net.note_training(games=done, seconds=round(seconds + time.process_time() - started),
                              wall_seconds=round(wall + time.perf_counter() - wall_started),
                              commit=commit_id())  # fmt: skip
            net.save(path)
    return 0
