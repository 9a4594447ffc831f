"""The long-nardy benchmark (docs/analysis.md, "Benchmark"): positions from real games and
self-play, each rolled out by the net until the standard error is under 20 mp, shipped
in ``engine/evaluator/benchmark/``, and a scorer of an evaluator against them.

- ``candidates.jsonl``: the positions (drawn by :func:`candidate_positions`, seeded),
  in the order they are rolled out;
- ``long_positions.jsonl``: one line per position rolled out, appended as each
  finishes (:func:`run_rollouts` resumes where the file stops).

A position's phase: ``bearoff`` (both sides' checkers all on points 1-6 or off),
``race`` (no contact: each side's checkers all on its points 1-12, which the other has
passed, L3) or ``contact``.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from engine.evaluator.bearoff import is_bearoff, load_bearoff
from engine.evaluator.net import Floats, Net, load_net
from engine.evaluator.play import ends, position_equity0, terminal
from engine.evaluator.players import NetPlayer
from engine.evaluator.rollout import game_results, summary
from engine.notation import read_records
from engine.position import Position
from engine.replay import replay
from engine.variants import variant_named

HERE = Path(__file__).with_name("benchmark")
CANDIDATES = HERE / "candidates.jsonl"
ROLLED = HERE / "long_positions.jsonl"
DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"
SE_TARGET = 0.020  # points: each position is rolled out until its standard error is below
CHUNK = 720  # games added at a time (a multiple of 36: whole blocks of first rolls)
MAX_GAMES = 14_400
PHASES = ("contact", "race", "bearoff")

Board = tuple[int, ...]


CANDIDATE_SEED = 33  # the shipped candidates were drawn by candidate_positions(300, 33)


def phase(me: Board, opp: Board) -> str:
    """``bearoff``, ``race`` or ``contact`` (module docstring)."""
    if not any(me[7:25]) and not any(opp[7:25]):
        return "bearoff"
    if not any(me[13:25]) and not any(opp[13:25]):
        return "race"
    return "contact"


def _record_positions(paths: Iterable[Path]) -> list[tuple[Position, str]]:
    found = []
    for path in paths:
        for number, record in enumerate(read_records(path.read_text(encoding="utf-8")), 1):
            if variant_named(record.variant).evaluator != "long":  # the long-nardy net's games
                continue
            done = replay(record, check_result=False)
            if done.error is not None:
                continue
            for p in done.played:
                if p.action.kind == "turn":
                    found.append((p.before, f"{path.name} game {number} turn {p.number}"))
    return found


def selfplay_positions(games: int, seed: int, net: Net, key: str = "bench-selfplay"
                       ) -> list[tuple[Position, str]]:  # fmt: skip
    """Positions of games of the net against itself with noise on its equities (the
    intermediate and casual levels), so that they are not only the net's own lines.
    Game ``g``'s dice and noise come from ``key``, ``seed`` and ``g``."""
    start = variant_named("long").start
    found = []
    for g in range(games):
        rng = random.Random(f"{key}:{seed}:{g}")
        players = [NetPlayer(net, noise=noise) for noise in rng.sample([0.05, 0.12], 2)]
        me, opp, side = start, start, 0
        for turn in range(1000):
            pos = Position("long", side, *((me, opp) if side == 0 else (opp, me)))
            found.append((pos, f"self-play {seed}:{g} turn {turn}"))
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            cands = ends(me, opp, side, (max(a, b), min(a, b)))
            me, opp = cands[players[side].choose(cands, side, rng)]
            if terminal(me, opp) is not None:
                break
            me, opp, side = opp, me, 1 - side
    return found


def candidate_positions(count: int, seed: int, net: Net | None = None) -> list[dict[str, object]]:
    """``count`` distinct positions, two thirds from the demo records and a third from
    self-play, drawn with ``seed``; the first turns of a game (nothing decided yet) and
    finished games are left out. Each: id, source, phase and the position's JSON."""
    net = net or load_net()
    rng = random.Random(seed)
    pools = [
        _record_positions(sorted(DEMO.glob("*.nrd"))),
        selfplay_positions(60, seed, net),
    ]
    wanted = [count - count // 3, count // 3]
    seen: set[tuple[Board, Board]] = set()
    out: list[dict[str, object]] = []
    for pool, want in zip(pools, wanted, strict=True):
        rng.shuffle(pool)
        taken = 0
        for pos, source in pool:
            me, opp = pos.board(pos.turn), pos.board(1 - pos.turn)
            if taken == want or (me, opp) in seen or me[0] == 15 or opp[0] == 15:
                continue
            if me[24] + opp[24] > 24:  # the opening: both heads still (almost) full
                continue
            seen.add((me, opp))
            out.append({"source": source, "phase": phase(me, opp), "position": pos.to_json()})
            taken += 1
    rng.shuffle(out)
    return [{"id": i, **c} for i, c in enumerate(out)]


def read_lines(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def bearoff_settle(me: Board, opp: Board) -> Floats | None:
    """The bear-off database's chances where both sides bear off (a rollout stops
    there, as gnubg's do at its bear-off database), else None."""
    if not is_bearoff(me, opp):
        return None
    out: Floats = load_bearoff().outputs([(me, opp)])[0]
    return out


def roll_out_position(pos: Position, seed: int, net: Net | None = None,
                      se_target: float = SE_TARGET, max_games: int = MAX_GAMES,
                      ) -> dict[str, object]:  # fmt: skip
    """A plain rollout (no luck adjustment: it costs more than it saves with this net,
    docs/analysis.md) in chunks of :data:`CHUNK` games until the standard error is
    below ``se_target`` or ``max_games`` are played; the games stop at the bear-off
    database."""
    me, opp = pos.board(pos.turn), pos.board(1 - pos.turn)
    parts: list[Floats] = []
    games = 0
    while True:
        parts.append(game_results(me, opp, range(games, games + CHUNK), seed=seed,
                                  side=pos.turn, reduce=False, net=net,
                                  settle=bearoff_settle))  # fmt: skip
        games += CHUNK
        result = summary(np.concatenate(parts), False, 0)
        if result.se < se_target or games >= max_games:
            return result.to_json()


def run_rollouts(limit: int | None = None, *, candidates: Path = CANDIDATES,
                 out: Path = ROLLED, seed: int = 33, log: Callable[[str], None] = print,
                 net: Net | None = None) -> int:  # fmt: skip
    """Roll out the candidates not yet in ``out``, in order, appending each line as it
    finishes (resumable); the seed of position ``id`` is ``seed * 100_003 + id``. The
    games are played by ``net`` (the shipped one by default), whose name each line
    keeps (``player``)."""
    done = {int(str(line["id"])) for line in read_lines(out)}
    net = net or load_net()
    count = 0
    for cand in read_lines(candidates):
        ident = int(str(cand["id"]))
        if ident in done:
            continue
        if limit is not None and count >= limit:
            break
        started = time.process_time()
        pos = Position.from_json(cand["position"])
        rolled = roll_out_position(pos, seed * 100_003 + ident, net)
        line = {**cand, "seed": seed * 100_003 + ident, "rollout": rolled, "player": net.label,
                "cpu_s": round(time.process_time() - started, 1)}  # fmt: skip
        with out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
        count += 1
        log(f"{ident} {cand['phase']} {rolled['equity_mp']} mp se {rolled['se_mp']} "
            f"games {rolled['games']} cpu {line['cpu_s']} s")  # fmt: skip
    return count


def score(evaluate: Callable[[Position], float], path: Path = ROLLED) -> dict[str, object]:
    """The rms and mean error in mp of ``evaluate`` (equity for the side to move, before
    its roll) against the rollouts of ``path``, in all and by phase."""
    errors: dict[str, list[float]] = {p: [] for p in PHASES}
    for line in read_lines(path):
        pos = Position.from_json(line["position"])
        rollout = line["rollout"]
        assert isinstance(rollout, dict)
        errors[str(line["phase"])].append(1000 * (evaluate(pos) - float(rollout["equity"])))
    every = [e for p in PHASES for e in errors[p]]
    return {"all": _figures(every), **{p: _figures(errors[p]) for p in PHASES}}


def _figures(errors: list[float]) -> dict[str, object]:
    if not errors:
        return {"positions": 0}
    a = np.array(errors)
    return {"positions": len(errors), "rms_mp": round(math.sqrt(float(np.mean(a * a))), 1),
            "mean_mp": round(float(a.mean()), 1),
            "max_mp": round(float(np.abs(a).max()), 1)}  # fmt: skip


def net_evaluator(net: Net | None = None) -> Callable[[Position], float]:
    """The net at 0-ply as an evaluator of a position for the side to move."""
    used = net or load_net()
    return lambda pos: position_equity0(used, pos.board(pos.turn), pos.board(1 - pos.turn))
