"""manage.py import_records SERIES_ID FILE [FILE ...]: enter the games of record files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Series
from tournaments.services.errors import ApplicationError
from tournaments.services.imports import records_enter, records_read
from tournaments.services.record_files import RecordInFile


class Command(BaseCommand):
    help = (
        "Enter the games of .nrd record files into a series, in order, each verified by "
        "the engine and entered in its own transaction; stops at the first refused game."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("series_id", type=int, help="the series' id")
        parser.add_argument("files", nargs="+", type=Path, help="record files (.nrd)")

    def handle(self, *args: Any, **options: Any) -> None:
        series = Series.objects.filter(pk=options["series_id"]).first()
        if series is None:
            raise CommandError(
                _("there is no series with id %(id)s") % {"id": options["series_id"]}
            )
        files: list[tuple[Path, list[RecordInFile]]] = []
        for path in options["files"]:  # every file read before any game is entered
            try:
                files.append((path, records_read(path.read_bytes())))
            except OSError as exc:
                raise CommandError(
                    _("%(path)s cannot be read: %(reason)s") % {"path": path, "reason": exc}
                ) from None
            except ApplicationError as exc:
                raise CommandError(
                    _("%(path)s: %(message)s") % {"path": path, "message": exc.message}
                ) from None
        entered = 0
        for path, records in files:
            if len(files) > 1:
                self.stdout.write(_("%(path)s:") % {"path": path})
            report = records_enter(series=series, records=records)
            for game in report.games:
                self.stdout.write(
                    _("game %(number)s: %(note)s") % {"number": game.game, "note": game.message}
                )
            if report.refused is not None:
                refused = report.games[-1]
                raise CommandError(
                    ngettext(
                        "%(path)s: game %(number)s was refused: %(why)s (%(entered)s game "
                        "entered before it)",
                        "%(path)s: game %(number)s was refused: %(why)s (%(entered)s games "
                        "entered before it)",
                        entered + report.entered,
                    )
                    % {"path": path, "number": refused.game, "why": refused.message,
                       "entered": entered + report.entered}
                ) from report.refused  # fmt: skip
            entered += report.entered
        series.refresh_from_db()
        self.stdout.write(
            _("%(entered)s; series %(series)s: %(score1)s-%(score2)s, %(status)s")
            % {"entered": ngettext("%(count)s game entered", "%(count)s games entered", entered)
               % {"count": entered}, "series": series, "score1": series.score1,
               "score2": series.score2, "status": series.get_status_display()}
        )  # fmt: skip
