"""The one application error: a user's mistake, shown as a form message or an HTTP 400."""

from __future__ import annotations


class ResultError(ValueError):
    """A result, record or action that cannot be accepted; nothing was changed.

    ``field`` names the input at fault (for forms); ``line`` and ``col`` locate a problem
    inside a record."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        line: int | None = None,
        col: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.message = message
        self.field = field
        self.line = line
        self.col = col
        self.rule = rule
        super().__init__(message)


class PermissionDenied(ResultError):
    """The user may not do this (e.g. correct a result without being a director)."""


class Conflict(ResultError):
    """Somebody else changed the same thing first (HTTP 409): ``current`` says what is
    there now, so that nothing is lost silently."""

    def __init__(self, message: str, *, current: object = None, field: str | None = None):
        super().__init__(message, field=field)
        self.current = current
