"""manage.py verify_games [--tournament ID]: verify every stored record again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.jobs import job_start
from tournaments.management.records import progress
from tournaments.models import JobKind, Tournament
from tournaments.services.maintenance import games_reverify


class Command(BaseCommand):
    help = (
        "Verify every stored game record again with the engine (and that it still tells "
        "the stored result); update each game's verified flag and message where they "
        "change. Fails when a game does not verify."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, metavar="ID", help="only this tournament")
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
                kind=JobKind.VERIFY_GAMES, params={"tournament": options["tournament"]}, by=None,
                tournament=tournament,
            )  # fmt: skip
            self.stdout.write(
                _("job %(id)s: %(status)s") % {"id": job.pk, "status": job.get_status_display()}
            )
            return
        report = games_reverify(
            tournament=tournament,
            progress=lambda items, *, desc, total=None: progress(
                items, command=self, desc=desc, total=total, unit="game",
                verbosity=options["verbosity"],
            ),
        )  # fmt: skip
        total, changed = report.total, report.changed
        failures = [
            _("  game %(id)s (%(tournament)s: %(series)s, game %(number)s): %(message)s")
            % {"id": game.pk, "tournament": game.series.tournament, "series": game.series,
               "number": game.number, "message": message}
            for game, message in report.failures
        ]  # fmt: skip
        self.stdout.write(
            _("%(total)s games with a record: %(ok)s ok, %(failed)s failed; %(changed)s updated")
            % {"total": total, "ok": total - len(failures), "failed": len(failures),
               "changed": changed}
        )  # fmt: skip
        for line in failures:
            self.stdout.write(line)
        if failures:
            raise CommandError(
                ngettext("%(n)s game does not verify", "%(n)s games do not verify", len(failures))
                % {"n": len(failures)}
            )
