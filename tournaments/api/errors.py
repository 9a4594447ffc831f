# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""The one place where application errors become HTTP answers (STYLE.md 3).

``ApplicationError`` -> 400 with its place (field, line, col, rule), ``PermissionDenied`` ->
403, ``Conflict`` -> 409 with the current value; an engine error -> 400. A race that the
database's uniqueness catches (IntegrityError) is a 409, a refused value (a check
constraint, a number out of range) a 400, both in words: a user's error is never a 500.

Every body has ``detail`` (the text, in the request's language: Accept-Language), ``code``
(a stable string naming the refusal) and ``params`` (the values the text names)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.schemas.inspectors import ViewInspector
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.api.schema import ApiSchema
from tournaments.engine import EngineError
from tournaments.jobs.runner import TooManyJobs
from tournaments.services.errors import ApplicationError, Conflict, PermissionDenied
from tournaments.services.records import RecordTooLarge


def error_status(exc: ApplicationError) -> int:
    if isinstance(exc, TooManyJobs):
        return status.HTTP_429_TOO_MANY_REQUESTS
    if isinstance(exc, RecordTooLarge):
        return status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    if isinstance(exc, PermissionDenied):
        return status.HTTP_403_FORBIDDEN
    if isinstance(exc, Conflict):
        return status.HTTP_409_CONFLICT
    return status.HTTP_400_BAD_REQUEST


def error_body(exc: ApplicationError) -> dict[str, Any]:
    said = {"detail": exc.message, "code": exc.code, "params": exc.params}
    if isinstance(exc, Conflict):
        return {**said, "field": exc.field, "current": exc.current}
    if isinstance(exc, PermissionDenied):
        return said
    body = {
        **said,
        "field": exc.field,
        "line": exc.line,
        "col": exc.col,
        "rule": exc.rule,
    }
    warnings = getattr(exc, "warnings", None)  # NeedsConfirmation: what the change alters
    if warnings is not None:
        body["warnings"] = warnings
    return body


def error_response(exc: ApplicationError) -> Response:
    return Response(error_body(exc), status=error_status(exc))


def invalid_input(exc: ValidationError) -> Response:
    """DRF's field errors in the same shape as the services' errors, the fields' messages
    in ``errors``."""
    detail = exc.detail
    field = None
    message = gettext("invalid input")
    code = "invalid-input"
    if isinstance(detail, dict) and detail:
        field = str(next(iter(detail)))
        first = detail[field]
        first = first[0] if isinstance(first, list) and first else first
        code = getattr(first, "code", None) or code
        message = gettext("%(field)s: %(message)s") % {
            "field": field,
            "message": first if not isinstance(first, dict) else gettext("invalid"),
        }
    elif isinstance(detail, list) and detail:
        message = str(detail[0])
        code = getattr(detail[0], "code", None) or code
    body = {"detail": message, "code": code, "params": {"field": field}, "field": field,
            "line": None, "col": None, "rule": None, "errors": detail}  # fmt: skip
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


# Readable words for the database constraints a race (or a door without a service
# check) can still hit; the raw constraint name is never shown.
CONSTRAINT_MESSAGES = {
    "entry_once": gettext_lazy("the player is already registered"),
    "round_number_once": gettext_lazy("a round with this number exists already"),
    "player_unique_name_in_club": gettext_lazy("a player of this name is already in the club"),
    "prohibited_once": gettext_lazy("this pair is already prohibited"),
    "tournament_series_length_positive": gettext_lazy(
        "A series is at least one point or game long."
    ),
    "tournament_ends_after_start": gettext_lazy("The tournament ends before it starts."),
    "player_rating_positive": gettext_lazy("a rating is positive"),
    "round_number_positive": gettext_lazy("a round's number is positive"),
    "prohibited_two_players": gettext_lazy("a prohibited pair is two different players"),
}
CONFLICT = gettext_lazy("this conflicts with data saved meanwhile; reload and try again")
IN_USE = gettext_lazy("this is still used elsewhere and cannot be deleted")
NOT_ALLOWED = gettext_lazy("a value is not allowed")
TOO_LARGE = gettext_lazy("a value is too large or too long")


def _said(message: object, code: str, **params: Any) -> dict[str, Any]:
    return {"detail": str(message), "code": code, "params": params}


def _constraint(exc: IntegrityError) -> tuple[str | None, bool]:
    """The constraint's name (if the driver tells it) and whether it is a uniqueness or
    foreign key, a race with another write (409), rather than a refused value (400)."""
    cause = exc.__cause__
    diag = getattr(cause, "diag", None)
    name = getattr(diag, "constraint_name", None)
    text = str(exc)
    if name is None:
        name = next((n for n in CONSTRAINT_MESSAGES if n in text), None)
    race = type(cause).__name__ in ("UniqueViolation", "ForeignKeyViolation") or text.startswith(
        ("UNIQUE constraint", "FOREIGN KEY constraint")
    )
    return name, race


def integrity_response(exc: IntegrityError) -> Response:
    if isinstance(exc, ProtectedError | RestrictedError):
        return Response({**_said(IN_USE, "in-use"), "current": None},
                        status=status.HTTP_409_CONFLICT)  # fmt: skip
    name, race = _constraint(exc)
    message = CONSTRAINT_MESSAGES.get(name or "")
    # the constraint's name is the code: stable, and what the database refused
    if race:
        said = _said(message, name or "", constraint=name) if message else _said(
            CONFLICT, "conflict", constraint=name
        )  # fmt: skip
        return Response({**said, "current": None}, status=status.HTTP_409_CONFLICT)
    said = _said(message, name or "", constraint=name) if message else _said(
        NOT_ALLOWED, "not-allowed", constraint=name
    )  # fmt: skip
    body = {**said, "field": None, "line": None, "col": None, "rule": None}
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def simple_400(
    message: str, code: str = "invalid", params: dict[str, Any] | None = None
) -> Response:
    body = {"detail": message, "code": code, "params": params or {}, "field": None,
            "line": None, "col": None, "rule": None}  # fmt: skip
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler for the whole API: the services' and the engine's user
    errors, invalid input and the database's refusals are 4xx answers with a readable
    ``detail``; anything else is DRF's (or a bug: 500)."""
    if isinstance(exc, ApplicationError):
        return error_response(exc)
    if isinstance(exc, ValidationError):
        return invalid_input(exc)
    if isinstance(exc, EngineError):
        return error_response(ApplicationError.from_engine(exc))
    if isinstance(exc, DjangoValidationError):
        return error_response(ApplicationError.from_validation(exc))
    if isinstance(exc, IntegrityError):
        return integrity_response(exc)
    if isinstance(exc, DataError):  # a value out of the column's range or too long
        return simple_400(str(TOO_LARGE), "too-large")
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "code" not in response.data:
        # DRF's own refusals (not signed in, not found, throttled) get a code too
        codes = exc.get_codes() if isinstance(exc, APIException) else None
        if isinstance(exc, Http404):
            codes = "not_found"
        elif isinstance(exc, DjangoPermissionDenied):
            codes = "permission_denied"
        code = codes if isinstance(codes, str) else "error"
        response.data = {**response.data, "code": code.replace("_", "-"), "params": {}}
    return response


class ServiceErrorsMixin:
    """Mixed into every API view: errors answered by ``exception_handler`` (also set as
    REST_FRAMEWORK's EXCEPTION_HANDLER), and the schema that documents them."""

    schema: ViewInspector | None = ApiSchema()

    def get_exception_handler(self) -> Any:
        return exception_handler
