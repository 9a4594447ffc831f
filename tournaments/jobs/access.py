"""Who may follow a job, and who may start one."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Job, JobKind, Tournament
from tournaments.selectors.access import (
    User,
    is_director,
    may_create_tournaments,
    may_import_players,
)


def visible_jobs(user: User) -> QuerySet[Job]:
    """The jobs a user may follow: their own, and those of the tournaments they direct
    (superusers: all)."""
    jobs = Job.objects.select_related("tournament", "created_by")
    if not user.is_authenticated:
        return jobs.none()
    if getattr(user, "is_superuser", False):
        return jobs
    directed = Tournament.directors.through.objects.filter(user_id=user.pk).values("tournament_id")
    return jobs.filter(Q(created_by_id=user.pk) | Q(tournament__in=directed))


def may_start(user: User, *, kind: str, tournament: Tournament | None) -> bool:
    """Whether ``user`` may start a job of ``kind`` (on ``tournament``), as the page that
    starts it decides: players into the list by staff, into a tournament by its
    directors; an archive by who may create tournaments; a tournament's records,
    verification, recomputation and analysis by its directors (without a tournament,
    as the commands start them: superusers)."""
    if kind == JobKind.PLAYERS_IMPORT:
        return may_import_players(user, tournament)
    if kind == JobKind.TOURNAMENT_IMPORT:
        return may_create_tournaments(user)
    if tournament is None:
        return bool(getattr(user, "is_superuser", False))
    return is_director(user, tournament)
