"""The JSON-lines queries of ``python -m engine legal`` and ``bot``: one line
``{"position": ..., "dice": [a, b], "rules": {...}}`` read into engine values, and a
legal turn written as one element of ``legal``'s ``"turns"``."""

from __future__ import annotations

import json

from engine.errors import EngineError
from engine.movegen import Turn
from engine.position import Position
from engine.variants import Rules


class QueryError(EngineError):
    """A query line that is not a query (bad JSON, missing or unknown keys)."""

    code = "bad-query"


def read_query(line: str) -> tuple[Position, object, Rules]:
    """The position, the dice (checked later, by the move generator) and the rules of a
    query line; :class:`EngineError` with a plain message when it is not one."""
    try:
        query = json.loads(line)
    except json.JSONDecodeError as exc:
        raise QueryError(
            f"not a JSON object: {exc.msg} at column {exc.colno}",
            code="query-not-json",
            params={"reason": exc.msg, "column": exc.colno},
        ) from None
    except RecursionError:
        raise QueryError("not a JSON object: nested too deeply", code="query-too-deep") from None
    if not isinstance(query, dict):
        raise QueryError(
            'a query is a JSON object with "position" and "dice"', code="query-not-object"
        )
    unknown = set(query) - {"position", "dice", "rules"}
    if unknown:
        key = sorted(unknown)[0]
        raise QueryError(
            f"unknown key {key!r} in the query", code="query-unknown-key", params={"key": key}
        )
    if "position" not in query or "dice" not in query:
        raise QueryError('a query needs "position" and "dice"', code="query-missing-key")
    position = Position.from_json(query["position"])
    rules = Rules.from_options(query.get("rules") or {})
    return position, query["dice"], rules


def turn_json(t: Turn) -> dict[str, object]:
    """A legal turn as ``legal`` lists it: ``{"moves": ..., "position": ...}``."""
    answer: dict[str, object] = {"moves": t.notation, "position": t.position.to_json()}
    if t.pas is not None:
        answer["pas"] = list(t.pas)  # the paš chosen after a Lurč houšek (Z8)
    return answer
