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
from engine.position import Position
from engine.queries import QueryError
from engine.variants import Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


def read_advice_query(line: str, *, need_dice: bool) -> tuple[Position, object | None, Rules]:
    """The position, the dice (None when absent; checked by the move generator) and the
    rules of one line; :class:`EngineError` with a plain message when it is not one."""
    try:
        query = json.loads(line)
    except json.JSONDecodeError as exc:
        raise QueryError(f"not a JSON object: {exc.msg} at column {exc.colno}",
                         code="query-not-json",
                         params={"reason": exc.msg, "column": exc.colno}) from None  # fmt: skip
    except RecursionError:
        raise QueryError("not a JSON object: nested too deeply", code="query-too-deep") from None
    if isinstance(query, dict) and "variant" in query:
        query = {"position": query}
    if not isinstance(query, dict):
        raise QueryError('a line is a position or an object with "position" (and "dice")',
                         code="advice-not-object")  # fmt: skip
    unknown = set(query) - {"position", "dice", "rules"}
    if unknown:
        key = sorted(unknown)[0]
        raise QueryError(f"unknown key {key!r} in the query", code="query-unknown-key",
                         params={"key": key})  # fmt: skip
    if "position" not in query or (need_dice and "dice" not in query):
        wanted = '"position" and "dice"' if need_dice else '"position"'
        raise QueryError(f"a query needs {wanted}", code="advice-missing-key",
                         params={"wanted": wanted})  # fmt: skip
    position = Position.from_json(query["position"])
    rules = Rules.from_options(query.get("rules") or {})
    return position, query.get("dice"), rules


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
