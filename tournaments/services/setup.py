"""Setting a tournament up: registering players, rounds and series, forfeits."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import (
    CLOSED_STATUSES,
    Entry,
    Player,
    Round,
    Series,
    SeriesStatus,
    TieBreak,
    Tournament,
)
from tournaments.services.errors import ResultError


def tournament_create(*, name: str, start_date: Any, **settings: Any) -> Tournament:
    """A new tournament; the settings are the model's fields (checked here)."""
    tie_breaks = settings.get("tie_breaks")
    if tie_breaks is not None:
        unknown = [t for t in tie_breaks if t not in TieBreak.values]
        if unknown:
            raise ResultError(f"unknown tie-break {unknown[0]!r}", field="tie_breaks")
        if len(set(tie_breaks)) != len(tie_breaks):
            raise ResultError("a tie-break is listed twice", field="tie_breaks")
    if not name.strip():
        raise ResultError("a tournament needs a name", field="name")
    tournament = Tournament(name=name.strip(), start_date=start_date, **settings)
    if tournament.series_length < 1:
        raise ResultError("a series is at least one point or game long", field="series_length")
    tournament.save()
    return tournament


def entry_register(*, tournament: Tournament, player: Player, seed: int | None = None) -> Entry:
    """Register a player for a tournament (once)."""
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ResultError(f"{player} is already registered", field="player")
    return Entry.objects.create(tournament=tournament, player=player, seed=seed)


def round_create(*, tournament: Tournament, number: int | None = None, name: str = "") -> Round:
    """The next round (or round ``number``)."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    number = number or (last or 0) + 1
    if tournament.rounds.filter(number=number).exists():
        raise ResultError(f"round {number} already exists", field="number")
    return Round.objects.create(tournament=tournament, number=number, name=name)


@transaction.atomic
def series_create(
    *,
    tournament: Tournament,
    player1: Player | None,
    player2: Player | None,
    round: Round | None = None,
    table: int | None = None,
    slot: str = "",
    length: int | None = None,
) -> Series:
    """Pair two registered players (or leave a bracket slot open: None)."""
    if player1 is not None and player1 == player2:
        raise ResultError("a player cannot play against himself", field="player2")
    if round is not None and round.tournament_id != tournament.pk:
        raise ResultError("the round belongs to another tournament", field="round")
    registered = set(
        Entry.objects.filter(tournament=tournament, withdrawn=False).values_list(
            "player_id", flat=True
        )
    )
    for field, player in (("player1", player1), ("player2", player2)):
        if player is None:
            continue
        if player.pk not in registered:
            raise ResultError(f"{player} is not registered for the tournament", field=field)
        if round is not None and (
            round.series.filter(player1=player).exists()
            or round.series.filter(player2=player).exists()
        ):
            raise ResultError(f"{player} already plays in round {round.number}", field=field)
    return Series.objects.create(
        tournament=tournament, round=round, player1=player1, player2=player2, table=table,
        slot=slot, length=length,
    )  # fmt: skip


@transaction.atomic
def series_forfeit(*, series: Series, winner: Player) -> Series:
    """The series is won by ``winner`` without (further) play."""
    series = Series.objects.select_for_update(of=("self",)).get(pk=series.pk)
    if series.status in CLOSED_STATUSES:
        raise ResultError(f"the series is already {series.get_status_display()}")
    if winner.pk not in (series.player1_id, series.player2_id):
        raise ResultError(f"{winner} does not play in this series", field="winner")
    series.status = SeriesStatus.FORFEITED
    series.winner = winner
    series.finished_at = timezone.now()
    series.version += 1
    series.save()
    from tournaments.services.pairings import BRACKET_FORMATS, bracket_sync

    if series.tournament.format in BRACKET_FORMATS:
        bracket_sync(tournament=series.tournament)
    return series
