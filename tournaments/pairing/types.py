"""The pairing package's plain data: Swiss players and pairings, brackets, the error."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, Literal, TypeVar

T = TypeVar("T", bound=Hashable)


class PairingError(ValueError):
    """No pairing or bracket can be made from this input, or a result does not fit.

    The message is meant for a tournament director ("round 7: no legal pairing: …"),
    so the Django side can show it as a form message rather than a server error.
    ``code`` and ``params`` (the values the text names) let it say it in another
    language, as the engine's errors do: every raiser names its code, and
    tournaments/services/errors.py has a message for each (tests/tournaments/
    test_pairing_codes.py reads the raises and checks it)."""

    def __init__(
        self, message: str, *, code: str, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = dict(params or {})


Score = Decimal | float | int
Id = TypeVar("Id", bound=Hashable)  # the caller's player id: a primary key, a name
FloatDirection = Literal["down", "up"]


@dataclass(frozen=True, slots=True)
class SwissPlayer(Generic[Id]):
    """One player as the pairing sees them before a round.

    ``rank`` orders players inside a score group, 1 first (rating or pairing number).
    ``floats`` is the player's float history, oldest round first: ``"down"``, ``"up"``
    or ``None`` per round; only the last entry is used."""

    id: Id
    score: Score
    rank: int
    had_bye: bool = False
    opponents: frozenset[Id] = frozenset()
    floats: tuple[FloatDirection | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Why:
    """Why a pairing was made, as a code and its parameters (player ids under ``first``,
    ``second`` and ``player``) beside the English ``reason``: the app says it in the
    reader's language with the players' names (tournaments.wording.names.pairing_reason)."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class PairExplanation(Generic[Id]):
    """A pair of the round, higher score (then better rank) first, and why it was made."""

    first: Id
    second: Id
    first_score: Score
    second_score: Score
    reason: str
    floated_down: Id | None = None
    floated_up: Id | None = None
    why: Why | None = None

    @property
    def is_float(self) -> bool:
        return self.floated_down is not None


@dataclass(frozen=True, slots=True)
class SwissPairing(Generic[Id]):
    pairs: tuple[PairExplanation[Id], ...]
    bye: Id | None = None
    bye_reason: str | None = None
    bye_why: Why | None = None

    @property
    def floats(self) -> int:
        """The number of pairs across score groups."""
        return sum(p.is_float for p in self.pairs)

    def explanations(self) -> list[str]:
        """One sentence per pair, then the bye's."""
        texts = [p.reason for p in self.pairs]
        return texts + ([self.bye_reason] if self.bye_reason else [])


@dataclass(frozen=True, slots=True)
class Seed:
    number: int  # 1 = the top seed


@dataclass(frozen=True, slots=True)
class Bye:
    pass


@dataclass(frozen=True, slots=True)
class WinnerOf:
    match: str


@dataclass(frozen=True, slots=True)
class LoserOf:
    match: str


Source = Seed | Bye | WinnerOf | LoserOf
BracketName = Literal["winners", "losers", "final", "third_place", "consolation"]
Status = Literal["waiting", "ready", "played", "walkover", "empty", "skipped"]


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One series of the bracket. ``only_if`` = (match id, side): it is played only if that
    match was won by that side (the bracket reset); otherwise it is skipped."""

    id: str
    bracket: BracketName
    round: int
    stage: str
    sources: tuple[Source, Source]
    only_if: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class MatchState(Generic[T]):
    """A match after the results so far. ``players`` holds None for a bye or for a side
    not known yet; ``status`` tells which:

    ``waiting`` a side is not known yet; ``ready`` both players known, no result;
    ``played`` has its result; ``walkover`` a player against a bye; ``empty`` a bye
    against a bye; ``skipped`` a bracket reset that is not needed."""

    match: BracketMatch
    players: tuple[T | None, T | None]
    status: Status
    winner: T | None = None
    loser: T | None = None


@dataclass(frozen=True, slots=True)
class BracketState(Generic[T]):
    matches: Mapping[str, MatchState[T]]
    champion: T | None
    third_place: T | None = None
    consolation_winner: T | None = None

    def ready(self) -> list[MatchState[T]]:
        """The matches that can be played now, in bracket order."""
        return [m for m in self.matches.values() if m.status == "ready"]
