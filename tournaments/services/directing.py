"""Directors' writes on a tournament: creating it (directed by its maker), changing its
settings, deleting it. Every door (API, pages, admin) calls these."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.services.errors import ResultError
from tournaments.services.people import player_create
from tournaments.services.results import User
from tournaments.services.setup import (
    tournament_check,
    tournament_create,
    tournament_settings_check,
)

# Settings fixed once a series is paired: they change the meaning of games already played
# (the game and its rules, the series' length and who starts), how the pairings are made,
# or the points of standings already shown. A director may still rename the tournament,
# move its dates and venue, publish it, add Swiss rounds, choose what a withdrawal does,
# and reorder the tie-breaks (they change no one's points, only the order of equal ones).
LOCKED_ONCE_PAIRED = (
    "variant", "format", "series_mode", "series_length", "lengths_by_stage", "first_move",
    "mars", "last_roll", "block_check", "block_ahead", "cube", "draw_scoring",
    "points_series_win", "points_series_draw", "points_series_loss", "points_per_game_point",
    "bye_points", "forfeit_game_points", "third_place", "consolation",
    "bracket_reset", "opening_roll",
)  # fmt: skip


@transaction.atomic
def tournament_create_by(*, by: User, name: str, start_date: Any, **settings: Any) -> Tournament:
    """A new tournament, directed by the user who made it."""
    tournament = tournament_create(name=name, start_date=start_date, **settings)
    if isinstance(by, AuthUser):
        tournament.directors.add(by)
    return tournament


def tournament_update_check(*, tournament: Tournament, paired: bool, **settings: Any) -> None:
    """Raise ResultError if these changes may not be made (``tournament`` is changed in
    memory, not saved)."""
    tournament_settings_check(settings)
    if paired:
        for name in LOCKED_ONCE_PAIRED:
            if name in settings and settings[name] != getattr(tournament, name):
                played_at = ""
                if name in ("series_length", "lengths_by_stage", "series_mode"):
                    from tournaments.services.sheets import series_played_at

                    played_at = series_played_at(tournament=tournament)
                if played_at:
                    raise ResultError(
                        _("This cannot change once series are paired. %(played)s"),
                        code="locked-once-played",
                        params={"played": played_at},
                        field=name,
                    )
                raise ResultError(
                    _("This cannot change once series are paired."),
                    code="locked-once-paired",
                    field=name,
                )
        swiss_rounds = settings.get("swiss_rounds")
        played = tournament.rounds.count()
        if swiss_rounds is not None and swiss_rounds < played:
            raise ResultError(
                _("%(n)d rounds are paired already."),
                code="swiss-rounds-below-paired",
                params={"n": played},
                field="swiss_rounds",
            )
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament_check(tournament)


@transaction.atomic
def tournament_update(*, tournament: Tournament, **settings: Any) -> Tournament:
    """Change a tournament's settings; the rules, the format and the scoring stay once it
    is paired (LOCKED_ONCE_PAIRED)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament_update_check(tournament=locked, paired=locked.series.exists(), **settings)
    locked.save()
    return locked


@transaction.atomic
def tournament_delete(*, tournament: Tournament) -> None:
    """Delete a tournament with everything in it (its directors decide)."""
    tournament.delete()


__all__ = [
    "LOCKED_ONCE_PAIRED",
    "player_create",
    "tournament_create_by",
    "tournament_delete",
    "tournament_update",
    "tournament_update_check",
]
