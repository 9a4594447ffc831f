"""manage.py load_demo [--force]: the demo club and tournaments of fixtures/demo/."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import ProtectedError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.demo import DemoError, DemoGame, demo_club_name, demo_load
from tournaments.management.records import progress
from tournaments.models import Job, JobStatus
from tournaments.models.job import ANALYSIS_KINDS
from tournaments.services.errors import ApplicationError


def analysis_waiting() -> int:
    """How many games the queued analysis jobs hold (none when they ran inline)."""
    jobs = Job.objects.filter(kind__in=ANALYSIS_KINDS, status=JobStatus.QUEUED)
    return sum(len(params.get("games") or [1]) for params in jobs.values_list("params", flat=True))


class Command(BaseCommand):
    help = (  # Django's own options' help is English too: --help stays English
        "Load the demo club, its players and three tournaments from fixtures/demo/, every "
        "game entered (and verified) through the services; their analysis is left to the "
        "jobs' worker. Does nothing when the demo club exists, unless --force."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="delete the demo club, its players and the demo tournaments first",
        )
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="apply the migrations first (make run: one process starts instead of two)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity: int = options["verbosity"]
        if options["migrate"]:
            call_command("migrate", interactive=False, verbosity=verbosity, stdout=self.stdout)

        def bar(games: list[DemoGame]) -> Iterable[DemoGame]:
            return progress(games, command=self, desc=_("games"), unit="game", verbosity=verbosity)

        try:
            summary = demo_load(replace=options["force"], progress=bar)
        except (DemoError, ApplicationError) as exc:  # DemoError is a ApplicationError
            raise CommandError(
                _("the demo was not loaded: %(reason)s") % {"reason": exc.message}
            ) from exc
        except ProtectedError as exc:
            raise CommandError(
                _("the old demo cannot be deleted: its players play in other tournaments "
                  "too (%(reason)s)") % {"reason": exc.args[0]}
            ) from exc  # fmt: skip
        if summary is None:
            self.stdout.write(
                _("The demo club “%(club)s” exists already: nothing loaded (--force deletes "
                  "it and loads the demo again).") % {"club": demo_club_name()}
            )  # fmt: skip
            return
        self.stdout.write(
            ngettext("Loaded the demo club “%(club)s”: %(count)s player",
                     "Loaded the demo club “%(club)s”: %(count)s players", summary.players)
            % {"club": summary.club.name, "count": summary.players}
        )  # fmt: skip
        for tournament, series, games in summary.tournaments:
            self.stdout.write(
                _("  %(tournament)s (id %(id)s): %(series)s series, %(games)s games")
                % {"tournament": tournament.name, "id": tournament.pk, "series": series,
                   "games": games}
            )  # fmt: skip
        waiting = analysis_waiting()
        if waiting:
            self.stdout.write(
                ngettext(
                    "%(count)s game is analysed in the background by the jobs' worker "
                    "(manage.py run_jobs, which make run starts): its progress is on the "
                    "worker's lines and at /jobs/.",
                    "%(count)s games are analysed in the background by the jobs' worker "
                    "(manage.py run_jobs, which make run starts): their progress is on the "
                    "worker's lines and at /jobs/.",
                    waiting,
                )
                % {"count": waiting}
            )
