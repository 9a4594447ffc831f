"""The one JSON reader of every door (API bodies and files, the jobs' uploads, the pages,
the commands): text that is JSON, nested at most ``JSON_MAX_DEPTH`` deep, whose top is
an object, or a ApplicationError saying which of these it is not (a 400, a form message, a
failed job or a command's error, in the user's language).

Python's json module recurses once per level, so text nested 100,000 deep raised
RecursionError (a 500, a job "stopped on an internal error"); the depth is counted
first, in linear time and without recursion."""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.translation import gettext

from tournaments.services.errors import ApplicationError

# deep enough for every archive and body the site writes (an archive nests 7 levels)
JSON_MAX_DEPTH = 32

# a JSON string (its brackets do not nest), written to match in linear time
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether arrays and objects in ``text`` nest deeper than ``limit``.

    >>> json_depth_exceeds('{"a": [[1]], "b": "[[[["}', 3)
    False
    >>> json_depth_exceeds("[" * 4 + "]" * 4, 3)
    True
    """
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def json_read(
    text: str | bytes, *, field: str | None = "file", max_depth: int = JSON_MAX_DEPTH
) -> dict[str, Any]:
    """The JSON object in ``text`` (bytes are read as UTF-8, a byte order mark dropped).

    Refused, with nothing read: text that is not UTF-8 (``not-utf8``) or holds a NUL
    character (``nul-character``), nested deeper than
    ``max_depth`` (``json-too-deep``), not JSON or holding NaN or Infinity, which JSON
    lacks (``not-json``), or whose top is not an object (``json-not-object``).

    >>> json_read('{"a": [1, {"b": null}]}')
    {'a': [1, {'b': None}]}
    """
    from tournaments.services.imports import upload_text  # imports reads records, not JSON

    text = upload_text(text, field=field)
    if json_depth_exceeds(text, max_depth):
        raise ApplicationError(
            gettext("the JSON is nested deeper than %(limit)s levels"),
            code="json-too-deep",
            params={"limit": max_depth},
            field=field,
        )
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # RecursionError: a guard, never seen
        raise ApplicationError(
            gettext("the file is not JSON: %(reason)s"),
            code="not-json",
            params={"reason": str(exc)},
            field=field,
        ) from None
    if not isinstance(data, dict):
        raise ApplicationError(
            gettext("the JSON must be an object: {...}"),
            code="json-not-object",
            field=field,
        )
    return data


__all__ = ["JSON_MAX_DEPTH", "json_depth_exceeds", "json_read"]
