# mypy: disallow-subclassing-any=False
"""The API's JSON parser: a body is one JSON object, read by the one JSON reader
(services/json_input.py) with the limits every door has; a refusal is a 400 with its
code (``json-too-deep``, ``not-json``, ``json-not-object``)."""

from __future__ import annotations

import codecs
from typing import Any

from django.utils.translation import gettext
from rest_framework.parsers import JSONParser

from tournaments.services.errors import ApplicationError
from tournaments.services.json_input import JSON_MAX_DEPTH, json_read


class ObjectJSONParser(JSONParser):
    """JSONParser for bodies that are one JSON object, nested at most ``max_depth``."""

    max_depth = JSON_MAX_DEPTH

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (UnicodeDecodeError, LookupError):
            raise ApplicationError(
                gettext("the body is not %(encoding)s text"),
                code="body-not-text",
                params={"encoding": encoding},
            ) from None
        return json_read(text, field=None, max_depth=self.max_depth)
