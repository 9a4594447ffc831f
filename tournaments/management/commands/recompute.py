"""manage.py recompute [--tournament ID]: series scores and statuses, then the ratings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.jobs import job_start
from tournaments.management.records import progress
from tournaments.models import JobKind, SeriesStatus, Tournament
from tournaments.services.maintenance import Recomputed, series_recompute_all


class Command(BaseCommand):
    help = (
        "Recompute every series (score, status, winner) from its games, then every rating "
        "from the rated series; all in one transaction."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tournament", type=int, metavar="ID", help="only this tournament's series"
        )
        parser.add_argument(
            "--background", action="store_true",
            help="run it as a job (on the worker when CELERY_BROKER_URL is set) and print its id",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = None
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(
                    _("there is no tournament with id %(id)s") % {"id": options["tournament"]}
                )
        if options["background"]:
            job = job_start(
                kind=JobKind.RECOMPUTE, params={"tournament": options["tournament"]}, by=None,
                tournament=tournament,
            )  # fmt: skip
            self.stdout.write(
                _("job %(id)s: %(status)s") % {"id": job.pk, "status": job.get_status_display()}
            )
            return
        report = series_recompute_all(
            tournament=tournament,
            progress=lambda items, *, desc, total=None: progress(
                items, command=self, desc=desc, total=total, unit="series",
                verbosity=options["verbosity"],
            ),
        )  # fmt: skip
        self.stdout.write(_summary(report))


def _summary(report: Recomputed) -> str:
    """``66 series recomputed (54 finished, 2 in play, 10 scheduled), 1 changed; ratings
    recomputed from 53 rated series``, each status named in the command's language."""
    statuses = ", ".join(
        _("%(count)s %(status)s") % {"count": n, "status": SeriesStatus(status).label}
        for status, n in sorted(report.statuses.items())
    )
    return _("%(recomputed)s (%(statuses)s), %(changed)s; %(ratings)s") % {
        "recomputed": ngettext(
            "%(count)s series recomputed", "%(count)s series recomputed", report.series
        )
        % {"count": report.series},
        "statuses": statuses or _("none"),
        "changed": ngettext("%(count)s changed", "%(count)s changed", report.changed)
        % {"count": report.changed},
        "ratings": ngettext(
            "ratings recomputed from %(count)s rated series",
            "ratings recomputed from %(count)s rated series",
            report.rated,
        )
        % {"count": report.rated},
    }
