"""The engine's errors: one family of ``ValueError`` subclasses with a message a club
player understands. Bugs are never wrapped in these classes.

Every error carries, beside its English text, what an application needs to say it in
another language (docs/architecture.md): ``code`` (a stable string such as ``"point-closed"``),
``params`` (the values the text names), ``rule`` (the rule id of RULES.md, or ``None``)
and its place (``game``, ``line``, ``col``, ``None`` where unknown). ``describe()`` is the
text with its place, ``to_dict()`` all of it as plain data.
"""

from __future__ import annotations

import functools
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ParamSpec

    P = ParamSpec("P")


class EngineError(ValueError):
    """Base class of every user-facing engine error."""

    code = "engine-error"  # the class's code when the raiser names none

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        code: str | None = None,
        params: dict[str, Any] | None = None,
        game: int | None = None,
        line: int | None = None,
        col: int | None = None,
    ) -> None:
        self.message = message
        self.rule = rule
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.game = game
        self.line = line
        self.col = col
        super().__init__(self.describe())

    def describe(self, *, located: bool = True) -> str:
        """The message with its place and rule: ``line 3, col 1: ...``, ``... (L3)``;
        without the line and column when ``located`` is false."""
        where = f"line {self.line}, col {self.col}: " if located and self.line is not None else ""
        return f"{where}{self.message}" + (f" ({self.rule})" if self.rule else "")

    def to_dict(self) -> dict[str, Any]:
        """The error as plain data (for an API or a translation)."""
        return {
            "code": self.code,
            "rule": self.rule,
            "params": self.params,
            "message": self.message,
            "game": self.game,
            "line": self.line,
            "col": self.col,
        }


class PositionError(EngineError):
    """A position (JSON or built by hand) that cannot exist."""

    code = "bad-position"


class DiceError(EngineError):
    """Dice that cannot be rolled (a 7, a single die, ...)."""

    code = "bad-dice"


class RulesError(EngineError):
    """An unknown rule option or option value."""

    code = "bad-rules"


class ConversionError(EngineError):
    """Records that cannot be written in the asked format (a .mat file of long nardy)."""

    code = "cannot-convert"


class RecordSyntaxError(EngineError):
    """A record that cannot be read: a malformed tag, token or move."""

    code = "syntax"

    def __init__(
        self,
        message: str,
        *,
        line: int,
        col: int,
        game: int | None = None,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, line=line, col=col, game=game, code=code, params=params)


class RecordTooLargeError(RecordSyntaxError):
    """A record over one of the reader's limits (:class:`engine.limits.ReadLimits`):
    ``limit`` names it (``max_tags``) and ``value`` is its value, so that the app can
    answer 413 or 400 naming the limit. ``code`` and ``params`` say the same for
    translation."""

    code = "record_too_large"

    def __init__(self, message: str, *, limit: str, value: int, line: int, col: int) -> None:
        self.limit = limit
        self.value = value
        super().__init__(message, line=line, col=col, params={"limit": limit, "value": value})


class IllegalTurnError(EngineError):
    """A turn that breaks a rule. ``rule`` is the rule id of RULES.md (``L4.1``)."""

    code = "illegal-turn"


class VerificationError(EngineError):
    """The first problem found while replaying a game, located in the record: beside the
    place, the turn (number, side, dice and the moves as written)."""

    code = "illegal-turn"

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
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        self.turn = turn
        self.side = side
        self.dice = dice
        self.text = text
        super().__init__(
            message, rule=rule, game=game, line=line, col=col, code=code, params=params
        )

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

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "turn": self.turn,
            "side": self.side,
            "dice": self.dice,
            "text": self.text,
        }


# Every code an engine error can carry (a test reads the engine's source and checks that
# this list is complete and that each code stands for one message; the app's translation
# table must cover it). A ``RecordTooLargeError``'s text depends on its ``limit`` too.
CODES: frozenset[str] = frozenset(
    (
        "accepted-backward-move",
        "accepted-legal-turn",
        "accepted-misplaced",
        "accepted-no-checker",
        "accepted-nothing-to-hit",
        "accepted-point-closed",
        "after-game-over",
        "backward-move",
        "bad-character",
        "bad-date-tag",
        "bad-dice",
        "bad-dice-value",
        "bad-die",
        "bad-game-tag",
        "bad-match-length",
        "bad-match-length-tag",
        "bad-move",
        "bad-option-value",
        "bad-position",
        "bad-rules",
        "bad-score-tag",
        "bad-tag",
        "bad-tag-value",
        "block",
        "block-after-move",
        "block-on-the-way",
        "bot-cube-action",
        "bot-cube-refused",
        "bot-game-finished",
        "bot-record",
        "cannot-convert",
        "cannot-play",
        "crawford",
        "cube-action",
        "cube-max",
        "cube-off",
        "cube-owner",
        "dice-dash",
        "dice-no-colon",
        "dice-too-many",
        "dice-used-up",
        "die-missing",
        "die-used",
        "double-lot",
        "double-pending",
        "engine-error",
        "enter-first",
        "game-over",
        "head",
        "head-after-55",
        "head-third",
        "higher-checker",
        "higher-die",
        "hit-on-the-way",
        "illegal-turn",
        "impossible-step",
        "lurc-roll-not-two-dice",
        "mat-after-win",
        "mat-bad-cell",
        "mat-bad-move",
        "mat-ends-early",
        "mat-expected-game",
        "mat-no-header",
        "mat-no-number",
        "mat-no-players",
        "mat-no-wins",
        "mat-points-mismatch",
        "mat-score-mismatch",
        "mat-three-cells",
        "mat-twice-in-a-row",
        "mat-two-headers",
        "match-length-type",
        "move-without-dice",
        "must-play",
        "no-checker",
        "no-evaluator",
        "no-game",
        "no-games",
        "no-hitting",
        "no-such-point",
        "no-variant",
        "not-allowed",
        "not-exact",
        "not-home",
        "not-mat",
        "not-mat-variant",
        "not-your-turn",
        "nothing-to-hit",
        "nothing-to-hit-chain",
        "one-turn",
        "open-comment",
        "pas-misplaced",
        "pas-missing",
        "pas-not-double",
        "pas-not-lurc",
        "pas-only-lurc",
        "pas-order",
        "point-closed",
        "point-closed-count",
        "position-bad-count",
        "position-bad-point",
        "position-bad-turn",
        "position-cube-not-object",
        "position-cube-owner",
        "position-cube-value",
        "position-no-bar",
        "position-no-cube",
        "position-no-start",
        "position-no-variant",
        "position-not-object",
        "position-off-mismatch",
        "position-overlap",
        "position-side-not-object",
        "position-too-many",
        "position-unknown-key",
        "record_too_large",
        "result-mismatch",
        "result-star",
        "result-unfinished",
        "roll-not-two-dice",
        "rules-not-object",
        "side-letter-at-end",
        "side-letter-twice",
        "steps-dead-end",
        "steps-illegal",
        "steps-pas-first",
        "syntax",
        "tag-twice",
        "too-many-repeats",
        "unknown-option",
        "unknown-variant",
        "word-too-long",
        "wrong-acceptor",
        "wrong-side",
    )
)


# Codes of the errors only the engine's own commands give (``python -m engine bot``,
# ``legal``, ``duel``, ``train``: a query line, a player's name, a weights file): they are
# printed in English on the command line and never reach the app's pages. The weights
# file and the analysis's ply are the operator's (the shipped file, ``ANALYSIS_PLY``).
COMMAND_LINE_CODES: frozenset[str] = frozenset(
    (
        # the evaluator's commands: eval and hint, rollout and benchmark, their data files
        "advice-game-over",
        "advice-missing-key",
        "advice-no-evaluator",
        "advice-not-object",
        "bad-advice",
        "bad-bearoff",
        "bad-race-net",
        "bad-rollout-query",
        "bearoff-format",
        "bearoff-shape",
        "bearoff-unreadable",
        "lurc-unknown-player",
        "query-dice",
        "query-moves",
        "query-play",
        "race-format",
        "race-unreadable",
        "rollout-game-over",
        "rollout-missing-key",
        "rollout-no-evaluator",
        "rollout-not-object",
        "bad-player",
        "bad-ply",
        "bad-query",
        "bad-weights",
        "bot-no-evaluator",
        "query-missing-key",
        "query-not-json",
        "query-not-object",
        "query-too-deep",
        "query-unknown-key",
        "unknown-level",
        "unknown-player",
        "weights-encoder",
        "weights-format",
        "weights-mixed",
        "weights-shape",
        "weights-unreadable",
    )
)


def refused_with_2(command: Callable[P, int]) -> Callable[P, int]:
    """A command whose user-facing errors (a bad option's value, a file that is not what
    it should be) are said on stderr, exit status 2, instead of a traceback."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> int:
        try:
            return command(*args, **kwargs)
        except EngineError as exc:
            print(exc.describe(), file=sys.stderr)
            return 2

    return run
