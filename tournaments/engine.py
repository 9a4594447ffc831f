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
from engine.errors import RecordTooLargeError
from engine.limits import LIMIT_NAMES, UNLIMITED, ReadLimits
from engine.matfile import read_mat, write_mat
from engine.notation import GameRecord, split_games, write_tags
from engine.replay import PlayedAction, outcome_for
from engine.rules import RULE_OPTIONS, WIN_POINTS, AnyRuleOption, OneOf, OnOff
from engine.stats import FACES, GameStats, PlayerStats, record_stats
from engine.variants import BAR, OFF, SIDE_NAMES, START, variant_named
from engine.variants import Variant as GameVariant


def evaluator_of(variant: GameVariant) -> str | None:
    """The name of the evaluator that judges the variant's games, None where there is
    none (the variant declares it)."""
    return getattr(variant, "evaluator", None) or None


def analyse_record(record: str) -> dict[str, Any]:
    """The evaluator's analysis of a game's record, in the shape of ``python -m engine
    analyse``'s line: ``white``/``black`` summaries and ``turns``."""
    raise EngineError("no evaluator is shipped yet")


__all__ = [
    "BAR",
    "BLACK",
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
    "EngineError",
    "GameRecord",
    "GameStats",
    "GameVariant",
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
    "analyse_record",
    "evaluator_of",
    "outcome_for",
    "read_mat",
    "read_records",
    "record_stats",
    "replay",
    "split_games",
    "variant_named",
    "verify_text",
    "write_mat",
    "write_tags",
]
