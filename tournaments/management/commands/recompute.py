"""manage.py recompute [--tournament ID]: series scores and statuses, then the ratings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.jobs import job_start
from tournaments.management.records import progress
from tournaments.models import JobKind, Tournament
from tournaments.services.maintenance import series_recompute_all


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
            self.stdout.write(f"job {job.pk}: {job.status}")
            return
        report = series_recompute_all(
            tournament=tournament,
            progress=lambda items, *, desc, total=None: progress(
                items, command=self, desc=desc, total=total, unit="series",
                verbosity=options["verbosity"],
            ),
        )  # fmt: skip
        todo, changed, rated = report.series, report.changed, report.rated
        statuses = {status.replace("_", " "): n for status, n in report.statuses.items()}
        counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
        self.stdout.write(
            f"{todo} series recomputed ({counts or 'none'}), {changed} changed; "
            f"ratings recomputed from {rated} rated series"
        )
