# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
# mypy: disallow-untyped-calls=False
"""The OpenAPI description of the errors every endpoint may answer, so that the schema
tells clients (and schemathesis) the whole truth."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

from tournaments.api.serializers import ConflictOutput, ErrorOutput

WRITES = ("POST", "PUT", "PATCH", "DELETE")


class ApiSchema(AutoSchema):
    """Adds 400, 403 and 404 (any operation: invalid filters or input, not allowed, not
    found or not visible, a page out of range) and 409 (writes) where not described."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = dict(super()._get_response_bodies(direction))
        extra: dict[str, Any] = {"400": ErrorOutput, "403": ErrorOutput, "404": ErrorOutput}
        if self.method in WRITES:
            extra["409"] = ConflictOutput
        for code, serializer in extra.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    serializer, code, ["application/json"], direction
                )
        return responses
