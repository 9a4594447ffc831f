"""Directors' writes the pages need that setup.py does not have: changing a tournament's
settings and adding a new player at the desk."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments.models import Club, Player, Tournament
from tournaments.services.errors import ResultError
from tournaments.services.results import User
from tournaments.services.setup import tournament_create

# settings that change the meaning of games already played
LOCKED_ONCE_PAIRED = ("variant", "format")


def _validated(tournament: Tournament) -> None:
    try:
        tournament.full_clean(exclude=["directors"])
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ResultError(messages[0], field=None if field == "__all__" else field) from None


@transaction.atomic
def tournament_create_by(*, by: User, name: str, start_date: Any, **settings: Any) -> Tournament:
    """A new tournament, directed by the user who made it."""
    tournament = tournament_create(name=name, start_date=start_date, **settings)
    _validated(tournament)
    if isinstance(by, AuthUser):
        tournament.directors.add(by)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, **settings: Any) -> Tournament:
    """Change a tournament's settings; the game and the format stay once it is paired."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.series.exists():
        for name in LOCKED_ONCE_PAIRED:
            if name in settings and settings[name] != getattr(locked, name):
                raise ResultError("this cannot change once series are paired", field=name)
    for name, value in settings.items():
        setattr(locked, name, value)
    _validated(locked)
    locked.save()
    return locked


def player_create(*, name: str, club: Club | None = None) -> Player:
    """A new player (names are unique within a club)."""
    name = name.strip()
    if not name:
        raise ResultError("a player needs a name", field="new_name")
    if Player.objects.filter(name=name, club=club).exists():
        raise ResultError(
            f"{name} is already a player: choose them from the list", field="new_name"
        )
    return Player.objects.create(name=name, club=club)
