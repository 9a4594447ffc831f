"""The JSON-lines queries of the engine's commands, read in one place: ``legal`` and
``bot`` (``{"position": ..., "dice": [a, b], "rules": {...}}``), ``eval`` and ``hint``
(the same, or a bare position; the dice optional for ``eval``) and ``rollout`` (a
position, or a play of it: ``"dice"`` with ``"moves"``). Each reader gives engine values
or raises :class:`QueryError` with a plain message and its code; a legal turn is written
as one element of ``legal``'s ``"turns"``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.movegen import Turn
from engine.position import Position
from engine.variants import Rules

MOVES_MAX = 200  # the longest movetext a rollout query may name


class QueryError(EngineError):
    """A query line that is not a query (bad JSON, missing or unknown keys)."""

    code = "bad-query"


def _json(line: str) -> object:
    """The line's JSON value (any: the caller says what it wanted)."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise QueryError(
            f"not a JSON object: {exc.msg} at column {exc.colno}",
            code="query-not-json",
            params={"reason": exc.msg, "column": exc.colno},
        ) from None
    except RecursionError:
        raise QueryError("not a JSON object: nested too deeply", code="query-too-deep") from None


def _known_keys(query: dict[str, object], allowed: frozenset[str]) -> None:
    unknown = set(query) - allowed
    if unknown:
        key = sorted(unknown)[0]
        raise QueryError(
            f"unknown key {key!r} in the query", code="query-unknown-key", params={"key": key}
        )


def _position_rules(query: dict[str, Any]) -> tuple[Position, Rules]:
    position = Position.from_json(query["position"])
    return position, Rules.from_options(query.get("rules") or {})


def read_query(line: str) -> tuple[Position, object, Rules]:
    """``legal``'s and ``bot``'s line: the position, the dice (checked later, by the move
    generator) and the rules; :class:`EngineError` with a plain message when it is not
    one."""
    query = _json(line)
    if not isinstance(query, dict):
        raise QueryError(
            'a query is a JSON object with "position" and "dice"', code="query-not-object"
        )
    _known_keys(query, frozenset({"position", "dice", "rules"}))
    if "position" not in query or "dice" not in query:
        raise QueryError('a query needs "position" and "dice"', code="query-missing-key")
    position, rules = _position_rules(query)
    return position, query["dice"], rules


def read_advice_query(line: str, *, need_dice: bool) -> tuple[Position, object | None, Rules]:
    """``eval``'s and ``hint``'s line (a bare position too): the position, the dice (None
    when absent; checked by the move generator) and the rules."""
    query = _json(line)
    if isinstance(query, dict) and "variant" in query:
        query = {"position": query}
    if not isinstance(query, dict):
        raise QueryError('a line is a position or an object with "position" (and "dice")',
                         code="advice-not-object")  # fmt: skip
    _known_keys(query, frozenset({"position", "dice", "rules"}))
    if "position" not in query or (need_dice and "dice" not in query):
        wanted = '"position" and "dice"' if need_dice else '"position"'
        raise QueryError(f"a query needs {wanted}", code="advice-missing-key",
                         params={"wanted": wanted})  # fmt: skip
    position, rules = _position_rules(query)
    return position, query.get("dice"), rules


@dataclass(frozen=True, slots=True)
class RolloutQuery:
    """A rollout's line: the position, its rules and the play to roll out, if any
    (``dice`` and ``moves`` as given: :func:`play_text` checks them, once the command
    knows that the variant has an evaluator)."""

    position: Position
    rules: Rules
    has_play: bool
    dice: object
    moves: object


def read_rollout_query(line: str) -> RolloutQuery:
    """``rollout``'s line: a position, or with ``"dice"`` and ``"moves"`` a play of it."""
    query = _json(line)
    if not isinstance(query, dict):
        raise QueryError('a query is a JSON object with "position"', code="rollout-not-object")
    _known_keys(query, frozenset({"position", "rules", "dice", "moves"}))
    if "position" not in query:
        raise QueryError('a query needs "position"', code="rollout-missing-key")
    if ("dice" in query) != ("moves" in query):
        raise QueryError('a play needs both "dice" and "moves"', code="query-play")
    position, rules = _position_rules(query)
    return RolloutQuery(position, rules, "dice" in query, query.get("dice"), query.get("moves"))


def play_text(dice: object, moves: object) -> str:
    """A play given as ``[6, 4]`` and ``"24/18/14"`` written as a record's turn."""
    if (
        not isinstance(dice, list)
        or len(dice) != 2
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        raise QueryError('"dice" are two numbers 1-6, e.g. [6, 4]', code="query-dice")
    if not isinstance(moves, str) or len(moves) > MOVES_MAX:
        raise QueryError('"moves" is the play as movetext, e.g. "24/18/14"', code="query-moves")
    return f"{dice[0]}{dice[1]}: {moves}"


def turn_json(t: Turn) -> dict[str, object]:
    """A legal turn as ``legal`` lists it: ``{"moves": ..., "position": ...}``."""
    answer: dict[str, object] = {"moves": t.notation, "position": t.position.to_json()}
    if t.pas is not None:
        answer["pas"] = list(t.pas)  # the paš chosen after a Lurč houšek (Z8)
    return answer
