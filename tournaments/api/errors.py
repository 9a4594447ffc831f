# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""The one place where application errors become HTTP answers (STYLE.md 3).

``ResultError`` -> 400 with its place (field, line, col, rule), ``PermissionDenied`` ->
403, ``Conflict`` -> 409 with the current value. A race that the database's constraints
catch (IntegrityError) is a 409 too: a user's error is never a 500."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from tournaments.api.schema import ApiSchema
from tournaments.services.errors import Conflict, PermissionDenied, ResultError


def error_status(exc: ResultError) -> int:
    if isinstance(exc, PermissionDenied):
        return status.HTTP_403_FORBIDDEN
    if isinstance(exc, Conflict):
        return status.HTTP_409_CONFLICT
    return status.HTTP_400_BAD_REQUEST


def error_body(exc: ResultError) -> dict[str, Any]:
    if isinstance(exc, Conflict):
        return {"detail": exc.message, "field": exc.field, "current": exc.current}
    if isinstance(exc, PermissionDenied):
        return {"detail": exc.message}
    return {
        "detail": exc.message,
        "field": exc.field,
        "line": exc.line,
        "col": exc.col,
        "rule": exc.rule,
    }


def error_response(exc: ResultError) -> Response:
    return Response(error_body(exc), status=error_status(exc))


def invalid_input(exc: ValidationError) -> Response:
    """DRF's field errors in the same shape as the services' errors, the fields' messages
    in ``errors``."""
    detail = exc.detail
    field = None
    message = "invalid input"
    if isinstance(detail, dict) and detail:
        field = str(next(iter(detail)))
        first = detail[field]
        first = first[0] if isinstance(first, list) and first else first
        message = f"{field}: {first}" if not isinstance(first, dict) else f"{field}: invalid"
    elif isinstance(detail, list) and detail:
        message = str(detail[0])
    body = {"detail": message, "field": field, "line": None, "col": None, "rule": None,
            "errors": detail}  # fmt: skip
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


class ServiceErrorsMixin:
    """Mixed into every API view: the services' errors answered as 400/403/409, input
    errors in the same shape, and the schema that documents them."""

    schema = ApiSchema()

    def handle_exception(self, exc: Exception) -> Any:
        if isinstance(exc, ResultError):
            return error_response(exc)
        if isinstance(exc, ValidationError):
            return invalid_input(exc)
        if isinstance(exc, IntegrityError):
            return Response(
                {"detail": "this conflicts with data saved meanwhile; reload and try again",
                 "current": None},
                status=status.HTTP_409_CONFLICT,
            )  # fmt: skip
        return super().handle_exception(exc)  # type: ignore[misc]
