"""The app's one door to the engine: every module of ``tournaments`` imports what it
needs of ``engine`` from here, never from ``engine`` or its submodules (a test scans
the app for it: tests/tournaments/test_architecture.py). When the engine's modules
change, this file is the only place in the app that follows."""

from __future__ import annotations

from typing import Any

from engine import (
    BLACK,
    WHITE,
    EngineError,
    Outcome,
    Position,
    RecordSyntaxError,
    Replay,
    Rules,
    read_records,
    replay,
    verify_text,
)
from engine.dice import combined_client_seed, fair_roll, new_server_seed, seed_hash
from engine.dicecheck import DiceVerdict, check_dice_text, dice_tags
from engine.errors import RecordTooLargeError
from engine.evaluator.bot import (
    BotState,
    bot_dice,
    bot_legal_turns,
    bot_may_double,
    bot_pas_choices,
    bot_record_cube,
    bot_record_resigned,
    bot_record_start,
    bot_record_with,
    bot_rng,
    bot_state,
    bot_turn,
)
from engine.evaluator.decision import Decision, game_decision, rollout_decision
from engine.evaluator.levels import DEFAULT_LEVEL as BOT_DEFAULT_LEVEL
from engine.evaluator.levels import LEVELS as BOT_LEVELS
from engine.evaluator.luck_share import LuckShare
from engine.evaluator.luck_share import share as luck_share_of
from engine.limits import LIMIT_NAMES, UNLIMITED, ReadLimits
from engine.matfile import read_mat, write_mat
from engine.movegen import Turn, legal_turns
from engine.notation import (
    GameRecord,
    WrittenAction,
    dice_text,
    split_games,
    write_movetext,
    write_tags,
)
from engine.replay import PlayedAction, outcome_for, rules_from_record
from engine.rules import RULE_OPTIONS, WIN_POINTS, AnyRuleOption, OneOf, OnOff
from engine.stats import FACES, GameStats, PlayerStats, record_stats
from engine.turnsteps import TurnSteps, offers_steps, turn_steps
from engine.variants import BAR, CHECKERS, OFF, SIDE_NAMES, START, variant_named
from engine.variants import Variant as GameVariant
from engine.viewpoint import movetext_for, point_for


def evaluator_of(variant: GameVariant) -> str | None:
    """The name of the evaluator that judges the variant's games, None where there is
    none (the variant declares it)."""
    return variant.evaluator


def analyse_record(record: str, *, ply: int = 0, confirm: bool = False) -> dict[str, Any]:
    """The evaluator's analysis of a game's record (its first game): ``white`` and
    ``black`` as ``python -m engine analyse`` prints them, ``turns`` with each turn's
    ``index``, ``turn``, ``side``, ``dice``, ``played``, ``best``, ``error``, ``luck``
    (mp), ``mark`` (doubtful, bad, very_bad or None), ``forced``, ``equity`` (the mover's
    equity after the play, mp) and ``best_position`` (JSON), and ``evaluator`` (the
    weights' name, games and commit). With ``confirm`` (the background jobs) a bad play
    is rolled out against the best and ``mark`` follows the rollout where it finds less;
    ``rollout`` is its error (mp, None when not rolled out). Engine errors are raised
    (NoEvaluatorError too)."""
    from engine.analysis import analyse_game
    from engine.evaluator.net import load_net, net_path

    done = analyse_game(record, ply=ply, confirm=confirm)
    variant = variant_named(read_records(record)[0].variant)
    assert variant.evaluator is not None  # analyse_game raised otherwise
    name = load_net(net_path(variant.evaluator)).label
    turns = [
        t.to_json() | {
            "index": t.index, "forced": t.forced, "mark": t.mark, "rollout": t.rollout_mp,
            "equity": t.equity_after_mp, "best_position": t.best_position.to_json(),
        } for t in done.turns
    ]  # fmt: skip
    return {"white": done.white.to_json(), "black": done.black.to_json(), "turns": turns,
            "evaluator": name, "ply": done.ply}  # fmt: skip


__all__ = [
    "BAR",
    "BLACK",
    "BOT_DEFAULT_LEVEL",
    "BOT_LEVELS",
    "CHECKERS",
    "FACES",
    "LIMIT_NAMES",
    "OFF",
    "RULE_OPTIONS",
    "SIDE_NAMES",
    "START",
    "UNLIMITED",
    "WHITE",
    "WIN_POINTS",
    "AnyRuleOption",
    "BotState",
    "Decision",
    "DiceVerdict",
    "EngineError",
    "GameRecord",
    "GameStats",
    "GameVariant",
    "LuckShare",
    "OnOff",
    "OneOf",
    "Outcome",
    "PlayedAction",
    "PlayerStats",
    "Position",
    "ReadLimits",
    "RecordSyntaxError",
    "RecordTooLargeError",
    "Replay",
    "Rules",
    "Turn",
    "TurnSteps",
    "WrittenAction",
    "analyse_record",
    "bot_dice",
    "bot_legal_turns",
    "bot_may_double",
    "bot_pas_choices",
    "bot_record_cube",
    "bot_record_resigned",
    "bot_record_start",
    "bot_record_with",
    "bot_rng",
    "bot_state",
    "bot_turn",
    "check_dice_text",
    "combined_client_seed",
    "dice_tags",
    "dice_text",
    "evaluator_of",
    "fair_roll",
    "game_decision",
    "legal_turns",
    "luck_share_of",
    "movetext_for",
    "new_server_seed",
    "offers_steps",
    "outcome_for",
    "point_for",
    "read_mat",
    "read_records",
    "record_stats",
    "replay",
    "rollout_decision",
    "rules_from_record",
    "seed_hash",
    "split_games",
    "turn_steps",
    "variant_named",
    "verify_text",
    "write_mat",
    "write_movetext",
    "write_tags",
]
