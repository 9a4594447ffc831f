"""Plain rows for the pages that list many series: read with ``values_list`` rather than
as model instances (a 128-player Swiss shows 448 series; building them and their
players cost more than drawing them). A row answers what the templates and the table
tags ask of a series: ids, table, slot, status, scores, players' names, ``closed``."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import QuerySet

from tournaments.models import CLOSED_STATUSES, Game, Series


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player as a list shows them: the id and the name."""

    pk: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class SeriesRow:
    """A series as a list shows it (see ``Series`` for the fields)."""

    pk: int
    round_id: int | None
    table: int | None
    slot: str
    status: str
    score1: Decimal
    score2: Decimal
    winner_id: int | None
    player1: PlayerRef | None
    player2: PlayerRef | None

    @property
    def player1_id(self) -> int | None:
        return self.player1.pk if self.player1 is not None else None

    @property
    def player2_id(self) -> int | None:
        return self.player2.pk if self.player2 is not None else None

    @property
    def closed(self) -> bool:
        return self.status in CLOSED_STATUSES

    def __str__(self) -> str:  # as Series.__str__
        return f"{self.player1 or '?'} - {self.player2 or '?'}"


_FIELDS = (
    "pk", "round_id", "table", "slot", "status", "score1", "score2", "winner_id",
    "player1_id", "player1__name", "player2_id", "player2__name",
)  # fmt: skip


def _row(values: tuple[object, ...]) -> SeriesRow:
    pk, round_id, table, slot, status, score1, score2, winner_id, one, name1, two, name2 = values
    return SeriesRow(
        pk,  # type: ignore[arg-type]
        round_id,  # type: ignore[arg-type]
        table,  # type: ignore[arg-type]
        slot,  # type: ignore[arg-type]
        status,  # type: ignore[arg-type]
        score1,  # type: ignore[arg-type]
        score2,  # type: ignore[arg-type]
        winner_id,  # type: ignore[arg-type]
        None if one is None else PlayerRef(one, name1),  # type: ignore[arg-type]
        None if two is None else PlayerRef(two, name2),  # type: ignore[arg-type]
    )


def series_rows(series: QuerySet[Series]) -> list[SeriesRow]:
    """The series of ``series`` as rows, in its order (one query)."""
    return [_row(values) for values in series.values_list(*_FIELDS)]


def attach_players(series: Series, games: list[Game]) -> list[Game]:
    """Give each game its white, black and winner from the series' own players (read
    with the series) instead of joining them again for every game; a game whose player
    is not one of the series' (a player changed since) keeps its lazy relation."""
    players = {p.pk: p for p in (series.player1, series.player2) if p is not None}
    for game in games:
        for name in ("white", "black", "winner"):
            player = players.get(getattr(game, f"{name}_id"))
            if player is not None:
                setattr(game, name, player)
    return games
