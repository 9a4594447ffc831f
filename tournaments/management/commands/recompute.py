"""manage.py recompute [--tournament ID]: series scores and statuses, then the ratings."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments.jobs import job_start
from tournaments.management.records import progress
from tournaments.models import JobKind, Series, Tournament
from tournaments.services.ratings import ratings_recompute
from tournaments.services.series import series_recompute


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
        series = Series.objects.select_related("tournament").order_by(
            "tournament_id", "round__number", "table", "id"
        )
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"there is no tournament with id {options['tournament']}")
            series = series.filter(tournament=tournament)
        if options["background"]:
            job = job_start(
                kind=JobKind.RECOMPUTE, params={"tournament": options["tournament"]}, by=None,
                tournament=Tournament.objects.filter(pk=options["tournament"]).first(),
            )  # fmt: skip
            self.stdout.write(f"job {job.pk}: {job.status}")
            return
        todo = list(series)
        statuses: Counter[str] = Counter()
        changed = 0
        with transaction.atomic():
            bar = progress(
                todo, command=self, desc="series", unit="series", verbosity=options["verbosity"]
            )
            for s in bar:
                before = (s.status, s.score1, s.score2, s.winner_id)
                series_recompute(series=s)
                changed += before != (s.status, s.score1, s.score2, s.winner_id)
                statuses[s.status.replace("_", " ")] += 1
            rated = ratings_recompute()
        counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
        self.stdout.write(
            f"{len(todo)} series recomputed ({counts or 'none'}), {changed} changed; "
            f"ratings recomputed from {rated} rated series"
        )
