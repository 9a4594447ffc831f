"""A damaged archive's refusal in the reader's language: where in the archive the import
stopped (the tournament's settings, a player, an entry, a series, a game) and what was
wrong there - a field missing, a value of the wrong type or not valid, a rule of the
database broken - never Python's or the database's own text."""

from __future__ import annotations

from decimal import InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError
from django.utils.translation import gettext, gettext_lazy

from tournaments.services.errors import ApplicationError

PLACES = {
    "settings": gettext_lazy("the tournament's settings"),
    "club": gettext_lazy("club %(name)s"),
    "player": gettext_lazy("player %(ref)s"),
    "entry": gettext_lazy("the entry of player %(ref)s"),
    "pair": gettext_lazy("a prohibited pair"),
    "round": gettext_lazy("round %(number)s"),
    "series": gettext_lazy("series %(ref)s"),
    "game": gettext_lazy("series %(series)s, game %(number)s"),
}
# the errors a malformed archive raises in the importer: each is the archive's fault
DAMAGE = (
    KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
    InvalidOperation, ValidationError, IntegrityError, DataError,
)  # fmt: skip


class Place:
    """Where the importer is in the archive (the last ``at`` called)."""

    def __init__(self) -> None:
        self.where = ""
        self.params: dict[str, Any] = {}

    def at(self, where: str, **params: Any) -> None:
        self.where, self.params = where, {k: _short(v) for k, v in params.items()}

    def text(self) -> str:
        if not self.where:
            return ""
        return str(PLACES[self.where]) % self.params


def _short(value: Any) -> str:
    text = (
        repr(value) if not isinstance(value, int | str) or isinstance(value, bool) else str(value)
    )
    return text if len(text) <= 40 else text[:39] + "…"


def _reason(exc: BaseException) -> tuple[str, dict[str, Any], str]:
    """What was wrong, as a translatable text, its parameters and a code."""
    if isinstance(exc, KeyError):
        return (
            gettext("the field “%(field)s” is missing"),
            {"field": _short(exc.args[0])},
            "missing",
        )
    if isinstance(exc, TypeError | AttributeError | IndexError):
        return gettext("a value has the wrong type"), {}, "type"
    if isinstance(exc, ValidationError):
        said = ApplicationError.from_validation(exc)
        fields = sorted(getattr(exc, "error_dict", {}))
        if fields:  # which of the archive's fields, as it names them
            return (
                gettext("the field “%(field)s”: %(message)s"),
                {"field": ", ".join(fields), "message": said.message},
                "invalid",
            )
        return "%(message)s", {"message": said.message}, "invalid"
    if isinstance(exc, IntegrityError):
        from tournaments.api.errors import CONSTRAINT_MESSAGES, _constraint

        name, _race = _constraint(exc)
        message = CONSTRAINT_MESSAGES.get(name or "")
        if message is not None:
            return "%(message)s", {"message": str(message)}, name or "inconsistent"
        return gettext("it contradicts itself or the data on the site"), {}, "inconsistent"
    if isinstance(exc, DataError | OverflowError):
        return gettext("a number or a text is too large"), {}, "too-large"
    return gettext("a value is not valid"), {}, "invalid"


def archive_damage(exc: BaseException, place: Place) -> ApplicationError:
    """The refusal of an archive the importer could not read: translated and specific."""
    reason, params, kind = _reason(exc)
    text = reason % params if params else reason
    where = place.text()
    # one code a message; what was wrong is the params' ``kind`` (missing, type, ...)
    if where:
        return ApplicationError(
            gettext("the archive is damaged at %(place)s: %(reason)s"),
            code="archive-damaged-at",
            params={"place": where, "reason": text, "kind": kind}, field="file",
        )  # fmt: skip
    return ApplicationError(
        gettext("the archive is damaged: %(reason)s"),
        code="archive-damaged", params={"reason": text, "kind": kind}, field="file",
    )  # fmt: skip
