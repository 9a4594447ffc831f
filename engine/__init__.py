"""A rules engine for long nardy, short backgammon and (soon) Lurč.

Pure Python, no Django. The public API::

    from engine import read_records, replay, verify_text, legal_turns, Position, Rules

    games = read_records(text)          # parse a .nrd file (RecordSyntaxError)
    result = replay(games[0])           # Replay: .ok, .error, .outcome, .played
    for turn in legal_turns(Position.start("long"), [6, 4]):
        print(turn.notation, turn.position.to_json())
    print(render(result.position))      # a text diagram
"""

from engine import _blas  # noqa: F401  (first: one BLAS thread, before numpy)
from engine.errors import (
    DiceError,
    EngineError,
    IllegalTurnError,
    PositionError,
    RecordSyntaxError,
    RulesError,
    VerificationError,
)
from engine.movegen import Turn, legal_turns
from engine.moves import Step, write_steps
from engine.notation import GameRecord, read_records
from engine.position import MAX_CUBE, Cube, Position, render
from engine.replay import (
    Outcome,
    Replay,
    format_text,
    play,
    replay,
    rules_from_record,
    verify,
    verify_text,
)
from engine.rules import RULE_OPTIONS, WIN_POINTS
from engine.variants import BLACK, SIDE_NAMES, WHITE, Rules, first_mover

__all__ = [
    "BLACK",
    "MAX_CUBE",
    "RULE_OPTIONS",
    "SIDE_NAMES",
    "WHITE",
    "WIN_POINTS",
    "Cube",
    "DiceError",
    "EngineError",
    "GameRecord",
    "IllegalTurnError",
    "Outcome",
    "Position",
    "PositionError",
    "RecordSyntaxError",
    "Replay",
    "Rules",
    "RulesError",
    "Step",
    "Turn",
    "VerificationError",
    "first_mover",
    "format_text",
    "legal_turns",
    "play",
    "read_records",
    "render",
    "replay",
    "rules_from_record",
    "verify",
    "verify_text",
    "write_steps",
]
