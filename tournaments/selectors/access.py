"""Who may see what: the one rule for pages, the API, exports and every list.

A published tournament is public; an unpublished one is seen only by its directors and
superusers, and so are its rounds, series, games, submissions and the rating history
entries of its series. ``visible_tournaments`` says it for querysets and
``may_see_tournament`` for one tournament; every other read (the API's querysets, the
pages' selectors, the downloads) goes through one of these two.

Ratings: a series of an unpublished tournament still changes its players' ratings, as a
director expects (the event was played); only its history entry is hidden from those who
may not see the tournament, so a rating shown may include series not listed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.db.models.expressions import Combinable

from tournaments.models import RatingChange, Round, Series, Tournament

User = AuthUser | AnonymousUser


def signed_in(user: User | None) -> AuthUser | None:
    return user if isinstance(user, AuthUser) and user.is_authenticated else None


def is_director(user: User | None, tournament: Tournament) -> bool:
    """Superusers and the tournament's directors may direct it."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def director_flag(user: User | None, tournament: str = "pk") -> Combinable:
    """``is_director`` as an expression, for a read that reaches the tournament's id by
    ``tournament`` (a field path) to say it without a query of its own."""
    if user is None or not user.is_authenticated:
        return Value(False)
    if getattr(user, "is_superuser", False):
        return Value(True)
    directors = Tournament.directors.through.objects.filter(
        tournament_id=OuterRef(tournament), user_id=user.pk
    )
    return Exists(directors)


def is_staff(user: Any) -> bool:
    """Staff and superusers (they manage clubs and the list of players)."""
    return bool(
        user
        and user.is_authenticated
        and (getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))
    )


def may_create_tournaments(user: User | None) -> bool:
    """Who may create a tournament, and so import an archive as a new tournament that
    they direct: the users an administrator gave "Can add tournament", and staff."""
    if user is None or not user.is_authenticated:
        return False
    return is_staff(user) or bool(user.has_perm("tournaments.add_tournament"))


def may_delete_tournament(user: User | None, tournament: Tournament) -> bool:
    """Who may delete a tournament (services/deletion.py): its directors and superusers,
    and staff an administrator gave "Can delete tournament"."""
    if is_director(user, tournament):
        return True
    return is_staff(user) and bool(user and user.has_perm("tournaments.delete_tournament"))


def may_delete_game(user: User | None, tournament: Tournament) -> bool:
    """Who may delete a game entered by mistake (services/deletion.py): the directors of
    its tournament and superusers, as for corrections."""
    return is_director(user, tournament)


def may_import_players(user: User | None, tournament: Tournament | None = None) -> bool:
    """Players from a CSV file: into a tournament, by its directors (the players are
    created or matched and entered); into the list of players alone, by staff."""
    if tournament is not None:
        return is_director(user, tournament)
    return is_staff(user)


def public_sees(*, published: bool) -> bool:
    """Whether a visitor who is not signed in may see a tournament (and its rounds,
    series, games): the rule ``visible_tournaments`` applies for them, for versions read
    from the shared cache (caching/versions.py)."""
    return published


def visible_tournaments(user: User | None) -> QuerySet[Tournament]:
    """Published tournaments, and the unpublished ones the user directs (all for a
    superuser). Usable as a subquery: ``tournament__in=visible_tournaments(user)``."""
    tournaments = Tournament.objects.all()
    if user is not None and getattr(user, "is_superuser", False):
        return tournaments
    if user is None or not user.is_authenticated:
        return tournaments.filter(published=True)  # public_sees()
    directed = Tournament.directors.through.objects.filter(user_id=user.pk).values("tournament_id")
    return tournaments.filter(Q(published=True) | Q(pk__in=directed))


def may_see_tournament(
    user: User | None, tournament: Tournament, *, directing: bool | None = None
) -> bool:
    """The same rule for one tournament; ``directing`` if the caller knows it already."""
    if tournament.published:
        return True
    return is_director(user, tournament) if directing is None else directing


def _directed_ids(user: User | None) -> QuerySet[Any]:
    account_id = user.pk if user is not None and user.is_authenticated else 0  # 0: nobody
    return Tournament.directors.through.objects.filter(user_id=account_id).values("tournament_id")


def visible_series(user: User | None) -> QuerySet[Series]:
    """Series of the tournaments the user may see, but those of rounds paired ahead and
    not published yet (services/schedule.py), which only the directors see."""
    series = Series.objects.filter(tournament__in=visible_tournaments(user))
    if user is not None and getattr(user, "is_superuser", False):
        return series
    return series.exclude(Q(round__published=False) & ~Q(tournament__in=_directed_ids(user)))


def visible_rounds(user: User | None) -> QuerySet[Round]:
    """Rounds of the tournaments the user may see; an unpublished round only to its
    tournament's directors."""
    rounds = Round.objects.filter(tournament__in=visible_tournaments(user))
    if user is not None and getattr(user, "is_superuser", False):
        return rounds
    return rounds.exclude(Q(published=False) & ~Q(tournament__in=_directed_ids(user)))


def may_see_series(user: User | None, series: Series, *, directing: bool) -> bool:
    """Whether the user may see a series of a tournament they may see: not one of a
    round unpublished, unless they direct it."""
    return directing or series.round is None or series.round.published


def visible_rating_changes(user: User | None) -> QuerySet[RatingChange]:
    """Rating history entries whose series the user may see."""
    return RatingChange.objects.filter(series__tournament__in=visible_tournaments(user))


__all__ = [
    "director_flag",
    "is_staff",
    "may_create_tournaments",
    "may_delete_game",
    "may_delete_tournament",
    "may_import_players",
    "may_see_series",
    "may_see_tournament",
    "public_sees",
    "visible_rating_changes",
    "visible_rounds",
    "visible_series",
    "visible_tournaments",
]
