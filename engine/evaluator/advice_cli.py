"""``python -m engine eval|hint`` (docs/analysis.md): JSON lines in, one answer line out
for each, as ``legal`` reads them. A line is a position (NOTATION.md section 2) or a
query ``{"position": ..., "dice": [6, 4], "rules": {...}}``; ``eval`` takes the dice as
optional (with them it answers for that roll's best play, without them for the side to
move before its roll), ``hint`` needs them. A line that is not one answers
``{"error": ...}``."""

from __future__ import annotations

import json

from engine.errors import EngineError
from engine.evaluator.advice import evaluate_position, evaluate_roll, hint_json, hint_plays
from engine.queries import read_advice_query

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


def answer_eval(line: str, ply: int) -> dict[str, object]:
    """``eval``'s answer to one line: the chances and equity of the side to move (before
    its roll, or for the roll given: its best play's)."""
    try:
        position, dice, rules = read_advice_query(line, need_dice=False)
        if dice is None:
            chances = evaluate_position(position, ply=ply, rules=rules)
            return {"ply": ply, **chances.to_json()}
        chances = evaluate_roll(position, dice, ply=ply, rules=rules)
        return {"ply": ply, "dice": dice, **chances.to_json()}
    except EngineError as exc:
        return {"error": str(exc)}


def answer_hint(line: str, ply: int) -> dict[str, object]:
    """``hint``'s answer to one line: the plays of its dice ranked."""
    try:
        position, dice, rules = read_advice_query(line, need_dice=True)
        return {"ply": ply, **hint_json(hint_plays(position, dice, ply=ply, rules=rules))}
    except EngineError as exc:
        return {"error": str(exc)}


def cmd_advice(command: str, ply: int, inp: TextIO, out: TextIO) -> int:
    answer = answer_eval if command == "eval" else answer_hint
    for line in inp:
        if line.strip():
            print(json.dumps(answer(line, ply), separators=(",", ":")), file=out)
            out.flush()
    return 0
