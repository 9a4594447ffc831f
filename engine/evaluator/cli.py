"""``python -m engine duel|bot|analyse|eval|hint|bearoff-build`` (docs/analysis.md): the
evaluator's commands."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence

from engine.analysis import analyse_game
from engine.errors import EngineError, refused_with_2
from engine.evaluator.advice_cli import cmd_advice
from engine.evaluator.bearoff_build import build
from engine.evaluator.bot import bot_turn
from engine.evaluator.consistency import cmd_luck_check
from engine.evaluator.duel import duel
from engine.evaluator.levels import LEVELS
from engine.evaluator.lurc_cli import cmd_luck_share, cmd_lurc_duel
from engine.evaluator.players import player_named
from engine.evaluator.rollout_cli import run as run_rollout
from engine.notation import read_records
from engine.queries import read_query, turn_json
from engine.replay import replay

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


@refused_with_2
def cmd_duel(a: str, b: str, games: int, seed: int, ply: int, out: TextIO) -> int:
    first, second = player_named(a, ply), player_named(b, ply)
    result = duel(first, second, games, seed)
    print(result.line(a, b), file=out)
    return 0


def answer_bot_query(line: str, level: str, rng: random.Random) -> dict[str, object]:
    """The bot's turn for one query line (as ``legal`` reads them): one element of
    ``legal``'s ``"turns"``, or ``{"error": ...}``."""
    try:
        position, dice, rules = read_query(line)
        return turn_json(bot_turn(position, dice, level, rng, rules))
    except EngineError as exc:
        return {"error": str(exc)}


def cmd_bot(level: str, seed: int, inp: TextIO, out: TextIO) -> int:
    if level not in LEVELS:
        print(f"unknown level {level!r} (known: {', '.join(LEVELS)})", file=sys.stderr)
        return 2
    rng = random.Random(seed)
    for line in inp:
        if line.strip():
            answer = answer_bot_query(line, level, rng)
            print(json.dumps(answer, separators=(",", ":")), file=out)
            out.flush()
    return 0


def cmd_analyse(paths: Sequence[str], ply: int, out: TextIO) -> int:
    status = 0
    number = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                records = read_records(f.read())
        except (OSError, UnicodeDecodeError) as exc:
            print(f"cannot read {path}: {exc}", file=sys.stderr)
            return 2
        except EngineError as exc:
            print(f"{path}: {exc.describe()}", file=sys.stderr)
            status = 1
            continue
        for record in records:
            number += 1
            try:
                analysis = analyse_game(replay(record, check_result=False), ply=ply)
            except EngineError as exc:
                print(f"{path}: game {number}: {exc.describe()}", file=sys.stderr)
                status = 1
                continue
            print(json.dumps(analysis.to_json(number), separators=(",", ":")), file=out)
    return status


def run(args: object) -> int | None:
    """Run a command of this module (None: not one of them)."""
    command = getattr(args, "command", None)
    a = args
    duel_of = {"lurc": cmd_lurc_duel}.get(getattr(a, "variant", "long"))
    if command == "duel" and duel_of is not None:
        return duel_of(a.a, a.b, a.games, a.seed, sys.stdout)  # type: ignore[attr-defined]
    if command == "duel":
        return cmd_duel(a.a, a.b, a.games, a.seed, a.ply, sys.stdout)  # type: ignore[attr-defined]
    if command == "bot":
        return cmd_bot(a.level, a.seed, sys.stdin, sys.stdout)  # type: ignore[attr-defined]
    if command == "analyse":
        return cmd_analyse(a.files, a.ply, sys.stdout)  # type: ignore[attr-defined]
    if command in ("eval", "hint"):
        return cmd_advice(command, a.ply, sys.stdin, sys.stdout)  # type: ignore[attr-defined]
    if command == "luck-share":
        share_args = (a.variant, a.games, a.seed)  # type: ignore[attr-defined]
        return cmd_luck_share(*share_args, sys.stdout, a.pairs, a.part)  # type: ignore[attr-defined]
    if command == "bearoff-build":
        return build(a.out)  # type: ignore[attr-defined]
    if command == "luck-check":
        check_args = (a.games, a.seed, a.ply, sys.stdout, a.net, a.play_ply)  # type: ignore[attr-defined]
        return cmd_luck_check(*check_args)
    if command in ("rollout", "benchmark"):
        return run_rollout(a)
    return None
