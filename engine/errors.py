"""The engine's errors: all of them are ``ValueError`` subclasses with a message a club
player understands. Bugs are never wrapped in these classes."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every user-facing engine error."""


class PositionError(EngineError):
    """A position (JSON or built by hand) that cannot exist."""


class DiceError(EngineError):
    """Dice that cannot be rolled (a 7, a single die, ...)."""


class RulesError(EngineError):
    """An unknown rule option or option value."""


class RecordSyntaxError(EngineError):
    """A record that cannot be read: a malformed tag, token or move."""

    def __init__(self, message: str, *, line: int, col: int, game: int | None = None) -> None:
        self.message = message
        self.line = line
        self.col = col
        self.game = game
        super().__init__(f"line {line}, col {col}: {message}")


class RecordTooLargeError(RecordSyntaxError):
    """A record over one of the reader's limits (:class:`engine.limits.ReadLimits`):
    ``limit`` names it (``max_tags``) and ``value`` is its value, so that the app can
    answer 413 or 400 naming the limit. ``code`` and ``params`` say the same for
    translation."""

    code = "record_too_large"

    def __init__(self, message: str, *, limit: str, value: int, line: int, col: int) -> None:
        self.limit = limit
        self.value = value
        self.params = {"limit": limit, "value": value}
        super().__init__(message, line=line, col=col)


class IllegalTurnError(EngineError):
    """A turn that breaks a rule. ``rule`` is the rule id of RULES.md (``L4.1``)."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class VerificationError(EngineError):
    """The first problem found while replaying a game, located in the record."""

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        game: int | None = None,
        line: int | None = None,
        col: int | None = None,
        turn: int | None = None,
        side: str | None = None,
        dice: str | None = None,
        text: str | None = None,
    ) -> None:
        self.message = message
        self.rule = rule
        self.game = game
        self.line = line
        self.col = col
        self.turn = turn
        self.side = side
        self.dice = dice
        self.text = text
        super().__init__(self.describe())

    def describe(self, *, located: bool = True) -> str:
        """``line 14, col 5: turn 9 (black 6-4: 13/7 8/4): point 7 is closed (L3)``; without
        the line and column when ``located`` is false."""
        parts = []
        if self.line is not None and located:
            parts.append(f"line {self.line}, col {self.col}: ")
        if self.turn is not None:
            what = f"{self.side} {self.dice}" if self.dice else f"{self.side}"
            if self.text:
                what += f": {self.text}"
            parts.append(f"turn {self.turn} ({what}): ")
        parts.append(self.message)
        if self.rule:
            parts.append(f" ({self.rule})")
        return "".join(parts)
