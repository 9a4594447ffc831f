"""Who may follow a job."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Job, Tournament
from tournaments.selectors.access import User


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
