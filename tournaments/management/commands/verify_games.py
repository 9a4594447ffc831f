"""manage.py verify_games [--tournament ID]: verify every stored record again."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.records import TournamentsCommand
from tournaments.models import JobKind, Tournament
from tournaments.services.exports import Progress
from tournaments.services.maintenance import games_reverify


class Command(TournamentsCommand):
    help = (
        "Verify every stored game record again with the engine (and that it still tells "
        "the stored result); update each game's verified flag and message where they "
        "change. Fails when a game does not verify."
    )

    kind = JobKind.VERIFY_GAMES
    unit = "game"

    def work(self, *, tournament: Tournament | None, progress: Progress) -> None:
        report = games_reverify(tournament=tournament, progress=progress)
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
