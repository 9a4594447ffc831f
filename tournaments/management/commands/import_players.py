"""manage.py import_players FILE: players from a CSV file (name,club,rating)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.management.records import progress
from tournaments.services.errors import ApplicationError
from tournaments.services.player_lists import players_import_csv


class Command(BaseCommand):
    help = (
        "Import players from a UTF-8 CSV file with the header name,club,rating (club and "
        "rating may be empty). Refused lines are listed with the reason; the others are saved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = options["file"].read_bytes()
        except OSError as exc:
            raise CommandError(
                _("%(path)s cannot be read: %(reason)s") % {"path": options["file"], "reason": exc}
            ) from None

        def bar(items: Any, *, desc: str, total: int | None = None) -> Any:
            return progress(
                items, command=self, desc=desc, total=total, verbosity=options["verbosity"]
            )

        try:
            report = players_import_csv(data=data, progress=bar)
        except ApplicationError as exc:
            raise CommandError(
                _("%(source)s: %(message)s") % {"source": options["file"], "message": exc.message}
            ) from None
        for line, reason in report.rejected:
            self.stdout.write(_("line %(line)s: %(message)s") % {"line": line, "message": reason})
        self.stdout.write(
            _("%(created)s player(s) imported, %(refused)s line(s) refused")
            % {"created": len(report.created), "refused": len(report.rejected)}
        )
