# mypy: disallow-subclassing-any=False
"""The API's JSON parser: a body is one JSON object, nested at most ``max_depth`` deep.

Python's json module recurses once per level, so a body nested 100,000 deep raised
RecursionError (a 500); and every endpoint takes an object, so a list or a number at the
top is refused here once rather than crashing a view that calls ``request.data.get``."""

from __future__ import annotations

import codecs
import re
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings
from rest_framework.utils import json

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


class ObjectJSONParser(JSONParser):
    """JSONParser for bodies that are one JSON object, nested at most ``max_depth``."""

    max_depth = 32

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - the body is not {encoding} text") from exc
        if json_depth_exceeds(text, self.max_depth):
            raise ParseError(f"JSON parse error - nested deeper than {self.max_depth} levels")
        try:
            parse_constant = json.strict_constant if api_settings.STRICT_JSON else None
            data = json.loads(text, parse_constant=parse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        if not isinstance(data, dict):
            raise ParseError("JSON parse error - the body must be a JSON object")
        return data
