"""The one application error: a user's mistake, shown as a form message or an HTTP 400.

Every error carries, beside its text, a stable ``code`` (``"game-out-of-order"``) and the
``params`` its text names (docs/architecture.md), so that an API client or a test can tell refusals
apart without reading words. The text is a gettext message with named parameters, said
in the language active when the error is raised::

    raise ApplicationError(
        _("game %(number)s cannot be entered before game %(expected)s"),
        code="game-out-of-order", params={"number": 3, "expected": 2}, field="number",
    )

Parameters that are words (a status, a colour) are passed already translated (the
models' ``get_*_display``), so that no message mixes languages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.wording.engine_errors import engine_message

if TYPE_CHECKING:
    from django.core.exceptions import ValidationError as DjangoValidationError

    from tournaments.engine import EngineError
    from tournaments.pairing import PairingError


def plain(value: object) -> object:
    """A parameter as plain JSON data: numbers, booleans and None stay, anything else
    (a lazy translation, a player) becomes its text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return str(value)


class ApplicationError(ValueError):
    """A request that cannot be accepted (a result, record, club, invitation, setting...);
    nothing was changed. Named ResultError until the other doors used it too.

    ``message`` is the translated text, ``params`` filled in; ``code`` a stable string
    naming the refusal; ``field`` names the input at fault (for forms); ``line`` and
    ``col`` locate a problem inside a record; ``rule`` is a rule id of RULES.md."""

    code = "invalid"  # the class's code when the raiser names none

    def __init__(
        self,
        message: str | Promise,
        *,
        code: str | None = None,
        params: dict[str, Any] | None = None,
        field: str | None = None,
        line: int | None = None,
        col: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.params: dict[str, Any] = {k: plain(v) for k, v in (params or {}).items()}
        # The parameters are filled in here, once: a text that came with none is used as
        # it is, so that a '%' in it (a player's name) is never read as a placeholder.
        text = str(message)
        self.message = text % self.params if self.params else text
        if code is not None:
            self.code = code
        self.field = field
        self.line = line
        self.col = col
        self.rule = rule
        # an engine error's own data (code, params, rule, turn), to say it again later
        # in another language (a game's verification note); None for the app's errors
        self.engine: dict[str, Any] | None = None
        super().__init__(self.message)

    @classmethod
    def from_engine(
        cls, exc: EngineError, *, field: str | None = None, located: bool = True
    ) -> ApplicationError:
        """The engine's refusal as an application error, with the engine's code, params,
        rule and place. The text is the engine's, said by the app's one translation of
        engine errors (``engine_messages.engine_message``)."""
        error = cls(
            engine_message(exc, located=False),
            code=exc.code,
            field=field,
            line=exc.line if located else None,
            col=exc.col if located else None,
            rule=exc.rule,
        )
        error.params = {k: plain(v) for k, v in exc.params.items()}
        error.engine = {
            "code": exc.code, "params": error.params, "rule": exc.rule,
            **{key: plain(getattr(exc, key, None)) for key in ("turn", "side", "dice", "text")},
        }  # fmt: skip
        return error

    @classmethod
    def from_validation(
        cls, exc: DjangoValidationError, *, field: str | None = None
    ) -> ApplicationError:
        """Django's validation error (a model's or a validator's, translated by Django) as
        an application error: its first message, its code (``invalid`` when it has none)
        and params; the field is the first one named, unless ``field`` is given."""
        if hasattr(exc, "error_dict"):
            name, errors = next(iter(exc.error_dict.items()))
            field = field or (None if name == "__all__" else name)
        else:
            errors = exc.error_list
        first = errors[0]
        error = cls(" ".join(str(m) for e in errors for m in e), code=first.code or None,
                    field=field)  # fmt: skip
        error.params = {k: plain(v) for k, v in (first.params or {}).items()}
        return error

    def within(self, message: str, *, field: str | None = None, **params: Any) -> ApplicationError:
        """This error told inside a larger whole (``"game %(number)s: %(message)s"``): the
        same code, rule and place, its params joined by the whole's."""
        error = ApplicationError(
            message,
            code=self.code,
            params={**params, "message": self.message},
            field=field if field is not None else self.field,
            line=self.line,
            col=self.col,
            rule=self.rule,
        )
        error.params = {**self.params, **error.params}
        error.engine = self.engine
        return error


class PermissionDenied(ApplicationError):
    """The user may not do this (e.g. correct a result without being a director)."""

    code = "forbidden"


class Conflict(ApplicationError):
    """Somebody else changed the same thing first (HTTP 409): ``current`` says what is
    there now, so that nothing is lost silently."""

    code = "conflict"

    def __init__(
        self,
        message: str | Promise,
        *,
        code: str | None = None,
        params: dict[str, Any] | None = None,
        current: object = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params, field=field)
        self.current = current


# The pairing algorithms' refusals, by their code (test_pairing_codes.py): what a director can meet
# (too few players, no legal pairing) and the algorithms' own invariants (a player twice,
# a result for a match of no bracket), which the app's callers should never break but
# which are still said in the reader's language. tests/tournaments/test_pairing_codes.py
# checks that every raise in tournaments/pairing names a code of this table.
PAIRING_MESSAGES = {
    "too-few-players": gettext_lazy("a pairing needs at least two players"),
    "no-players": gettext_lazy("there are no players to pair"),
    "no-pairing-byes": gettext_lazy(
        "no legal pairing: the number of players is odd and everyone has had a bye"
    ),
    "player-twice": gettext_lazy("a player appears twice among the players to pair"),
    "same-rank": gettext_lazy("two players have the same rank"),
    "seed-missing": gettext_lazy("a seed is missing"),
    "bracket-size": gettext_lazy("a bracket has a power of two slots, not %(size)s"),
    "losers-bracket-size": gettext_lazy(
        "a losers' bracket comes from 4, 8, 16, … slots, not %(size)s"
    ),
    "berger-seats": gettext_lazy("a Berger table needs an even number of seats, not %(seats)s"),
    "consolation-too-small": gettext_lazy(
        "a consolation bracket needs at least two first-round series"
    ),
    "no-such-match": gettext_lazy("there is no match %(match)s in this bracket"),
    "result-unknown-match": gettext_lazy(
        "a result for match %(match)s, which is not in this bracket"
    ),
    "bad-winning-side": gettext_lazy(
        "match %(match)s: the winning side must be 0 or 1, not %(side)s"
    ),
    "result-waiting-match": gettext_lazy(
        "a result for match %(match)s, which is not ready to be played yet"
    ),
    "result-skipped-match": gettext_lazy("a result for match %(match)s, which is not needed"),
    "result-empty-match": gettext_lazy("a result for match %(match)s, which has no players"),
    "result-bye-match": gettext_lazy("a result for match %(match)s, which is a bye"),
}


def pairing_refused(exc: PairingError, names: dict[int, str] | None = None) -> ApplicationError:
    """A pairing algorithm's refusal in the active language, its players by name; a code
    this table lacks (a newer algorithm) keeps its English text inside a Czech frame."""
    if exc.code == "no-pairing":
        ids = exc.params.get("players")
        players = [(names or {}).get(p, str(p)) for p in ids] if isinstance(ids, list) else []
        return ApplicationError(
            _("no legal pairing: whatever the arrangement, %(count)s players have no opponent "
              "left whom they have not met and may meet (for example %(players)s)"),
            code="no-pairing",
            params={"count": exc.params["count"], "players": ", ".join(players[:6])
                    + ("…" if len(players) > 6 else "")},
        )  # fmt: skip
    if exc.code in PAIRING_MESSAGES:
        try:
            return ApplicationError(PAIRING_MESSAGES[exc.code], code=exc.code, params=exc.params)
        except (KeyError, TypeError, ValueError):  # params that do not fit the text
            pass
    return ApplicationError(
        _("the pairing cannot be made: %(reason)s"),
        code="pairing-refused",
        params={"reason": exc.message, "pairing": exc.code},
    )
