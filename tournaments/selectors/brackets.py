"""Reads of an elimination event: the seeding and the bracket rebuilt from it (moved
from services/pairings.py, which still exports them)."""

from __future__ import annotations

from tournaments.models import Entry, Format, Player, Tournament
from tournaments.pairing import Bracket, PairingError, double_elimination, single_elimination
from tournaments.selectors.ratings import rating_in
from tournaments.services.errors import pairing_refused

BRACKET_FORMATS = (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)


def seeded_players(tournament: Tournament) -> list[Player]:
    """Active entries in seeding order: by hand (Entry.seed) first, then by the rating in
    the tournament's game."""
    entries = (
        Entry.objects.filter(tournament=tournament, withdrawn=False)
        .select_related("player")
        .annotate(rating=rating_in(tournament.variant, player="player"))
    )
    return [
        e.player
        for e in sorted(
            entries,
            key=lambda e: (e.seed is None, e.seed or 0, -e.rating, e.player.name.casefold()),
        )
    ]


def seating(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Seats follow the seeding (Entry.seed), then the registration order."""
    return {
        player: (seed or 10_000, pk)
        for pk, player, seed in Entry.objects.filter(tournament=tournament).values_list(
            "pk", "player_id", "seed"
        )
    }


def bracket_of(tournament: Tournament) -> Bracket[int]:
    """The tournament's bracket, rebuilt from its seeding (the same every time)."""
    seeds = [p.pk for p in seeded_players(tournament)]
    seeds += list(
        Entry.objects.filter(tournament=tournament, withdrawn=True, seed__isnull=False)
        .order_by("seed")
        .values_list("player_id", flat=True)
    )
    seeds = sorted(seeds, key=seating(tournament).__getitem__)
    try:
        if tournament.format == Format.DOUBLE_ELIMINATION:
            return double_elimination(seeds, bracket_reset=tournament.bracket_reset)
        return single_elimination(
            seeds, third_place=tournament.third_place, consolation=tournament.consolation
        )
    except PairingError as exc:
        raise pairing_refused(exc) from None
