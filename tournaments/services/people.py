"""Clubs and players: every door (API, pages, admin) writes them through these services,
which clean the names (services/names.py) and keep names unique."""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils.translation import gettext as _

from tournaments.models import Club, Player, PlayerRating, RatingChange, Variant
from tournaments.services.errors import ApplicationError, Conflict
from tournaments.services.names import name_clean
from tournaments.services.ratings import ratings_recompute
from tournaments.wording.gender import gender_guess

CLUB_FIELDS = frozenset({"name", "city", "country"})
PLAYER_FIELDS = frozenset(
    {"name", "club", "country", "contact", "rating", "start_rating", "active", "user", "gender"}
)


def _max_length(model: Any, field: str) -> int | None:
    length: int | None = model._meta.get_field(field).max_length
    return length


def _check_keys(changes: dict[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(set(changes) - allowed)
    if unknown:
        raise ApplicationError(
            _("%(field)s cannot be set here."),
            code="field-not-settable",
            params={"field": unknown[0]},
            field=unknown[0],
        )


def club_check(club: Club) -> None:
    club.name = name_clean(club.name, max_length=_max_length(Club, "name"))
    club.city = club.city.strip()
    if club.city:
        club.city = name_clean(club.city, field="city", max_length=_max_length(Club, "city"))
    if Club.objects.filter(name=club.name).exclude(pk=club.pk).exists():
        raise ApplicationError(
            _("A club named %(name)s exists already."),
            code="club-exists",
            params={"name": club.name},
            field="name",
        )


@transaction.atomic
def club_create(*, name: str, city: str = "", country: str = "") -> Club:
    """A new club; its name is unique."""
    club = Club(name=name, city=city, country=country)
    club_check(club)
    club.save()
    return club


@transaction.atomic
def club_update(*, club: Club, **changes: Any) -> Club:
    """Change a club's name, city or country."""
    _check_keys(changes, CLUB_FIELDS)
    locked = Club.objects.select_for_update().get(pk=club.pk)
    for field, value in changes.items():
        setattr(locked, field, value)
    club_check(locked)
    locked.save()
    return locked


def club_delete(*, club: Club) -> None:
    """Remove a club; its players stay, without a club."""
    club.delete()


RATING_MAX = 10_000


def rating_valid(rating: float | None) -> bool:
    """A rating every door accepts (the CSV, the pages, the API, archives): a finite
    number above 0, at most 10000."""
    return rating is not None and math.isfinite(rating) and 0 < rating <= RATING_MAX


def club_for_player(*, name: str) -> Club | None:
    """The club a new player is given by name (a registration, a CSV line): the existing
    club of that name, case ignored, or a new one; none for an empty name."""
    if not str(name).strip():
        return None
    name = name_clean(name, field="club", max_length=_max_length(Club, "name"))
    for club in Club.objects.filter(Q(name__iexact=name) | Q(name=name)):
        if club.name.casefold() == name.casefold():
            return club
    return club_create(name=name)


def rating_check(rating: float | None) -> None:
    if not rating_valid(rating):
        raise ApplicationError(
            _("A rating is between 1 and 10000."), code="rating-range", field="rating"
        )


def player_check(player: Player, *, field: str = "name") -> None:
    player.name = name_clean(player.name, field=field, max_length=_max_length(Player, "name"))
    same = Player.objects.filter(name=player.name, club=player.club_id).exclude(pk=player.pk)
    if same.exists():  # also without a club, where the database's constraint does not hold
        raise ApplicationError(
            _("%(name)s is already a player: choose them from the list."),
            code="player-exists",
            params={"name": player.name},
            field=field,
        )


@transaction.atomic
def player_create(
    *,
    name: str,
    club: Club | None = None,
    country: str = "",
    contact: str = "",
    rating: float | None = None,
    variant: str = Variant.LONG,
    active: bool = True,
    gender: str | None = None,
) -> Player:
    """A new player (names are unique within a club, and among players without one).
    A ``rating`` is where their rating history in ``variant`` starts (docs/ratings.md):
    a registration or a CSV gives the tournament's game, a door without one long nardy.
    ``gender`` is grammatical ("f", "m", "" not known); None: guessed from a Czech
    feminine surname (wording/gender.py), a default the director can change."""
    player = Player(name=name, club=club, country=country, contact=contact, active=active)
    player.gender = gender_guess(name) if gender is None else gender
    if rating is not None:
        rating_check(rating)
    player_check(player)
    player.save()
    if rating is not None:
        PlayerRating.objects.create(
            player=player, variant=variant, rating=rating, start_rating=rating
        )
    return player


@transaction.atomic
def player_rating_start(*, player: Player, variant: str, start: float) -> PlayerRating:
    """Where the player's rating history in ``variant`` starts; the game's history is
    replayed from it if the player has one there (the other games are not touched)."""
    rating_check(start)
    row = PlayerRating.objects.select_for_update().filter(player=player, variant=variant).first()
    if row is not None and row.start_rating == start:
        return row
    played = RatingChange.objects.filter(player=player, variant=variant).exists()
    row = row or PlayerRating(player=player, variant=variant)
    row.start_rating = start
    if not played:
        row.rating = start
    row.save()
    if played:
        ratings_recompute(variant=variant)
        row.refresh_from_db()
    return row


def _rating_in(player: Player, variant: str) -> PlayerRating:
    row = PlayerRating.objects.filter(player=player, variant=variant).first()
    return row or PlayerRating(player=player, variant=variant)


@transaction.atomic
def player_update(*, player: Player, **changes: Any) -> Player:
    """Change a player's details. The ratings move by themselves after rated series: a
    ``rating`` (or ``start_rating``) given here is where the player's long nardy history
    starts (the old single rating's doors: docs/api.md), and that history is replayed from
    it if there is one. A ``rating`` equal to the current one changes nothing (a client
    sending back what it read)."""
    _check_keys(changes, PLAYER_FIELDS)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    rating = changes.pop("rating", None)
    start = changes.pop("start_rating", None)
    if rating is not None and start is None and rating != _rating_in(locked, Variant.LONG).rating:
        start = rating
    for field, value in changes.items():
        setattr(locked, field, value)
    if start is not None:
        rating_check(start)
    player_check(locked)
    locked.save()
    if start is not None:
        player_rating_start(player=locked, variant=Variant.LONG, start=start)
    return locked


def player_delete(*, player: Player) -> None:
    """Remove a player who has never been registered or paired (409 otherwise)."""
    try:
        player.delete()
    except ProtectedError:
        raise Conflict(
            _("%(name)s has played in tournaments and cannot be deleted; mark them inactive."),
            code="player-has-played",
            params={"name": player.name},
        ) from None
