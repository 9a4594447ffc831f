"""A decision rolled out, as gnubg rolls out a move's candidates: plays of one roll in
one position (the played one and the best alternatives by 0-ply) each rolled out on
the same dice (one seed: the same games for every play), reported for the side that
plays them, with each play's difference from the first (docs/analysis.md, "Rollouts
on a game's page").

>>> from engine.position import Position
>>> start = Position.start("long")
>>> [c.moves for c in decision_candidates(start, (6, 5), most=2)]  # one checker off the head (L4)
['24/18/13']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.evaluator.advice import hint_plays
from engine.evaluator.bench_positions import bearoff_settle
from engine.evaluator.net import Floats, Net, equity, load_net, net_path
from engine.evaluator.rollout import RolloutResult, game_results, summary
from engine.notation import read_records
from engine.position import Position
from engine.replay import replay
from engine.rules import Rules
from engine.variants import CHECKERS

BLOCK = 36  # games a step: each block rolls each first roll once (rollout.first_roll)
Step = tuple[int, range]  # a candidate's index and the numbers of its games played in a step


@dataclass(frozen=True, slots=True)
class Candidate:
    """A play of the decision: its canonical movetext and the position it reaches."""

    moves: str
    position: Position


@dataclass(frozen=True, slots=True)
class CandidateRollout:
    """A candidate's rollout, for the side that played it, and its equity's difference
    from the first candidate's with the standard error of that difference (game by game
    on the same dice)."""

    moves: str
    result: RolloutResult
    diff: float
    diff_se: float

    def to_json(self) -> dict[str, object]:
        gap = {"diff": round(self.diff, 4), "diff_mp": round(1000 * self.diff),
               "diff_se_mp": round(1000 * self.diff_se)}  # fmt: skip
        return {"moves": self.moves, **self.result.to_json(), **gap}


def _net(position: Position) -> Net:
    name = position.rules_variant.evaluator
    if name is None:  # decision_candidates has refused it (advice-no-evaluator)
        raise ValueError(f"{position.rules_variant.title} has no evaluator")
    return load_net(net_path(name))


def decision_candidates(
    position: Position, dice: Sequence[int], *, rules: Rules | None = None, most: int = 4,
    played: Position | None = None, net: Net | None = None,
) -> list[Candidate]:  # fmt: skip
    """The ``most`` best plays of ``dice`` by 0-ply (one a position reached), and the play
    that reached ``played`` if it is not among them (then ``most`` + 1 plays)."""
    rules = rules or Rules()
    # hint_plays refuses what it cannot judge: another variant, a finished game, a bad roll
    hints = hint_plays(position, list(dice), ply=0, rules=rules, net=net)
    seen: dict[Position, Candidate] = {}
    for h in hints:
        seen.setdefault(h.position, Candidate(h.moves, h.position))
    ranked = list(seen.values())
    chosen = ranked[:most]
    if played is not None and played in seen and seen[played] not in chosen:
        chosen.append(seen[played])
    return chosen


@dataclass(frozen=True, slots=True)
class Decision:
    """A turn of a game as a decision: the position before the roll, the roll, the
    rules, the candidates (:func:`decision_candidates`) and which of them was played
    (None: an irregular turn, no legal play)."""

    position: Position
    dice: tuple[int, int]
    rules: Rules
    candidates: tuple[Candidate, ...]
    played: str | None


def game_decision(record: str, index: int, *, most: int = 4) -> Decision:
    """The decision of the ``index``-th turn with dice (0 first, as the analysis counts
    them) of the record's first game; :class:`ValueError` when there is none."""
    games = read_records(record)
    if not games:
        raise ValueError("no game in the record")
    played = replay(games[0], check_result=False)
    turns = [p for p in played.played if p.action.kind == "turn" and p.action.dice is not None]
    if not 0 <= index < len(turns):
        raise ValueError(f"the game has no turn {index}")
    turn = turns[index]
    assert turn.action.dice is not None
    a, b = turn.action.dice
    cands = decision_candidates(turn.before, (a, b), rules=played.rules, most=most,
                                played=turn.after)  # fmt: skip
    mine = next((c.moves for c in cands if c.position == turn.after), None)
    return Decision(turn.before, (a, b), played.rules, tuple(cands), mine)


def rollout_decision(
    position: Position, candidates: Sequence[Candidate], *, games: int, seed: int,
    truncate: int = 0, rules: Rules | None = None, net: Net | None = None,
    steps: Callable[[list[Step]], Iterable[Step]] | None = None,
) -> list[CandidateRollout]:  # fmt: skip
    """Roll out each candidate ``games`` games (a multiple of 36 is best) on the same
    dice, the net playing both sides at 0-ply and the bear-off database ending the games
    it can. The work is done in steps of at most 36 games (a candidate, its games), and
    ``steps`` may wrap their list to follow it (a progress bar)."""
    rules = rules or Rules()
    net = net or _net(position)
    side = position.turn
    blocks = [range(lo, min(games, lo + BLOCK)) for lo in range(0, games, BLOCK)]
    todo: list[Step] = [(k, numbers) for k in range(len(candidates)) for numbers in blocks]
    parts: list[list[Floats]] = [[] for _ in candidates]
    for k, numbers in steps(todo) if steps is not None else todo:
        after = candidates[k].position
        if after.off(side) == CHECKERS:  # the play ends the game (L8): its result is sure
            mars = rules.mars and after.off(1 - side) == 0
            parts[k].append(np.tile([1.0, 1.0 if mars else 0.0, 0.0], (len(numbers), 1)))
            continue
        # the opponent moves next: its results, seen from the other side, are the play's
        theirs = game_results(
            after.board(1 - side), after.board(side), numbers, seed=seed, truncate=truncate,
            side=1 - side, reduce=False, net=net, settle=bearoff_settle, rules=rules,
        )  # fmt: skip
        parts[k].append(np.stack([1 - theirs[:, 0], theirs[:, 2], theirs[:, 1]], axis=1))
    rows = [np.concatenate(p) if p else np.zeros((0, 3)) for p in parts]
    first = equity(rows[0]) if rows else np.zeros(0)
    out: list[CandidateRollout] = []
    for cand, mine in zip(candidates, rows, strict=True):
        gap = equity(mine) - first
        se = float(np.std(gap, ddof=1) / math.sqrt(len(gap))) if len(gap) > 1 else 0.0
        out.append(CandidateRollout(cand.moves, summary(mine, False, truncate),
                                    float(gap.mean()), se))  # fmt: skip
    return out
