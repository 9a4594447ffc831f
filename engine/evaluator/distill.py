"""``python -m engine.evaluator.distill``: a game's net trained toward its own 1-ply
values or toward rollouts (long nardy's contact net; Lurč's net), exact values where
they exist.

A position's target (the side to move, before its roll), by default its 1-ply value: the
mean over the 21 rolls (1/36 or 2/36) of the roll's best end, each end judged as the
analysis judges it:

- long nardy (:func:`engine.evaluator.play.outcomes`): a finished game its certain
  result, a bear-off the exact table, a race the race net, a contact position the net
  being trained; the three chances (win, win mars, lose mars). Only contact positions
  are trained: the table and the race net judge the others;
- Lurč (:func:`engine.evaluator.lurc_play.roll_values`): the beam's best end of each
  roll (8 wide, as the luck's), an end after a paš played in full valued with the mover
  to roll again (Z7), a houšek its best paš (Z8); the chance of winning (Z11).

So the net learns the value its own look-ahead gives, with exact values wherever the
game has left contact, instead of the TD self-play's targets of ``engine train`` (its
own 0-ply value one turn later, bear-offs included). A net equal to its 1-ply target is
also consistent from turn to turn, which the luck of a roll needs (``engine
luck-check``). With ``--rollout GAMES`` (long nardy) the target is instead the mean
result of a rollout (:mod:`engine.evaluator.rollout`: the net at 0-ply on both sides,
every first roll as often), truncated after ``--truncate`` turns (0: played out) and
valued there, a game reaching a bear-off stopped at the exact table: it sees further
than one roll, at the price of the dice's noise; with ``--plays K`` each position gives
instead the K best plays of one roll, rolled out on the same dice. ``--workers`` share
the targets out to worker processes (the same targets, each position's dice its own);
``--targets-from`` fits earlier runs' targets again without computing them (with
``--steps 0`` a run only makes targets, all by the net it starts from). ``--anchors``
fits earlier runs' targets (of one kind) beside the run's own, ``--ratio`` of them a
target seen, never computed again: 1-ply targets of the net's own self-play positions
beside rollout targets keep what the net knows of its own games while the rollouts
teach the values of positions those games seldom reach; rollout targets beside a round
of 1-ply targets keep what the rollouts taught. ``--hidden H`` gives the starting net H
hidden units first (the new ones weighing nothing until trained).

The positions come from games of the net the run starts from (``--start``, by default
the shipped one) with noise on its equities (0.05 or 0.12 points). Long nardy: against
itself, the benchmark's own kind of self-play with other seeds, and (``--sources
mixed``, the default) as many games of random movers and of random movers turned into
the noisy net after 10-60 turns; only contact positions, none of the benchmark's. Lurč:
against itself or the heuristic. The run takes the positions a chunk at a time (targets
by the net as it is, then minibatch steps of Adam over every target so far) and then
sweeps: every target computed again by the newer net and trained again. It checkpoints
to ``--out.state.npz`` and ``--out`` after each chunk, each file written whole (a stop
never leaves half of one), and resumes from them; the dice, the positions and the
minibatches are seeded."""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.errors import refused_with_2
from engine.evaluator.advice import evaluate_position
from engine.evaluator.bench_positions import (
    CANDIDATE_SEED,
    CANDIDATES,
    bearoff_settle,
    read_lines,
    selfplay_positions,
)
from engine.evaluator.judge import CONTACT, kind_of
from engine.evaluator.lurc_players import LurcHeuristic, LurcNetPlayer, LurcPlayer
from engine.evaluator.net import Floats, Net, equity, load_net, net_path
from engine.evaluator.npzfile import save_npz
from engine.evaluator.play import ends, outcomes, terminal
from engine.evaluator.players import NetPlayer
from engine.evaluator.race_train import Adam, Weights
from engine.evaluator.rollout import game_results
from engine.evaluator.train import commit_id
from engine.position import Position
from engine.variants import CHECKERS, WHITE, variant_named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

CHUNK = 500
BATCH = 256
NOISES = (0.05, 0.12)
LONG = variant_named("long")

Board = tuple[int, ...]
Spot = tuple[Board, Board, int]  # the mover's board, the opponent's, the mover's side
IntArray = npt.NDArray[np.int64]


def _spot(pos: Position) -> Spot:
    return pos.board(pos.turn), pos.board(1 - pos.turn), pos.turn


def _benchmark_boards() -> set[tuple[Board, Board]]:
    """The benchmark's positions (mover's board, opponent's), which no run trains on."""
    return {_spot(Position.from_json(c["position"]))[:2] for c in read_lines(CANDIDATES)}


def spots_of(boards: IntArray, sides: IntArray) -> list[Spot]:
    """The positions a run's state keeps as arrays (boards (n, 2, 27), sides (n,))."""
    return [(tuple(int(v) for v in b[0]), tuple(int(v) for v in b[1]), int(s))
            for b, s in zip(boards, sides, strict=True)]  # fmt: skip


def _long_games(games: int, seed: int, net: Net, sources: str) -> Iterator[Position]:
    """The positions of the games a long-nardy run learns from: noisy self-play (the
    benchmark's own kind, other seeds); with ``sources="mixed"`` every third game is
    two random movers (as the demo records are played) and every third one random
    movers for 10-60 turns and the noisy net after (the positions a rollout from an
    odd position goes through)."""
    if sources == "selfplay":  # the benchmark's games are those of its own seed
        if seed == CANDIDATE_SEED:
            raise SystemExit(f"seed {CANDIDATE_SEED} plays the benchmark's self-play games")
        yield from (pos for pos, _ in selfplay_positions(games, seed, net))
        return
    for g in range(games):
        if g % 3 == 0:
            played = selfplay_positions(1, seed * 1_000_003 + g, net, key="distill-selfplay")
            yield from (pos for pos, _ in played)
            continue
        rng = random.Random(f"distill-long:{seed}:{g}")
        random_turns = 1000 if g % 3 == 1 else rng.randint(10, 60)
        noisy = NetPlayer(net, noise=rng.choice(NOISES))
        me, opp, side = LONG.start, LONG.start, WHITE
        for turn in range(1000):
            yield Position("long", side, *((me, opp) if side == WHITE else (opp, me)))
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            cands = ends(me, opp, side, (max(a, b), min(a, b)))
            pick = (
                rng.randrange(len(cands)) if turn < random_turns else noisy.choose(cands, side, rng)
            )
            me, opp = cands[pick]
            if terminal(me, opp) is not None:
                break
            me, opp, side = opp, me, 1 - side


def long_positions(games: int, seed: int, net: Net, sources: str = "mixed") -> list[Spot]:
    """The distinct contact positions of ``games`` games (:func:`_long_games`), in the
    order played, leaving out the benchmark's positions."""
    bench = _benchmark_boards()
    seen: set[tuple[Board, Board]] = set()
    found = []
    for pos in _long_games(games, seed, net, sources):
        spot = _spot(pos)
        if spot[:2] in seen or spot[:2] in bench or kind_of(*spot[:2]) != CONTACT:
            continue
        seen.add(spot[:2])
        found.append(spot)
    return found


def lurc_positions(games: int, seed: int, net: Net) -> list[Spot]:
    """The distinct positions of ``games`` games of the noisy net against itself (even
    games) or the heuristic (odd ones), in the order played."""
    seen: set[Spot] = set()
    found = []
    for g in range(games):
        rng = random.Random(f"distill-lurc:{seed}:{g}")
        noisy: list[LurcPlayer] = [LurcNetPlayer(net, noise=n) for n in rng.sample(NOISES, 2)]
        if g % 2:
            noisy[rng.randrange(2)] = LurcHeuristic()
        pos = Position.start("lurc")
        for _ in range(2000):
            spot = _spot(pos)
            if spot not in seen:
                seen.add(spot)
                found.append(spot)
            mover = pos.turn
            pos = noisy[mover].choose(pos, [rng.randint(1, 6), rng.randint(1, 6)], rng).position
            if pos.off(mover) == CHECKERS:
                break
    return found


def play_groups(spots: list[Spot], plays: int, seed: int, net: Net) -> list[Spot]:
    """For each position, one roll drawn from ``seed`` and the position's number, and
    the ``plays`` best plays of it by the net at 0-ply whose ends are contact positions
    (none of the benchmark's), each as the opponent's position before its roll, in order
    of equity; a position whose roll has fewer such plays gives none."""
    bench = _benchmark_boards()
    found: list[Spot] = []
    for i, (me, opp, side) in enumerate(spots):
        rng = random.Random(f"distill-plays:{seed}:{i}")
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        cands = ends(me, opp, side, (max(a, b), min(a, b)))
        eqs = equity(outcomes(net, cands))
        group = []
        for j in np.argsort(-eqs, kind="stable"):
            mine, theirs = cands[j]
            if kind_of(theirs, mine) == CONTACT and (theirs, mine) not in bench:
                group.append((theirs, mine, 1 - side))
            if len(group) == plays:
                found.extend(group)
                break
    return found


class Target(NamedTuple):
    """How a position's target is made: ``games`` = 0 the 1-ply value; else a rollout
    of that many games (every first roll as often: :mod:`engine.evaluator.rollout`),
    truncated after ``truncate`` turns (0: played out) and valued there by the net; a
    game that reaches a bear-off stops there at the exact table's value (as the
    benchmark's rollouts do). ``plays`` > 0: the positions come in groups of that
    many, the best plays of one roll, whose rollouts share their dice (common random
    numbers: what the dice do to all of them cancels from their differences)."""

    games: int = 0
    truncate: int = 0
    plays: int = 0

    def describe(self) -> str:
        """The kind in words (the log, the weights' ``trained``)."""
        if not self.games:
            return "1-ply targets"
        end = f"truncated after {self.truncate} turns" if self.truncate else "played out"
        kind = f"rollouts of {self.games} games {end}, stopped at the bear-off table"
        if self.plays:
            kind += f", the {self.plays} best plays of a roll on the same dice"
        return kind


PLY1 = Target()


def _target_rows(net: Net, variant: str, spots: list[Spot], target: Target,
                 seed: int, first: int) -> list[tuple[float, ...]]:  # fmt: skip
    """The targets of ``spots``, the first of them position ``first`` of its chunk."""
    rows = []
    for k, (me, opp, side) in enumerate(spots, start=first):
        if target.games:
            dice = seed + (k - k % target.plays if target.plays else k)  # a group's alike
            played = game_results(me, opp, range(target.games), seed=dice, side=side,
                                  truncate=target.truncate, reduce=False, net=net,
                                  settle=bearoff_settle)  # fmt: skip
            rows.append(tuple(played.mean(axis=0)))
            continue
        white, black = (me, opp) if side == WHITE else (opp, me)
        c = evaluate_position(Position(variant, side, white, black), ply=0, net=net)
        rows.append((c.win, c.win_mars, c.lose_mars))
    return rows


def cpu_seconds() -> float:
    """The CPU time of this process and of its children that have ended (the workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def targets(net: Net, variant: str, spots: list[Spot], target: Target = PLY1,
            seed: int = 0, workers: int = 1) -> Floats:  # fmt: skip
    """The target chances of each position for its side to move: (win, win mars, lose
    mars) in long nardy, the chance of winning in Lurč (Z11). The 1-ply value is what
    ``engine eval`` gives at 0-ply (:func:`engine.evaluator.advice.evaluate_position`:
    the mean over the 21 rolls of the roll's best end); a rollout's (long nardy) is the
    mean of its games' results, position ``k``'s dice seeded ``seed + k`` (with
    ``target.plays``, its group's first position's), so the targets are the same however
    many ``workers`` (processes) share them."""
    if workers > 1 and len(spots) > 1:
        cuts = np.linspace(0, len(spots), min(workers, len(spots)) * 4 + 1).astype(int)
        parts = [(net, variant, spots[a:b], target, seed, int(a))
                 for a, b in itertools.pairwise(cuts) if b > a]  # fmt: skip
        # spawned, not forked: a fork copies the locks other threads hold (a test
        # runner's, a BLAS pool's) and the child can wait on them for ever
        with mp.get_context("spawn").Pool(workers) as pool:
            rows = [r for part in pool.starmap(_target_rows, parts) for r in part]
    else:
        rows = _target_rows(net, variant, spots, target, seed, 0)
    return np.array(rows)[:, : net.w2.shape[1]]


POSITIONS: dict[str, Callable[[int, int, Net, str], list[Spot]]] = {
    "long": long_positions,
    "lurc": lambda games, seed, net, _sources: lurc_positions(games, seed, net),
}
SOURCES = ("mixed", "selfplay")


def weights(net: Net) -> Weights:
    """The net's arrays by name, for :class:`Adam` (updated in place)."""
    return {"w1": net.w1, "b1": net.b1, "w2": net.w2, "b2": net.b2}


def fit(net: Net, x: Floats, t: Floats, steps: int, opt: Adam, rng: np.random.Generator) -> float:
    """Minibatch steps of cross-entropy of the sigmoid outputs toward ``t``; the mean
    loss of the last minibatch."""
    w = weights(net)
    loss = 0.0
    for _ in range(steps):
        b = rng.choice(len(x), min(BATCH, len(x)), replace=False)
        out, h = net.forward(x[b])
        d2 = ((out - t[b]) / len(b)).astype(np.float32)
        d1 = (d2 @ net.w2.T) * h * (1 - h)
        opt.step(w, {"w1": x[b].T @ d1, "b1": d1.sum(0), "w2": h.T @ d2, "b2": d2.sum(0)})
        p = np.clip(out, 1e-7, 1 - 1e-7)
        loss = float(-(t[b] * np.log(p) + (1 - t[b]) * np.log(1 - p)).sum(1).mean())
    return loss


def target_of(header: dict[str, object]) -> Target:
    """The target kind a run's weights record."""
    return Target(*(int(header.get(key, 0)) for key in ("target_games", "truncate", "plays")))  # type: ignore[call-overload]


def given_targets(runs: list[str], variant: str) -> tuple[list[Spot], IntArray, IntArray,
                                                        Floats, Target, int, str]:  # fmt: skip
    """The positions (as spots, boards and sides), targets, target kind, games and sources
    of earlier runs (their weights; each run's state ``.state.npz`` as far as it got),
    one after the other. They must be runs of ``variant`` with targets of one kind."""
    parts = []
    kinds = set()
    for run in runs:
        head = Net.load(run).header
        if head.get("variant", "long") != variant or "distill_done" not in head:
            raise SystemExit(f"{run} is not a {variant} run of distill")
        kinds.add(target_of(head))
        if not Path(run + ".state.npz").is_file():
            raise SystemExit(f"{run} has no {Path(run).name}.state.npz beside it: no targets")
        with np.load(run + ".state.npz") as st:
            n = min(int(st["done"]), len(st["sides"]))
            parts.append((st["boards"][:n], st["sides"][:n], st["targets"][:n], head))
    if len(kinds) > 1:
        raise SystemExit(f"the runs' targets are of different kinds: {sorted(kinds)}")
    boards = np.concatenate([p[0] for p in parts])
    sides = np.concatenate([p[1] for p in parts])
    spots = spots_of(boards, sides)
    games = sum(int(p[3]["distill_games"]) for p in parts)  # type: ignore[call-overload]
    sources = ", ".join(sorted({str(p[3]["sources"]) for p in parts}))
    return (spots, boards, sides, np.concatenate([p[2] for p in parts]), Target(*kinds.pop()),
            games, sources)  # fmt: skip


Anchors = tuple[IntArray, IntArray, Floats]  # boards, sides, targets


def anchor_set(runs: list[str], variant: str, seed: int) -> Anchors:
    """The boards, sides and targets of earlier runs (:func:`given_targets`: one kind of
    target) in an order drawn with ``seed`` (a run's positions come game by game: the
    first ones of a fit are then of many games)."""
    _spots, boards, sides, t, *_ = given_targets(runs, variant)
    order = np.random.default_rng(seed).permutation(len(sides))
    return boards[order], sides[order], t[order]


def _no_anchors(net: Net, boards: IntArray) -> Anchors:
    """No anchors: empty arrays of the state's shapes."""
    return (np.zeros((0, *boards.shape[1:]), np.int64), np.zeros(0, np.int64),
            np.zeros((0, net.w2.shape[1])))  # fmt: skip


def _with_anchors(x: Floats, t: Floats, xa: Floats, ta: Floats) -> tuple[Floats, Floats]:
    """The inputs and targets of a fit with the anchors after the run's own (no copy
    without anchors)."""
    if not len(xa):
        return x, t
    return np.concatenate([x, xa]), np.concatenate([t, ta])


def _new_anchors(runs: list[str], ratio: float, net: Net, boards: IntArray, seed: int) -> Anchors:
    """A new run's anchors (:func:`anchor_set`; none without ``runs``), named in the
    net's header."""
    if not runs:
        return _no_anchors(net, boards)
    if not 0 < ratio <= 100:
        raise SystemExit(f"--ratio {ratio}: anchors a target, more than 0, at most 100")
    found = anchor_set(runs, net.variant, seed)
    net.header.update(anchors_from=", ".join(Path(f).name for f in runs),
                      anchors_given=len(found[1]), anchor_ratio=ratio)  # fmt: skip
    return found


def _kept_anchors(st: np.lib.npyio.NpzFile, net: Net, boards: IntArray) -> Anchors:
    """A resumed run's anchors, from its state (none in a run of before them)."""
    if "anchor_sides" not in st.files:
        return _no_anchors(net, boards)
    return st["anchor_boards"], st["anchor_sides"], st["anchor_targets"]


# what the run that trained a net took beside its own positions: a new run starting from
# that net has its own (a resume reads them from the header)
RUN_KEYS = ("targets_from", "targets_given", "anchors_from", "anchors_given", "anchor_ratio")
MAX_HIDDEN = 4096  # a net's hidden layer, bounded (the shipped nets have 64-128 units)


def _start_net(start: str | None, variant: str, hidden: int, seed: int) -> Net:
    """The net a new run starts from (the shipped one without ``start``), with ``hidden``
    hidden units (0: as it is), without the given targets and anchors of the run that
    trained it (:data:`RUN_KEYS`)."""
    net = load_net(start or net_path(variant))
    if net.variant != variant:
        raise SystemExit(f"{start} is a {net.variant} net, not {variant}")
    for key in RUN_KEYS:
        net.header.pop(key, None)
    if hidden > MAX_HIDDEN:
        raise SystemExit(f"--hidden {hidden}: at most {MAX_HIDDEN} hidden units")
    try:
        return net.with_hidden(hidden, seed) if hidden else net
    except ValueError as e:
        raise SystemExit(f"--hidden {hidden}: {e}") from None


def distill(out: str, *, variant: str, seed: int, games: int, resume: bool, sweeps: int = 1,
            lr: float = 1e-4, steps: int = 200, sources: str = "mixed", target: Target = PLY1,
            start: str | None = None, workers: int = 1, targets_from: list[str] | None = None,
            anchors: list[str] | None = None, ratio: float = 1.0, hidden: int = 0,
            log: TextIO = sys.stdout) -> int:  # fmt: skip
    """The whole run (resumable): the first pass over the positions, then ``sweeps``
    sweeps of every target by the net as it is (a resumed run with more sweeps goes on;
    its positions, sources, targets, seed, learning rate and steps are the first run's,
    from the state and the weights' header). ``start``: the weights to start from
    (default: the shipped net). ``targets_from``: earlier runs' weights, whose
    positions and targets (:func:`given_targets`) are the first pass's, fitted without
    computing them again (sweeps compute them anew). ``anchors``: earlier runs' targets
    (:func:`anchor_set`), never computed again, fitted beside the run's: after each
    chunk the first ``ratio`` of them a target seen. ``hidden``: the starting net given
    that many hidden units first (:meth:`Net.with_hidden`; 0: as it is)."""
    path, state_path = Path(out), Path(out + ".state.npz")
    cpu, wall = cpu_seconds(), time.perf_counter()
    if resume and state_path.exists():
        net = Net.load(path)
        with np.load(state_path) as st:
            boards, sides, t_all = st["boards"], st["sides"], st["targets"]
            done, spent = int(st["done"]), float(st["cpu"])
            a_boards, a_sides, a_t = _kept_anchors(st, net, boards)
        spots = spots_of(boards, sides)
        variant = net.variant
        # the run's own settings, whatever the command line says (the dice, the
        # minibatches and the steps go on as they began), from the chunk both files reached
        head = net.header
        done = min(done, int(head.get("distill_done", done)))  # type: ignore[call-overload]
        seed, games = int(head["distill_seed"]), int(head["distill_games"])  # type: ignore[call-overload]
        lr, steps = float(head["distill_lr"]), int(head["distill_steps"])  # type: ignore[arg-type, call-overload]
        target = target_of(head)
        given = int(head.get("targets_given", 0))  # type: ignore[call-overload]
        ratio = float(head.get("anchor_ratio", 0.0))  # type: ignore[arg-type]
    else:
        if target.games and variant_named(variant).rolls_again:
            raise SystemExit("rollout targets are long nardy's (Lurč has no rollouts)")
        if target.plays and (target.plays < 0 or not target.games or CHUNK % target.plays):
            raise SystemExit(f"--plays is for rollout targets, a divisor of {CHUNK}")
        net = _start_net(start, variant, hidden, seed)
        given = 0
        if targets_from:
            spots, boards, sides, t_all, target, games, sources = given_targets(
                targets_from, variant
            )
            given = len(spots)
            names = ", ".join(Path(f).name for f in targets_from)
            net.header.update(targets_from=names, targets_given=given)
        else:
            spots = POSITIONS[variant](games, seed, net, sources)
            if target.plays:
                spots = play_groups(spots, target.plays, seed, net)
            boards = np.array([s[:2] for s in spots], dtype=np.int64)
            sides = np.array([s[2] for s in spots], dtype=np.int64)
            t_all = np.zeros((len(spots), net.w2.shape[1]))
        a_boards, a_sides, a_t = _new_anchors(anchors or [], ratio, net, boards, seed)
        done, spent = 0, 0.0
        kind = target.describe()
        net.header.update(base_games=net.games, trained=kind, sources=sources,
                          target_games=target.games, truncate=target.truncate,
                          plays=target.plays)  # fmt: skip
        print(f"{variant}: {len(spots)} positions ({games} games, {sources}), seed {seed}, "
              f"{kind}, from {Path(start).name if start else net_path(variant).name} "
              f"({net.games} games)"
              + (f", the targets of {names}" if targets_from else ""),
              file=log, flush=True)  # fmt: skip
    x_all = net.inputs_of([s[:2] for s in spots]).astype(np.float32)
    x_anchor = (net.inputs_of([s[:2] for s in spots_of(a_boards, a_sides)]).astype(np.float32)
                if len(a_sides) else x_all[:0])  # fmt: skip
    opt = Adam(weights(net), lr)
    rng = np.random.default_rng(seed * 1_000_003 + done)
    total = (1 + sweeps) * len(spots)
    while done < total:
        lo = done % len(spots)
        hi = min(lo + CHUNK, len(spots))
        if done >= given:  # a given first pass's targets are taken as they are
            t_all[lo:hi] = targets(net, variant, spots[lo:hi], target, seed * 1_000_003 + done,
                                   workers)  # fmt: skip
        done += hi - lo
        seen = len(spots) if done > len(spots) else done
        n_anchor = min(len(a_sides), round(seen * ratio))
        x, t = _with_anchors(x_all[:seen], t_all[:seen], x_anchor[:n_anchor], a_t[:n_anchor])
        loss = fit(net, x, t, steps, opt, rng)
        used = spent + cpu_seconds() - cpu
        print(f"{done} of {total}  loss {loss:.4f}  cpu {used:.0f} s  "
              f"wall {time.perf_counter() - wall:.0f} s", file=log, flush=True)  # fmt: skip
        # the base net's own keys (its TD seed, games and CPU seconds) stay as they were
        net.note_training(distill_seed=seed, distill_games=games, distill_sweeps=sweeps,
                          distill_lr=lr, distill_steps=steps, distill_done=done,
                          distill_seconds=round(used), distill_commit=commit_id())  # fmt: skip
        # the state (the targets) first, then the weights: a stop between the two leaves
        # a state ahead of the weights, and the resume goes on from the weights' chunk
        save_npz(state_path, boards=boards, sides=sides, done=done, targets=t_all, cpu=used,
                 anchor_boards=a_boards, anchor_sides=a_sides, anchor_targets=a_t)  # fmt: skip
        net.save(path)
    return 0


@refused_with_2  # e.g. a --start that is not a weights file: said, not a traceback
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m engine.evaluator.distill",
        description="train a game's net toward its own 1-ply values or rollouts (docs/analysis.md)",
    )
    p.add_argument("--variant", choices=sorted(POSITIONS), default="long")
    p.add_argument("--out", required=True, help="the weights (and OUT.state.npz to resume)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=600, help="games to take positions from")
    p.add_argument("--sweeps", type=int, default=1, help="sweeps after the first pass")
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--steps", type=int, default=200, help="minibatch steps after each chunk")
    p.add_argument(
        "--sources",
        choices=SOURCES,
        default="mixed",
        help="long nardy: noisy self-play alone, or mixed with random movers' games",
    )
    p.add_argument(
        "--rollout",
        type=int,
        default=0,
        metavar="GAMES",
        help="long nardy: targets by rollouts of GAMES games (0: the 1-ply value)",
    )
    p.add_argument("--truncate", type=int, default=10, help="the rollouts' turns (0: played out)")
    p.add_argument(
        "--plays",
        type=int,
        default=0,
        metavar="K",
        help="rollouts: each position gives the K best plays of a roll, on the same dice",
    )
    p.add_argument("--start", help="the weights to start from (default: the shipped net)")
    p.add_argument(
        "--targets-from",
        metavar="WEIGHTS",
        nargs="+",
        help="earlier runs' weights: their positions and targets, not computed again",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes computing the targets (the same targets however many)",
    )
    p.add_argument(
        "--anchors",
        metavar="WEIGHTS",
        nargs="+",
        help="earlier runs' targets (one kind), fitted beside this run's, never computed again",
    )
    p.add_argument("--ratio", type=float, default=1.0, help="anchors fitted a target seen")
    p.add_argument(
        "--hidden", type=int, default=0, help="hidden units to give the starting net (0: as it is)"
    )
    p.add_argument("--resume", action="store_true")
    a = p.parse_args(argv)
    return distill(a.out, variant=a.variant, seed=a.seed, games=a.games, resume=a.resume,
                   sweeps=a.sweeps, lr=a.lr, steps=a.steps, sources=a.sources,
                   target=Target(a.rollout, a.truncate if a.rollout else 0, a.plays),
                   start=a.start, workers=a.workers, targets_from=a.targets_from,
                   anchors=a.anchors, ratio=a.ratio, hidden=a.hidden)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
